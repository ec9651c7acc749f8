// TouchedRows (fs/formats/touched_rows.h): rows come back in order with
// their keys and columns, a partition's key marked new only where it
// changes, also across Append and after clear.
#include "fs/formats/touched_rows.h"

#include <catch2/catch.hpp>

namespace cellfs::fs {
namespace {

using Strings = std::vector<std::string>;
using Columns = std::vector<size_t>;

struct ReadRow {
  bool new_partition;
  Strings partition_key;
  Strings clustering;
  Columns columns;
  bool operator==(const ReadRow&) const = default;
};

std::vector<ReadRow> ReadAll(const TouchedRows& rows) {
  std::vector<ReadRow> out;
  for (TouchedRows::Reader row(rows); row.Next();) {
    out.push_back({row.new_partition(), row.partition_key(), row.clustering(), row.columns()});
  }
  return out;
}

TEST_CASE("rows read back in order, a partition key stored where it changes", "[touched_rows]") {
  TouchedRows rows;
  CHECK(rows.empty());
  rows.Add(Strings{"p1", ""}, Strings{"c1"}, Columns{2, 3});
  rows.Add(Strings{"p1", ""}, Strings{"c2"}, Columns{});
  rows.Add(Strings{"p2", std::string("\0x", 2)}, Strings{}, Columns{4});
  rows.Add(Strings{"p1", ""}, Strings{"c1"}, Columns{2});
  CHECK(rows.size() == 4);
  std::vector<ReadRow> expected = {
      {true, {"p1", ""}, {"c1"}, {2, 3}},
      {false, {"p1", ""}, {"c2"}, {}},
      {true, {"p2", std::string("\0x", 2)}, {}, {4}},
      {true, {"p1", ""}, {"c1"}, {2}},
  };
  CHECK(ReadAll(rows) == expected);
}

TEST_CASE("Append continues after the last row; clear forgets the last partition",
          "[touched_rows]") {
  TouchedRows first;
  first.Add(Strings{"p"}, Strings{"a"}, Columns{1});
  TouchedRows second;
  second.Add(Strings{"p"}, Strings{"b"}, Columns{1});  // the same partition as first's last
  second.Add(Strings{"q"}, Strings{"c"}, Columns{1});
  first.Append(second);
  first.Append(TouchedRows());
  CHECK(first.size() == 3);
  std::vector<ReadRow> expected = {
      {true, {"p"}, {"a"}, {1}},
      {true, {"p"}, {"b"}, {1}},
      {true, {"q"}, {"c"}, {1}},
  };
  CHECK(ReadAll(first) == expected);
  // A row added after Append compares with the appended rows' last partition.
  first.Add(Strings{"q"}, Strings{"d"}, Columns{});
  CHECK(ReadAll(first).back() == ReadRow{false, {"q"}, {"d"}, {}});

  first.clear();
  CHECK(first.empty());
  CHECK(ReadAll(first).empty());
  first.Add(Strings{"q"}, Strings{"e"}, Columns{});  // the first row again names its partition
  CHECK(ReadAll(first) == std::vector<ReadRow>{{true, {"q"}, {"e"}, {}}});
}

}  // namespace
}  // namespace cellfs::fs
