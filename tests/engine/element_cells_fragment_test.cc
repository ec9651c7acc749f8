// Element cells at the fragment level: path order, the byte format's round
// trip, KeepLive over values written before element cells existed (one
// empty-path cell holding the whole value), and the merge properties of
// fragments with element cells against a model of per-element
// reconciliation written here from Cassandra's rules.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_type.h"
#include "engine/cql/literal.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/row_fragment.h"
#include "tests/engine/cassandra_model.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/random_row_fragment.h"

namespace cellfs::testing {
namespace {

using storage::KeyElementPath;
using storage::ListElementPath;

constexpr int64_t kSecond = 1'000'000;

// ---------------------------------------------------------------------------
// Paths.

TypePtr Native(TypeKind kind) { return CqlType::Native(kind); }

// A version 1 UUID with the 60-bit time `time` and a fixed clock sequence
// and node: its bytes do not sort by time (time_low comes first).
std::string TimeUuid(uint64_t time, uint8_t last = 0) {
  std::string b(16, '\0');
  const uint32_t low = time & 0xffffffffu;
  const uint16_t mid = (time >> 32) & 0xffffu;
  const uint16_t hi = ((time >> 48) & 0x0fffu) | 0x1000u;
  for (size_t i = 0; i < 4; ++i) b[i] = static_cast<char>(low >> (24 - 8 * i));
  b[4] = static_cast<char>(mid >> 8);
  b[5] = static_cast<char>(mid);
  b[6] = static_cast<char>(hi >> 8);
  b[7] = static_cast<char>(hi);
  b[8] = static_cast<char>(0x80);
  b[15] = static_cast<char>(last);
  return b;
}

void CheckStrictlyIncreasing(const std::vector<std::string>& paths) {
  for (size_t i = 1; i < paths.size(); ++i) {
    INFO("path " << i);
    CHECK(paths[i - 1] < paths[i]);  // unsigned bytes (char_traits<char>)
  }
}

TEST_CASE("element paths sort in Cassandra's element order", "[element_cells][paths]") {
  SECTION("int set elements and map keys, negatives first") {
    std::vector<std::string> paths;
    for (int32_t v : {INT32_MIN, -70000, -5, -1, 0, 1, 3, 256, INT32_MAX}) {
      paths.push_back(KeyElementPath(*Native(TypeKind::kInt), IntValue(v)));
    }
    CheckStrictlyIncreasing(paths);
  }
  SECTION("text by its UTF-8 bytes, a prefix first") {
    std::vector<std::string> paths;
    for (std::string v : {"", "a", "a\x01", "ab", "b", "\xc3\xa9", "\xe2\x82\xac"}) {
      paths.push_back(KeyElementPath(*Native(TypeKind::kText), v));
    }
    CheckStrictlyIncreasing(paths);
  }
  SECTION("bigint and blob") {
    std::vector<std::string> paths;
    for (int64_t v : {INT64_MIN, int64_t{-1}, int64_t{0}, int64_t{1} << 40, INT64_MAX}) {
      std::string bytes(8, '\0');
      for (size_t i = 0; i < 8; ++i) {
        bytes[i] = static_cast<char>(static_cast<uint64_t>(v) >> (56 - 8 * i));
      }
      paths.push_back(KeyElementPath(*Native(TypeKind::kBigint), bytes));
    }
    CheckStrictlyIncreasing(paths);
    paths.clear();
    for (std::string v : {std::string(), std::string("\0", 1), std::string("\0\0", 2),
                          std::string("\x01"), std::string("\xff")}) {
      paths.push_back(KeyElementPath(*Native(TypeKind::kBlob), v));
    }
    CheckStrictlyIncreasing(paths);
  }
  SECTION("timeuuid by time first, though its bytes do not sort so") {
    std::vector<std::string> paths;
    for (uint64_t time : {uint64_t{0xffffffff}, uint64_t{0x100000000}, uint64_t{0x1ffffffff},
                          uint64_t{0x0fff000000000000}}) {
      paths.push_back(KeyElementPath(*Native(TypeKind::kTimeuuid), TimeUuid(time)));
    }
    CheckStrictlyIncreasing(paths);
    CHECK(KeyElementPath(*Native(TypeKind::kTimeuuid), TimeUuid(5, 1)) <
          KeyElementPath(*Native(TypeKind::kTimeuuid), TimeUuid(5, 2)));
  }
  SECTION("list paths by time (signed), then order") {
    std::vector<std::string> paths;
    for (int64_t time : {INT64_MIN, int64_t{-5}, int64_t{0}, int64_t{3}, INT64_MAX}) {
      for (uint64_t order : {uint64_t{0}, uint64_t{1}, UINT64_MAX}) {
        paths.push_back(ListElementPath(time, order));
      }
    }
    CheckStrictlyIncreasing(paths);
    for (const std::string& path : paths) CHECK(path.size() == 16);
  }
  SECTION("a later prepend sorts before an earlier one, and before every append") {
    const int64_t t2010 = 1'262'304'000'000'000;  // 2010-01-01 in microseconds
    const int64_t now = 1'700'000'000'000'000;
    CHECK(storage::PrependTime(now) == t2010 - (now - t2010));
    CHECK(storage::PrependTime(now + 1) < storage::PrependTime(now));
    CHECK(ListElementPath(storage::PrependTime(now + kSecond), UINT64_MAX) <
          ListElementPath(storage::PrependTime(now), 0));
    CHECK(ListElementPath(storage::PrependTime(now), UINT64_MAX) < ListElementPath(t2010, 0));
    CHECK(ListElementPath(storage::PrependTime(now), UINT64_MAX) < ListElementPath(now - 1, 0));
  }
  SECTION("UDT fields by index") {
    CHECK(storage::FieldPath(0) == std::string("\0\0", 2));
    CHECK(storage::FieldPath(1) == std::string("\0\x01", 2));
    CHECK(storage::FieldPath(256) == std::string("\x01\0", 2));
  }
}

TEST_CASE("SplitIntoElements: sets dedupe, maps keep the last value, lists keep everything",
          "[element_cells][paths]") {
  const TypePtr set_int = CqlType::Set(Native(TypeKind::kInt), false);
  std::vector<storage::ElementValue> elements;
  REQUIRE(storage::SplitIntoElements(*set_int,
                                     PackCollection({IntValue(3), IntValue(-1), IntValue(3)}, 1), 0,
                                     0, &elements)
              .ok());
  REQUIRE(elements.size() == 2);
  CHECK(elements[0].path == KeyElementPath(*Native(TypeKind::kInt), IntValue(-1)));
  CHECK(elements[1].path == KeyElementPath(*Native(TypeKind::kInt), IntValue(3)));
  CHECK(elements[0].value.empty());

  const TypePtr map = CqlType::Map(Native(TypeKind::kText), Native(TypeKind::kInt), false);
  elements.clear();
  REQUIRE(storage::SplitIntoElements(
              *map, PackCollection({"b", IntValue(1), "a", IntValue(2), "b", IntValue(3)}, 2), 0, 0,
              &elements)
              .ok());
  REQUIRE(elements.size() == 2);
  CHECK(elements[0].value == IntValue(2));
  CHECK(elements[1].value == IntValue(3));

  const TypePtr list = CqlType::List(Native(TypeKind::kText), false);
  elements.clear();
  REQUIRE(
      storage::SplitIntoElements(*list, PackCollection({"b", "a", "b"}, 1), 77, 5, &elements).ok());
  REQUIRE(elements.size() == 3);
  CHECK(elements[0].path == ListElementPath(77, 5));
  CHECK(elements[2].path == ListElementPath(77, 7));
  CHECK(elements[2].value == "b");

  elements.clear();
  CHECK(!storage::SplitIntoElements(*set_int, "\x00\x00\x00\x01", 0, 0, &elements).ok());
}

// ---------------------------------------------------------------------------
// The byte format.

TEST_CASE("fragments with element cells round-trip through the byte format",
          "[element_cells][format]") {
  const int64_t t = 1'700'000'000'000'000;
  RowFragment fragment;
  fragment.marker = RowMarker{t, 0, 0};
  fragment.cells = {
      {1, Cell::Live(t, "v")},
      {2, Cell::Tombstone(t - 1, 1)},
      {2, Cell::Live(t, ""), KeyElementPath(*Native(TypeKind::kInt), IntValue(-3))},
      {2, Cell::Expiring(t, "", 5, 10), KeyElementPath(*Native(TypeKind::kInt), IntValue(7))},
      {2, Cell::Tombstone(t + 20, 2), KeyElementPath(*Native(TypeKind::kInt), IntValue(9))},
      {3, Cell::Live(t, "x"), ListElementPath(storage::PrependTime(t), 0)},
      {3, Cell::Live(t, "y"), ListElementPath(t, 1)},
      {4, Cell::Live(t - 50, "legacy whole value")},
      {4, Cell::Live(t - 40, "f"), storage::FieldPath(2)},
  };
  RowFragment normalised = fragment;
  NormalizeRowFragment(&normalised);
  CHECK(normalised == fragment);  // already sorted, nothing shadowed
  std::string bytes;
  EncodeRowFragment(fragment, &bytes);
  RowFragment decoded;
  REQUIRE(DecodeRowFragment(bytes, &decoded).ok());
  CHECK(decoded == fragment);

  SECTION("paths out of order are Corruption") {
    RowFragment swapped = fragment;
    std::swap(swapped.cells[2].path, swapped.cells[3].path);
    std::string bad;
    EncodeRowFragment(swapped, &bad);
    RowFragment out;
    CHECK(DecodeRowFragment(bad, &out).code() == StatusCode::kCorruption);
  }
  SECTION("a cell repeated at the same path is Corruption") {
    RowFragment twice = fragment;
    twice.cells[3].path = twice.cells[2].path;
    std::string bad;
    EncodeRowFragment(twice, &bad);
    RowFragment out;
    CHECK(DecodeRowFragment(bad, &out).code() == StatusCode::kCorruption);
  }
}

// ---------------------------------------------------------------------------
// KeepLive over stored fragments, including values stored before element
// cells existed: one empty-path regular cell holding the whole value, to be
// read as a collection deletion at its write time - 1 plus its elements at
// its write time.

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TYPE ks.pt (a int, b text, c int);"
    "CREATE TABLE ks.t (k int, c int, s set<int>, l list<text>, m map<text, int>, u pt,"
    " PRIMARY KEY (k, c));";

class Stored {
 public:
  Stored() {
    db.Ddl(kSchema);
    t = db.Table("ks", "t");
  }
  size_t Col(const std::string& name) const { return ColumnIndexOf(*t, name); }
  uint32_t Id(const std::string& name) const { return t->column_ids[Col(name)]; }
  const CqlType& Type(const std::string& name) const { return *t->column(Col(name)).type; }
  const CqlType& ElementType(const std::string& name) const { return *Type(name).params()[0]; }

  // Adds a fragment (normalised) to the row's fragments.
  void Add(std::vector<RowCell> cells, std::optional<RowDeletion> deletion = std::nullopt) {
    RowFragment fragment;
    fragment.cells = std::move(cells);
    fragment.deletion = deletion;
    NormalizeRowFragment(&fragment);
    fragments.push_back(std::move(fragment));
  }

  // The merge of the fragments, in the given order.
  RowFragment Merged() const {
    RowFragment merged;
    for (const RowFragment& fragment : fragments)
      MergeRowFragmentInto(&merged, RowFragment(fragment));
    return merged;
  }

  // The column's value as KeepLive leaves it at `now` (µs), as a CQL term;
  // "null" when no cell; "<no row>" when the row is not live. The result
  // must not depend on the order the fragments merge in.
  std::string Read(const std::string& column, int64_t now = kNow,
                   std::optional<uint32_t> purge_gc_grace = std::nullopt) {
    std::string first;
    for (int order = 0; order < 2; ++order) {
      RowFragment merged = Merged();
      if (order == 1) {
        merged = {};
        for (auto it = fragments.rbegin(); it != fragments.rend(); ++it) {
          MergeRowFragmentInto(&merged, RowFragment(*it));
        }
      }
      if (purge_gc_grace) PurgeRowFragment(&merged, now, *purge_gc_grace);
      bool live = false;
      Status kept = storage::KeepLive(*t, std::nullopt, now, &merged, &live);
      INFO(kept.ToString());
      REQUIRE(kept.ok());
      std::string text = "null";
      if (!live) {
        text = "<no row>";
      } else {
        for (const RowCell& cell : merged.cells) {
          if (cell.column_id != Id(column)) continue;
          CHECK(cell.path.empty());
          text = FormatTerm(Type(column), cell.cell.value);
        }
      }
      if (order == 0) {
        first = text;
      } else {
        CHECK(text == first);
      }
    }
    return first;
  }

  std::string SetPath(int32_t v) const { return KeyElementPath(ElementType("s"), IntValue(v)); }
  std::string MapPath(const std::string& key) const {
    return KeyElementPath(ElementType("m"), key);
  }

  static constexpr int64_t kNow = 1'000 * kSecond;

  TestEngine db;
  TableHandle t;
  std::vector<RowFragment> fragments;
};

std::string Ints(std::initializer_list<int32_t> values) {
  std::vector<std::string> items;
  for (int32_t v : values) items.push_back(IntValue(v));
  return PackCollection(items, 1);
}

TEST_CASE("a whole value stored before element cells reads as its elements",
          "[element_cells][legacy]") {
  Stored r;
  r.Add({{r.Id("s"), Cell::Live(10, Ints({1, 2}))}});
  CHECK(r.Read("s") == "{1, 2}");

  SECTION("an element added at the same time stays, one added before it does not") {
    r.Add({{r.Id("s"), Cell::Live(10, ""), r.SetPath(3)}});
    r.Add({{r.Id("s"), Cell::Live(9, ""), r.SetPath(4)}});
    r.Add({{r.Id("s"), Cell::Live(11, ""), r.SetPath(-4)}});
    CHECK(r.Read("s") == "{-4, 1, 2, 3}");
  }
  SECTION("an element removal removes one of its elements, at its time or after") {
    r.Add({{r.Id("s"), Cell::Tombstone(10, 1), r.SetPath(2)}});
    CHECK(r.Read("s") == "{1}");
    r.Add({{r.Id("s"), Cell::Tombstone(9, 1), r.SetPath(1)}});
    CHECK(r.Read("s") == "{1}");
    r.Add({{r.Id("s"), Cell::Tombstone(11, 1), r.SetPath(1)}});
    CHECK(r.Read("s") == "<no row>");
  }
  SECTION("DELETE s at its time removes it; before its time does not") {
    r.Add({{r.Id("s"), Cell::Tombstone(9, 1)}});
    CHECK(r.Read("s") == "{1, 2}");
    r.Add({{r.Id("s"), Cell::Tombstone(10, 1)}});
    CHECK(r.Read("s") == "<no row>");
  }
  SECTION("a new whole value replaces it") {
    r.Add({{r.Id("s"), Cell::Tombstone(19, 1)}, {r.Id("s"), Cell::Live(20, ""), r.SetPath(7)}});
    CHECK(r.Read("s") == "{7}");
  }
  SECTION("an older whole value written as elements does not replace it") {
    r.Add({{r.Id("s"), Cell::Tombstone(7, 1)}, {r.Id("s"), Cell::Live(8, ""), r.SetPath(7)}});
    CHECK(r.Read("s") == "{1, 2}");
  }
  SECTION("a row deletion at its time removes it") {
    r.Add({}, RowDeletion{10, 1});
    CHECK(r.Read("s") == "<no row>");
  }
}

TEST_CASE("old whole maps, lists and UDTs read as their elements", "[element_cells][legacy]") {
  Stored r;
  SECTION("map: a put at the same time reconciles per entry") {
    r.Add({{r.Id("m"), Cell::Live(10, PackCollection({"a", IntValue(5), "b", IntValue(6)}, 2))}});
    r.Add({{r.Id("m"), Cell::Live(10, IntValue(1)), r.MapPath("a")}});  // loses the tie
    r.Add({{r.Id("m"), Cell::Live(10, IntValue(9)), r.MapPath("b")}});  // wins the tie
    r.Add({{r.Id("m"), Cell::Live(11, IntValue(3)), r.MapPath("c")}});
    CHECK(r.Read("m") == "{'a': 5, 'b': 9, 'c': 3}");
    r.Add({{r.Id("m"), Cell::Tombstone(12, 1), r.MapPath("a")}});
    CHECK(r.Read("m") == "{'b': 9, 'c': 3}");
  }
  SECTION("list: appends after, prepends before") {
    const int64_t t = 1'700'000'000'000'000;
    r.Add({{r.Id("l"), Cell::Live(t, PackCollection({"a", "b"}, 1))}});
    r.Add({{r.Id("l"), Cell::Live(t + kSecond, "c"), ListElementPath(t + kSecond, 0)}});
    r.Add({{r.Id("l"), Cell::Live(t + 2 * kSecond, "z"),
            ListElementPath(storage::PrependTime(t + 2 * kSecond), 0)}});
    CHECK(r.Read("l") == "['z', 'a', 'b', 'c']");
  }
  SECTION("UDT: a value with fewer components than the type reads with every field") {
    r.Add({{r.Id("u"), Cell::Live(10, PackComponents({IntValue(1)}))}});
    CHECK(r.Read("u") ==
          FormatTerm(r.Type("u"), PackComponents({IntValue(1), std::nullopt, std::nullopt})));
    r.Add({{r.Id("u"), Cell::Live(11, "x"), storage::FieldPath(1)}});
    CHECK(r.Read("u") ==
          FormatTerm(r.Type("u"), PackComponents({IntValue(1), std::string("x"), std::nullopt})));
    r.Add({{r.Id("u"), Cell::Tombstone(12, 1), storage::FieldPath(0)}});
    CHECK(r.Read("u") ==
          FormatTerm(r.Type("u"), PackComponents({std::nullopt, std::string("x"), std::nullopt})));
  }
}

// An old list value written at t reads as elements at paths of time t; an
// element appended by a new write whose list time is also t (the old write
// had USING TIMESTAMP t, equal to a later server time) must be a new element,
// not replace an old one.
TEST_CASE("an append at an old list value's own time adds an element, replaces none",
          "[element_cells][legacy]") {
  Stored r;
  const int64_t t = 1'700'000'000'000'000;
  r.Add({{r.Id("l"), Cell::Live(t, PackCollection({"a", "b"}, 1))}});
  r.Add({{r.Id("l"), Cell::Live(t, "d"), ListElementPath(t, 0)}});
  CHECK(r.Read("l") == "['a', 'b', 'd']");
}

// In Cassandra the old value's elements got time-UUIDs of the server time
// they were written at, whatever the USING TIMESTAMP, so appends made later
// sort after them.
TEST_CASE("an append after an old list value written USING TIMESTAMP in the future goes last",
          "[element_cells][legacy]") {
  Stored r;
  const int64_t t = 1'700'000'000'000'000;
  r.Add({{r.Id("l"), Cell::Live(t + 3600 * kSecond, PackCollection({"a", "b"}, 1))}});
  r.Add({{r.Id("l"), Cell::Live(t + 3600 * kSecond + 1, "c"), ListElementPath(t + kSecond, 0)}});
  CHECK(r.Read("l") == "['a', 'b', 'c']");
}

TEST_CASE("an old whole value with a TTL expires alone", "[element_cells][legacy]") {
  Stored r;
  const int64_t expiry = Stored::kNow / kSecond + 10;
  r.Add({{r.Id("s"), Cell::Expiring(10, Ints({1, 2}), 100, expiry)}});
  r.Add({{r.Id("s"), Cell::Live(20, ""), r.SetPath(3)}});
  CHECK(r.Read("s") == "{1, 2, 3}");
  CHECK(r.Read("s", expiry * kSecond) == "{3}");
}

// Cassandra: the old value is a collection deletion at 9 (which never
// expires) and elements 1, 2 at 10 with a TTL; element 3 written by another
// write at 10 is not shadowed, before or after the old elements expire and
// are compacted into tombstones of their own paths.
TEST_CASE("an expired old whole value does not shadow an element written at its time",
          "[element_cells][legacy]") {
  Stored r;
  const int64_t expiry = Stored::kNow / kSecond + 10;
  r.Add({{r.Id("s"), Cell::Expiring(10, Ints({1, 2}), 100, expiry)}});
  r.Add({{r.Id("s"), Cell::Live(10, ""), r.SetPath(3)}});
  CHECK(r.Read("s") == "{1, 2, 3}");
  const int64_t later = (expiry + 5) * kSecond;
  CHECK(r.Read("s", later) == "{3}");
  // As the sweeper does: purge the merged row (gc_grace not yet passed).
  CHECK(r.Read("s", later, /*purge_gc_grace=*/3600) == "{3}");
  // And once gc_grace has passed.
  CHECK(r.Read("s", later + 7200 * kSecond, /*purge_gc_grace=*/3600) == "{3}");

  // The swept row is stored back as one fragment; a later write to the row
  // (here an unrelated element of another column) is merged with it.
  RowFragment swept = r.Merged();
  PurgeRowFragment(&swept, later, 3600);
  RowFragment next;
  next.cells = {{r.Id("m"), Cell::Live(later, IntValue(1)), r.MapPath("k")}};
  MergeRowFragmentInto(&swept, std::move(next));
  bool live = false;
  REQUIRE(storage::KeepLive(*r.t, std::nullopt, later, &swept, &live).ok());
  CHECK(live);
  std::string s_value = "null";
  for (const RowCell& cell : swept.cells) {
    if (cell.column_id == r.Id("s")) s_value = FormatTerm(r.Type("s"), cell.cell.value);
  }
  CHECK(s_value == "{3}");
}

// Two old whole values written at the same time: the store was written
// under the old rule, one cell per value, where the greater bytes won and
// readers saw {1, 2}. A Cassandra store would hold the union; the stored
// data keeps the answer it gave before the upgrade (docs/FORMAT.md,
// "Element cells": whole values stored before).
TEST_CASE("two old whole values written at the same time read as they did before the upgrade",
          "[element_cells][legacy]") {
  Stored r;
  r.Add({{r.Id("s"), Cell::Live(10, Ints({1, 2}))}});
  r.Add({{r.Id("s"), Cell::Live(10, Ints({3}))}});
  CHECK(r.Read("s") == "{1, 2}");
}

// ---------------------------------------------------------------------------
// Merge properties with element cells.

// Random fragments over simple columns 0..1 and multi-cell columns 2..3,
// with element paths from a small set, collection deletions (empty-path
// tombstones) and old whole values (empty-path regular cells).
RowFragment RandomElementFragment(RandomFragments* random) {
  static const std::vector<std::string> kPaths = {std::string("\x01", 1), std::string("\x02"),
                                                  std::string("\x02\x00", 2), "\x80"};
  RowFragment fragment;
  if (random->Pick(0, 3) == 0) {
    fragment.marker = RowMarker{random->Pick(1, 4), 0, 0};
  }
  if (random->Pick(0, 4) == 0)
    fragment.deletion = RowDeletion{random->Pick(1, 4), random->Pick(10, 11)};
  for (uint32_t id = 0; id < 2; ++id) {
    if (random->Coin()) fragment.cells.push_back({id, random->RegularOrTombstone()});
  }
  for (uint32_t id = 2; id < 4; ++id) {
    if (random->Pick(0, 2) == 0) fragment.cells.push_back({id, random->RegularOrTombstone()});
    for (const std::string& path : kPaths) {
      if (random->Pick(0, 2) == 0)
        fragment.cells.push_back({id, random->RegularOrTombstone(), path});
    }
  }
  std::shuffle(fragment.cells.begin(), fragment.cells.end(), random->rng());
  NormalizeRowFragment(&fragment);
  return fragment;
}

model::Version ToVersion(const Cell& cell) {
  model::Version v;
  v.write_time = cell.write_time;
  v.tombstone = cell.is_tombstone();
  v.value = cell.value;
  v.ttl = cell.ttl;
  v.local_deletion_time = cell.local_deletion_time;
  return v;
}

// What a reader can see of a set of fragments at `now`, per Cassandra's
// rules: per (column, path) the winning version; a simple cell or an old
// whole value visible when live and newer than the row deletion; an element
// visible when live and newer than the row deletion and every collection
// deletion of its column (an old whole value at t counting as one at t - 1).
std::map<std::pair<uint32_t, std::string>, std::string> Visible(
    const std::vector<RowFragment>& fragments, int64_t now) {
  int64_t row_deletion = INT64_MIN;
  std::map<std::pair<uint32_t, std::string>, model::Version> winners;
  std::map<uint32_t, int64_t> column_deletion;
  for (const RowFragment& fragment : fragments) {
    if (fragment.deletion) row_deletion = std::max(row_deletion, fragment.deletion->write_time);
    for (const RowCell& cell : fragment.cells) {
      const model::Version v = ToVersion(cell.cell);
      auto [it, inserted] = winners.try_emplace({cell.column_id, cell.path}, v);
      if (!inserted && model::Wins(v, it->second)) it->second = v;
      if (cell.column_id >= 2 && cell.path.empty()) {
        const int64_t through = v.tombstone ? v.write_time : v.write_time - 1;
        auto [d, fresh] = column_deletion.try_emplace(cell.column_id, through);
        if (!fresh) d->second = std::max(d->second, through);
      }
    }
  }
  std::map<std::pair<uint32_t, std::string>, std::string> out;
  for (const auto& [slot, v] : winners) {
    int64_t shadow = row_deletion;
    if (!slot.second.empty()) {
      auto d = column_deletion.find(slot.first);
      if (d != column_deletion.end()) shadow = std::max(shadow, d->second);
    }
    if (v.write_time <= shadow || !v.LiveAt(now)) continue;
    out[slot] = v.value + "@" + std::to_string(v.write_time);
  }
  return out;
}

TEST_CASE("merging fragments with element cells is commutative, associative, idempotent",
          "[element_cells][merge]") {
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    RandomFragments random(seed);
    const RowFragment a = RandomElementFragment(&random);
    const RowFragment b = RandomElementFragment(&random);
    const RowFragment c = RandomElementFragment(&random);
    INFO("seed " << seed);
    const RowFragment ab = MergeRowFragments(a, b);
    CHECK(ab == MergeRowFragments(b, a));
    CHECK(MergeRowFragments(ab, c) == MergeRowFragments(a, MergeRowFragments(b, c)));
    CHECK(MergeRowFragments(a, a) == a);
    CHECK(MergeRowFragments(ab, b) == ab);
    RowFragment renormalised = ab;
    NormalizeRowFragment(&renormalised);
    CHECK(renormalised == ab);

    // The byte format round-trips, and merging encoded fragments agrees.
    std::string ea, eb, ec;
    EncodeRowFragment(a, &ea);
    EncodeRowFragment(b, &eb);
    EncodeRowFragment(c, &ec);
    RowFragment decoded;
    REQUIRE(DecodeRowFragment(ea, &decoded).ok());
    CHECK(decoded == a);
    const std::vector<std::string_view> encoded = {ec, ea, eb};
    RowFragment merged;
    REQUIRE(MergeEncodedRowFragments(encoded, &merged).ok());
    CHECK(merged == MergeRowFragments(ab, c));

    // What stays visible is what the model says, at several times.
    for (int64_t now : {int64_t{0}, int64_t{10} * kSecond, int64_t{11} * kSecond}) {
      INFO("now " << now);
      CHECK(Visible({merged}, now) == Visible({a, b, c}, now));
    }
    // The same after merging the three into one fragment first.
    RowFragment single = a;
    single.cells.insert(single.cells.end(), b.cells.begin(), b.cells.end());
    single.cells.insert(single.cells.end(), c.cells.begin(), c.cells.end());
    if (b.deletion) {
      single.deletion =
          single.deletion ? ReconcileDeletions(*single.deletion, *b.deletion) : b.deletion;
    }
    if (c.deletion) {
      single.deletion =
          single.deletion ? ReconcileDeletions(*single.deletion, *c.deletion) : c.deletion;
    }
    single.marker.reset();
    for (const RowFragment* f : {&a, &b, &c}) {
      if (f->marker)
        single.marker = single.marker ? ReconcileMarkers(*single.marker, *f->marker) : f->marker;
    }
    NormalizeRowFragment(&single);
    CHECK(single == merged);
  }
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// Random fragments of one row's set<int> column: element cells (live,
// expiring, removed), collection deletions, row deletions and (in the first
// fragment only: two old values at one time are a separate case) an old
// whole value; what KeepLive assembles is checked against Cassandra's
// reading of them: the old value as a deletion at t - 1 plus its elements
// at t, each element reconciled on its own.
TEST_CASE("KeepLive assembles what the per-element model says over random fragments",
          "[element_cells][legacy][model]") {
  Stored r;
  const std::vector<int32_t> domain = {-1, 0, 1, 2};
  for (uint32_t seed = 1; seed <= 2000; ++seed) {
    RandomFragments random(seed);
    r.fragments.clear();
    int64_t row_deletion = INT64_MIN, column_deletion = INT64_MIN;
    std::map<int32_t, model::Version> winners;
    auto offer = [&](int32_t v, const Cell& cell) {
      const model::Version version = ToVersion(cell);
      auto [it, inserted] = winners.try_emplace(v, version);
      if (!inserted && model::Wins(version, it->second)) it->second = version;
    };
    std::string log;
    const int64_t fragments = random.Pick(1, 3);
    for (int64_t f = 0; f < fragments; ++f) {
      std::vector<RowCell> cells;
      std::optional<RowDeletion> deletion;
      if (random.Pick(0, 4) == 0) {
        deletion = RowDeletion{random.Pick(1, 4), 10};
        row_deletion = std::max(row_deletion, deletion->write_time);
        log += " rowdel@" + std::to_string(deletion->write_time);
      }
      const int64_t head = random.Pick(0, 3);
      if (head == 0) {
        const Cell tombstone = Cell::Tombstone(random.Pick(1, 4), 10);
        cells.push_back({r.Id("s"), tombstone});
        column_deletion = std::max(column_deletion, tombstone.write_time);
        log += " del@" + std::to_string(tombstone.write_time);
      } else if (head == 1 && f == 0) {
        std::vector<int32_t> values;
        for (int32_t v : domain) {
          if (random.Coin()) values.push_back(v);
        }
        std::vector<std::string> items;
        for (int32_t v : values) items.push_back(IntValue(v));
        const int64_t t = random.Pick(1, 4);
        const Cell whole =
            random.Coin() ? Cell::Live(t, PackCollection(items, 1))
                          : Cell::Expiring(t, PackCollection(items, 1), 1, random.Pick(10, 11));
        cells.push_back({r.Id("s"), whole});
        column_deletion = std::max(column_deletion, t - 1);
        for (int32_t v : values) {
          Cell element = whole;
          element.value.clear();
          offer(v, element);
        }
        log += " old(" + std::to_string(values.size()) + ")@" + std::to_string(t) + "/exp" +
               std::to_string(whole.local_deletion_time);
      }
      for (int32_t v : domain) {
        if (random.Pick(0, 2) != 0) continue;
        Cell cell = random.RegularOrTombstone();
        if (!cell.is_tombstone()) cell.value.clear();  // a set element stores nothing
        cells.push_back({r.Id("s"), cell, r.SetPath(v)});
        offer(v, cell);
        log += " " + std::to_string(v) + (cell.is_tombstone() ? "-" : "+") + "@" +
               std::to_string(cell.write_time) + "/exp" + std::to_string(cell.local_deletion_time);
      }
      log += " |";
      r.Add(std::move(cells), deletion);
    }
    for (int64_t now : {int64_t{0}, int64_t{10} * kSecond, int64_t{11} * kSecond}) {
      std::vector<int32_t> live;
      for (const auto& [v, version] : winners) {
        if (version.tombstone || !version.LiveAt(now)) continue;
        if (version.write_time <= std::max(row_deletion, column_deletion)) continue;
        live.push_back(v);
      }
      std::string expected = "<no row>";
      if (!live.empty()) {
        expected = "{";
        for (size_t i = 0; i < live.size(); ++i) {
          expected += (i == 0 ? "" : ", ") + std::to_string(live[i]);
        }
        expected += "}";
      }
      INFO("seed " << seed << " now " << now << ":" << log);
      REQUIRE(r.Read("s", now) == expected);
    }
  }
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

TEST_CASE("KeepLive reports element cells and old values that do not decode as Corruption",
          "[element_cells][legacy]") {
  Stored r;
  auto keep_live = [&](RowFragment fragment) {
    NormalizeRowFragment(&fragment);
    bool live = false;
    return storage::KeepLive(*r.t, std::nullopt, Stored::kNow, &fragment, &live);
  };
  RowFragment bad_old;
  bad_old.cells = {{r.Id("s"), Cell::Live(10, std::string("\x00\x00\x00\x05", 4))}};
  CHECK(keep_live(bad_old).code() == StatusCode::kCorruption);
  RowFragment bad_field;
  bad_field.cells = {{r.Id("u"), Cell::Live(10, IntValue(1)), storage::FieldPath(7)}};
  CHECK(keep_live(bad_field).code() == StatusCode::kCorruption);
  // The same cells, well formed, are read.
  RowFragment good;
  good.cells = {{r.Id("l"), Cell::Live(10, "x"), ListElementPath(10, 0)},
                {r.Id("s"), Cell::Live(10, Ints({5}))},
                {r.Id("u"), Cell::Live(10, IntValue(1)), storage::FieldPath(2)}};
  CHECK(keep_live(good).ok());
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// docs/FORMAT.md: a list element's path is 16 bytes (time, order);
// element_cells.h: "Corruption for a path that does not decode".
TEST_CASE("a list element path that is not 16 bytes is Corruption", "[element_cells][legacy]") {
  Stored r;
  RowFragment bad_list;
  bad_list.cells = {{r.Id("l"), Cell::Live(10, "x"), std::string("\x01\x02", 2)}};
  bool live = false;
  CHECK(storage::KeepLive(*r.t, std::nullopt, Stored::kNow, &bad_list, &live).code() ==
        StatusCode::kCorruption);
}

}  // namespace
}  // namespace cellfs::testing
