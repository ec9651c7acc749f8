// ClusteringRanges: CQL tuple bounds on the clustering key turned into byte
// ranges of the stored (per-column ASC/DESC) order, checked by hand on the
// simple cases and against a direct tuple comparison on random tables.
#include "engine/store/internal/clustering_ranges.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "tests/engine/hex_test_util.h"
#include "tests/engine/schema_script.h"

namespace cellfs::storage {
namespace {

using testing::FromHex;
using testing::ToHex;

// Parses `create_table` (a CREATE TABLE for ks.t) and wraps the result as
// the storage layer sees it.
TableSchema MakeTable(const std::string& create_table) {
  Catalog catalog;
  const std::string script =
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n" +
      create_table;
  const Status status = testing::RunScript(catalog, script);
  INFO(create_table);
  REQUIRE(status.ok());
  const TableDef* def = catalog.FindTable("ks", "t");
  REQUIRE(def != nullptr);
  return TableSchema{*def, 1, std::vector<uint32_t>(def->columns.size(), 0), {}, {}, {}};
}

const CqlType& ClusteringType(const TableSchema& table, size_t i) {
  return *table.column(table.partition_key_count() + i).type;
}

// A bound from literal spellings of the first clustering values.
ClusteringBound Bound(const TableSchema& table, const std::vector<std::string>& literals,
                      bool inclusive) {
  ClusteringBound bound;
  bound.inclusive = inclusive;
  for (size_t i = 0; i < literals.size(); ++i) {
    Result<std::string> value = ParseLiteral(ClusteringType(table, i), literals[i]);
    REQUIRE(value.ok());
    bound.prefix.push_back(*value);
  }
  return bound;
}

using HexRanges = std::vector<std::pair<std::string, std::string>>;

// The ranges as space-separated hex, so a mismatch reads as bytes.
HexRanges RangesOf(const TableSchema& table, const SliceSpec& slice) {
  std::vector<ClusteringRange> ranges;
  const Status status = ClusteringRanges(table, slice, &ranges);
  INFO(status.ToString());
  REQUIRE(status.ok());
  HexRanges hex;
  for (const ClusteringRange& range : ranges) {
    hex.emplace_back(ToHex(range.start, " "), ToHex(range.end, " "));
  }
  return hex;
}

SliceSpec Lower(ClusteringBound bound) {
  SliceSpec slice;
  slice.lower = std::move(bound);
  return slice;
}

SliceSpec Upper(ClusteringBound bound) {
  SliceSpec slice;
  slice.upper = std::move(bound);
  return slice;
}

// Encodings used below, worked out from docs/FORMAT.md: int n ASC is
// 03 || big-endian (n ^ 0x80000000); DESC inverts every byte.
constexpr const char* kAsc3 = "03 80 00 00 03";
constexpr const char* kAsc5 = "03 80 00 00 05";
constexpr const char* kDesc5 = "fc 7f ff ff fa";

TEST_CASE("no bounds select the whole partition", "[clustering_ranges]") {
  const TableSchema table = MakeTable("CREATE TABLE ks.t (p int, c int, PRIMARY KEY (p, c));");
  CHECK(RangesOf(table, SliceSpec{}) == HexRanges{{"", "ff"}});
}

TEST_CASE("a single ASC column maps each comparison to one range", "[clustering_ranges]") {
  const TableSchema table = MakeTable("CREATE TABLE ks.t (p int, c int, PRIMARY KEY (p, c));");
  const std::string e5 = kAsc5;
  SECTION(">= starts at the value") {
    CHECK(RangesOf(table, Lower(Bound(table, {"5"}, true))) == HexRanges{{e5, "ff"}});
  }
  SECTION("> starts after every key with that value") {
    CHECK(RangesOf(table, Lower(Bound(table, {"5"}, false))) == HexRanges{{e5 + " ff", "ff"}});
  }
  SECTION("<= ends after every key with that value") {
    CHECK(RangesOf(table, Upper(Bound(table, {"5"}, true))) == HexRanges{{"", e5 + " ff"}});
  }
  SECTION("< ends at the value") {
    CHECK(RangesOf(table, Upper(Bound(table, {"5"}, false))) == HexRanges{{"", e5}});
  }
  SECTION("both bounds intersect") {
    SliceSpec slice = Lower(Bound(table, {"3"}, true));
    slice.upper = Bound(table, {"5"}, false);
    CHECK(RangesOf(table, slice) == HexRanges{{kAsc3, e5}});
  }
  SECTION("= as >= and <= of the same value is the one key") {
    SliceSpec slice = Lower(Bound(table, {"5"}, true));
    slice.upper = Bound(table, {"5"}, true);
    CHECK(RangesOf(table, slice) == HexRanges{{e5, e5 + " ff"}});
  }
  SECTION("crossed or touching exclusive bounds select nothing") {
    SliceSpec crossed = Lower(Bound(table, {"5"}, true));
    crossed.upper = Bound(table, {"3"}, true);
    CHECK(RangesOf(table, crossed).empty());
    SliceSpec touching = Lower(Bound(table, {"5"}, false));
    touching.upper = Bound(table, {"5"}, true);
    CHECK(RangesOf(table, touching).empty());
  }
}

TEST_CASE("a DESC column keeps value order: greater values come first in storage",
          "[clustering_ranges]") {
  const TableSchema table = MakeTable(
      "CREATE TABLE ks.t (p int, c int, PRIMARY KEY (p, c)) WITH CLUSTERING ORDER BY (c DESC);");
  const std::string d5 = kDesc5;
  SECTION(">= runs from the start through the value") {
    CHECK(RangesOf(table, Lower(Bound(table, {"5"}, true))) == HexRanges{{"", d5 + " ff"}});
  }
  SECTION("> stops before the value") {
    CHECK(RangesOf(table, Lower(Bound(table, {"5"}, false))) == HexRanges{{"", d5}});
  }
  SECTION("<= runs from the value to the end") {
    CHECK(RangesOf(table, Upper(Bound(table, {"5"}, true))) == HexRanges{{d5, "ff"}});
  }
  SECTION("< starts after the value") {
    CHECK(RangesOf(table, Upper(Bound(table, {"5"}, false))) == HexRanges{{d5 + " ff", "ff"}});
  }
}

TEST_CASE("a bound over (ASC, DESC) columns selects two separate ranges", "[clustering_ranges]") {
  const TableSchema table = MakeTable(
      "CREATE TABLE ks.t (p int, a int, b int, PRIMARY KEY (p, a, b)) "
      "WITH CLUSTERING ORDER BY (a ASC, b DESC);");
  const std::string a1 = "03 80 00 00 01";
  const std::string a1_b2 = a1 + " fc 7f ff ff fd";
  SECTION("(a, b) >= (1, 2): a = 1 with b >= 2 first, then every a > 1") {
    CHECK(RangesOf(table, Lower(Bound(table, {"1", "2"}, true))) ==
          HexRanges{{a1, a1_b2 + " ff"}, {a1 + " ff", "ff"}});
  }
  SECTION("(a, b) > (1, 2) leaves out the key itself") {
    CHECK(RangesOf(table, Lower(Bound(table, {"1", "2"}, false))) ==
          HexRanges{{a1, a1_b2}, {a1 + " ff", "ff"}});
  }
  SECTION("(a, b) < (1, 2): every a < 1, then a = 1 with b < 2") {
    CHECK(RangesOf(table, Upper(Bound(table, {"1", "2"}, false))) ==
          HexRanges{{"", a1}, {a1_b2 + " ff", a1 + " ff"}});
  }
  SECTION("(a) > (1) compares only the first column") {
    CHECK(RangesOf(table, Lower(Bound(table, {"1"}, false))) == HexRanges{{a1 + " ff", "ff"}});
  }
  SECTION("(a) >= (1) and (a, b) <= (1, 2) is the tail of a = 1 in storage") {
    SliceSpec slice = Lower(Bound(table, {"1"}, true));
    slice.upper = Bound(table, {"1", "2"}, true);
    CHECK(RangesOf(table, slice) == HexRanges{{a1_b2, a1 + " ff"}});
  }
}

TEST_CASE("limit, direction and resume point do not change the ranges", "[clustering_ranges]") {
  const TableSchema table = MakeTable("CREATE TABLE ks.t (p int, c int, PRIMARY KEY (p, c));");
  SliceSpec slice = Lower(Bound(table, {"5"}, true));
  slice.limit = 1;
  slice.reverse = true;
  slice.resume_after = FromHex("03 80 00 00 07");
  CHECK(RangesOf(table, slice) == HexRanges{{kAsc5, "ff"}});
}

TEST_CASE("malformed bounds are InvalidArgument naming the problem", "[clustering_ranges]") {
  const TableSchema table =
      MakeTable("CREATE TABLE ks.t (p int, c int, name text, PRIMARY KEY (p, c, name));");
  std::vector<ClusteringRange> ranges;
  auto check_invalid = [&](const SliceSpec& slice, const std::string& needle) {
    const Status status = ClusteringRanges(table, slice, &ranges);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(status.message(), Catch::Contains(needle));
  };
  SECTION("a bound with no values") {
    check_invalid(Lower(ClusteringBound{}), "no values");
    check_invalid(Upper(ClusteringBound{}), "no values");
  }
  SECTION("more values than clustering columns") {
    ClusteringBound bound = Bound(table, {"1", "x"}, true);
    bound.prefix.push_back(bound.prefix.back());
    check_invalid(Lower(bound), "3 values");
    check_invalid(Upper(bound), "3 values");
  }
  SECTION("a value that is not a well-formed serialization names its column") {
    check_invalid(Lower(ClusteringBound{{std::string("\x00\x01", 2)}, true}), "column c");
    ClusteringBound bad_text = Bound(table, {"1"}, true);
    bad_text.prefix.push_back("\xC3");
    check_invalid(Upper(bad_text), "column name");
  }
  SECTION("a good lower bound does not excuse a bad upper one") {
    SliceSpec slice = Lower(Bound(table, {"1"}, true));
    slice.upper = ClusteringBound{{"\x01"}, true};
    check_invalid(slice, "column c");
  }
}

TEST_CASE("a table without clustering columns has one range and accepts no bound",
          "[clustering_ranges]") {
  const TableSchema table = MakeTable("CREATE TABLE ks.t (p int PRIMARY KEY, v text);");
  REQUIRE(table.clustering_count() == 0);
  CHECK(RangesOf(table, SliceSpec{}) == HexRanges{{"", "ff"}});
  std::vector<ClusteringRange> ranges;
  SliceSpec slice;
  slice.lower = ClusteringBound{{FromHex("00 00 00 01")}, true};
  CHECK(ClusteringRanges(table, slice, &ranges).code() == StatusCode::kInvalidArgument);
}

// ---- Property test: ranges against a direct evaluation of the bounds ----

struct ColumnShape {
  bool is_int = true;
  bool desc = false;
};

std::string CreateTableFor(const std::vector<ColumnShape>& shape) {
  std::string columns;
  std::string key;
  std::string order;
  for (size_t i = 0; i < shape.size(); ++i) {
    const std::string name = "c" + std::to_string(i);
    columns += ", " + name + (shape[i].is_int ? " int" : " text");
    key += ", " + name;
    order += (i == 0 ? "" : ", ") + name + (shape[i].desc ? " DESC" : " ASC");
  }
  return "CREATE TABLE ks.t (p int" + columns + ", PRIMARY KEY (p" + key +
         ")) WITH CLUSTERING ORDER BY (" + order + ");";
}

// Every table of 1-3 clustering columns, each int or text, ASC or DESC.
std::vector<std::vector<ColumnShape>> AllShapes() {
  std::vector<std::vector<ColumnShape>> shapes;
  std::vector<std::vector<ColumnShape>> previous = {{}};
  for (int columns = 1; columns <= 3; ++columns) {
    std::vector<std::vector<ColumnShape>> next;
    for (const std::vector<ColumnShape>& base : previous) {
      for (int variant = 0; variant < 4; ++variant) {
        std::vector<ColumnShape> shape = base;
        shape.push_back(ColumnShape{variant % 2 == 0, variant >= 2});
        next.push_back(shape);
      }
    }
    shapes.insert(shapes.end(), next.begin(), next.end());
    previous = std::move(next);
  }
  return shapes;
}

size_t Pick(std::mt19937_64& rng, size_t n) { return static_cast<size_t>(rng() % n); }

// Small domains, so rows often tie with a bound on some columns; extremes
// and bytes that need escaping (0x00) or sort high (multi-byte UTF-8).
std::string RandomValue(std::mt19937_64& rng, const CqlType& type, bool is_int) {
  static const std::vector<std::string> kInts = {"-2147483648", "2147483647", "-70000", "256", "-2",
                                                 "-1",          "0",          "1",      "2"};
  static const std::vector<std::string> kTexts = {
      "", "a", std::string("a\0", 2), "aa", "ab", "b", "\xC3\xA9", "z\xF0\x9F\x99\x82"};
  const std::vector<std::string>& domain = is_int ? kInts : kTexts;
  Result<std::string> value = ParseLiteral(type, domain[Pick(rng, domain.size())]);
  REQUIRE(value.ok());
  return *value;
}

// CQL's comparison of one serialized value, written directly: int as a
// signed 32-bit number, text as unsigned bytes.
int CompareValue(bool is_int, std::string_view a, std::string_view b) {
  if (is_int) {
    auto number = [](std::string_view bytes) {
      uint32_t bits = 0;
      for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
      return static_cast<int32_t>(bits);
    };
    const int32_t x = number(a);
    const int32_t y = number(b);
    return (x > y) - (x < y);
  }
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const auto x = static_cast<unsigned char>(a[i]);
    const auto y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return (a.size() > b.size()) - (a.size() < b.size());
}

// The row's first prefix.size() values against the bound's, as a tuple.
int CompareTuple(const std::vector<ColumnShape>& shape, const std::vector<std::string>& row,
                 const std::vector<std::string>& prefix) {
  for (size_t i = 0; i < prefix.size(); ++i) {
    const int c = CompareValue(shape[i].is_int, row[i], prefix[i]);
    if (c != 0) return c;
  }
  return 0;
}

bool Satisfies(const std::vector<ColumnShape>& shape, const std::vector<std::string>& row,
               const SliceSpec& slice) {
  if (slice.lower) {
    const int c = CompareTuple(shape, row, slice.lower->prefix);
    if (c < 0 || (c == 0 && !slice.lower->inclusive)) return false;
  }
  if (slice.upper) {
    const int c = CompareTuple(shape, row, slice.upper->prefix);
    if (c > 0 || (c == 0 && !slice.upper->inclusive)) return false;
  }
  return true;
}

std::string EncodeRow(const TableSchema& table, const std::vector<std::string>& values) {
  std::string key;
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDef& column = table.column(table.partition_key_count() + i);
    EncodeKeyComponent(*column.type, values[i], column.order, &key);
  }
  return key;
}

// The row's values read back from its encoded key, so the reference judges
// what storage holds.
std::vector<std::string> DecodeRow(const TableSchema& table, std::string_view key) {
  std::vector<std::string> values(table.clustering_count());
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDef& column = table.column(table.partition_key_count() + i);
    REQUIRE(DecodeKeyComponent(*column.type, column.order, &key, &values[i]).ok());
  }
  REQUIRE(key.empty());
  return values;
}

bool InRanges(const std::vector<ClusteringRange>& ranges, const std::string& key) {
  for (const ClusteringRange& range : ranges) {
    if (range.start <= key && key < range.end) return true;
  }
  return false;
}

std::optional<ClusteringBound> RandomBound(std::mt19937_64& rng, const TableSchema& table,
                                           const std::vector<ColumnShape>& shape) {
  ClusteringBound bound;
  const size_t length = 1 + Pick(rng, shape.size());
  for (size_t i = 0; i < length; ++i) {
    bound.prefix.push_back(RandomValue(rng, ClusteringType(table, i), shape[i].is_int));
  }
  bound.inclusive = Pick(rng, 2) == 0;
  return bound;
}

std::string Describe(const std::optional<ClusteringBound>& bound) {
  if (!bound) return "none";
  std::string text = bound->inclusive ? "inclusive (" : "exclusive (";
  for (const std::string& value : bound->prefix) text += " " + ToHex(value);
  return text + " )";
}

std::string Describe(const std::vector<ClusteringRange>& ranges) {
  std::string text;
  for (const ClusteringRange& range : ranges) {
    text += "[" + ToHex(range.start, " ") + ", " + ToHex(range.end, " ") + ") ";
  }
  return text;
}

// Sorted, each non-empty, and strictly apart: touching ranges were merged.
bool WellFormed(const std::vector<ClusteringRange>& ranges) {
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (!(ranges[i].start < ranges[i].end)) return false;
    if (i > 0 && !(ranges[i - 1].end < ranges[i].start)) return false;
  }
  return true;
}

TEST_CASE("ranges select exactly the rows satisfying the tuple bounds, on random tables",
          "[clustering_ranges]") {
  std::mt19937_64 rng(20240917);
  for (const std::vector<ColumnShape>& shape : AllShapes()) {
    const std::string ddl = CreateTableFor(shape);
    const TableSchema table = MakeTable(ddl);
    REQUIRE(table.clustering_count() == shape.size());
    std::vector<std::string> keys;
    std::vector<std::vector<std::string>> rows;
    for (int r = 0; r < 60; ++r) {
      std::vector<std::string> values;
      for (size_t i = 0; i < shape.size(); ++i) {
        values.push_back(RandomValue(rng, ClusteringType(table, i), shape[i].is_int));
      }
      keys.push_back(EncodeRow(table, values));
      rows.push_back(DecodeRow(table, keys.back()));
    }
    for (int trial = 0; trial < 150; ++trial) {
      SliceSpec slice;
      const size_t which = Pick(rng, 4);  // both, lower only, upper only, neither
      if (which == 0 || which == 1) slice.lower = RandomBound(rng, table, shape);
      if (which == 0 || which == 2) slice.upper = RandomBound(rng, table, shape);
      slice.reverse = Pick(rng, 2) == 0;
      slice.limit = Pick(rng, 3);
      if (Pick(rng, 2) == 0) slice.resume_after = keys[Pick(rng, keys.size())];

      std::vector<ClusteringRange> ranges;
      const Status status = ClusteringRanges(table, slice, &ranges);
      INFO(ddl << "\nlower " << Describe(slice.lower) << "\nupper " << Describe(slice.upper)
               << "\nranges " << Describe(ranges));
      REQUIRE(status.ok());
      CHECK(WellFormed(ranges));
      std::vector<size_t> selected;
      std::vector<size_t> expected;
      for (size_t r = 0; r < rows.size(); ++r) {
        if (InRanges(ranges, keys[r])) selected.push_back(r);
        if (Satisfies(shape, rows[r], slice)) expected.push_back(r);
      }
      CHECK(selected == expected);
    }
  }
}

// One bound of k values selects at most k + 1 pieces before merging, and the
// merge leaves at most k ranges per bound: Cassandra's split, no more.
TEST_CASE("a single bound of k values yields at most k ranges", "[clustering_ranges]") {
  std::mt19937_64 rng(77);
  for (const std::vector<ColumnShape>& shape : AllShapes()) {
    const TableSchema table = MakeTable(CreateTableFor(shape));
    for (int trial = 0; trial < 20; ++trial) {
      const bool lower = Pick(rng, 2) == 0;
      std::optional<ClusteringBound> bound = RandomBound(rng, table, shape);
      const SliceSpec slice = lower ? Lower(*bound) : Upper(*bound);
      std::vector<ClusteringRange> ranges;
      REQUIRE(ClusteringRanges(table, slice, &ranges).ok());
      INFO(CreateTableFor(shape) << "\n" << Describe(bound) << "\n" << Describe(ranges));
      CHECK(!ranges.empty());
      CHECK(ranges.size() <= bound->prefix.size());
    }
  }
}

}  // namespace
}  // namespace cellfs::storage
