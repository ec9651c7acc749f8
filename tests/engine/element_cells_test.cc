// Non-frozen collections and UDTs stored as element cells, checked against
// Cassandra's rules (Lists/Sets/Maps/UserTypes operations, ComplexColumnData
// and Cells.reconcile), written out here by hand rather than derived from the
// engine: whole-value writes, element operations, TTLs, explicit timestamps,
// row liveness, values written before element cells existed, the element
// path order, and the merge properties of fragments holding element cells.
#include "engine/store/internal/element_cells.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_type.h"
#include "engine/cql/literal.h"
#include "engine/engine.h"
#include "engine/store/internal/live_row.h"
#include "engine/store/mutation.h"
#include "engine/store/read_view.h"
#include "engine/store/row_fragment.h"
#include "engine/store/table_scan.h"
#include "tests/engine/cassandra_model.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::testing {
namespace {

using Key = std::vector<std::string>;

constexpr int64_t kSecond = 1'000'000;

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TYPE ks.pt (a int, b text, c int);"
    "CREATE TABLE ks.t (k int, c int, v int, s set<int>, l list<text>, m map<text, int>, u pt,"
    " ss set<text> static, PRIMARY KEY (k, c));";

std::string SetOfInts(const std::vector<int32_t>& values) {
  std::vector<std::string> items;
  for (int32_t v : values) items.push_back(IntValue(v));
  return PackCollection(items, 1);
}
std::string ListOfTexts(const std::vector<std::string>& values) {
  return PackCollection(values, 1);
}
std::string MapOf(const std::vector<std::pair<std::string, int32_t>>& entries) {
  std::vector<std::string> items;
  for (const auto& [key, value] : entries) {
    items.push_back(key);
    items.push_back(IntValue(value));
  }
  return PackCollection(items, 2);
}
std::string SetOfTexts(const std::vector<std::string>& values) { return PackCollection(values, 1); }

WriteAttributes At(int64_t timestamp, std::optional<int64_t> ttl = std::nullopt) {
  WriteAttributes attributes;
  attributes.timestamp = timestamp;
  attributes.ttl = ttl;
  return attributes;
}
WriteAttributes Ttl(int64_t ttl) {
  WriteAttributes attributes;
  attributes.ttl = ttl;
  return attributes;
}

// One row (k=1, c=1) of ks.t, written through Mutation and read through
// ReadView.
class Rows {
 public:
  Rows() {
    db.Ddl(kSchema);
    t = db.Table("ks", "t");
  }

  size_t Col(const std::string& name) const { return ColumnIndexOf(*t, name); }

  // Applies one mutation made by `ops`; REQUIREs success.
  void Write(const std::function<Status(Mutation&)>& ops) {
    Mutation mutation = db.engine->NewMutation();
    Status made = ops(mutation);
    INFO(made.ToString());
    REQUIRE(made.ok());
    Status applied = db.engine->Apply(std::move(mutation));
    INFO(applied.ToString());
    REQUIRE(applied.ok());
  }

  // Whole-value writes: INSERT / UPDATE SET col = value (nullopt = null).
  void Update(const std::string& column, std::optional<std::string> value,
              const WriteAttributes& attributes = {}) {
    Write([&](Mutation& m) {
      return m.Update(t, pk, ck, std::vector<ColumnValue>{ColumnValue{Col(column), value}},
                      attributes);
    });
  }
  void Insert(const std::string& column, std::optional<std::string> value,
              const WriteAttributes& attributes = {}) {
    Write([&](Mutation& m) {
      return m.Insert(t, pk, ck, std::vector<ColumnValue>{ColumnValue{Col(column), value}},
                      attributes);
    });
  }
  void Add(const std::string& column, const std::string& value,
           const WriteAttributes& attributes = {}) {
    Write([&](Mutation& m) { return m.AddElements(t, pk, ck, Col(column), value, attributes); });
  }
  void Prepend(const std::string& column, const std::string& value,
               const WriteAttributes& attributes = {}) {
    Write(
        [&](Mutation& m) { return m.PrependElements(t, pk, ck, Col(column), value, attributes); });
  }
  void Remove(const std::string& column, const std::string& value,
              const WriteAttributes& attributes = {}) {
    Write([&](Mutation& m) { return m.RemoveElements(t, pk, ck, Col(column), value, attributes); });
  }
  void Put(const std::string& column, const std::string& key, std::optional<std::string> value,
           const WriteAttributes& attributes = {}) {
    Write(
        [&](Mutation& m) { return m.SetElement(t, pk, ck, Col(column), key, value, attributes); });
  }
  void Delete(const std::string& column, const WriteAttributes& attributes = {}) {
    const std::vector<size_t> columns = {Col(column)};
    Write([&](Mutation& m) { return m.DeleteCells(t, pk, ck, columns, attributes); });
  }

  // The row as read now; nullopt when it is not live.
  std::optional<RowFragment> Row() {
    auto row = db.engine->NewReadView().GetRow(t, pk, ck);
    INFO(row.status().ToString());
    REQUIRE(row.ok());
    return row.value();
  }

  // The column's value as a CQL term, "null" when the row has no cell for
  // it, "<no row>" when the row is not live.
  std::string Read(const std::string& column) {
    std::optional<RowFragment> row = Row();
    if (!row) return "<no row>";
    return CellText(*row, column);
  }
  std::string ReadStatic(const std::string& column) {
    auto row = db.engine->NewReadView().GetStaticRow(t, pk);
    REQUIRE(row.ok());
    if (!row.value()) return "<no row>";
    return CellText(*row.value(), column);
  }
  // The cell of `column` in the row read now; REQUIREs it.
  RowCell CellOf(const std::string& column) {
    std::optional<RowFragment> row = Row();
    REQUIRE(row);
    const uint32_t id = t->column_ids[Col(column)];
    int found = 0;
    RowCell out;
    for (const RowCell& cell : row->cells) {
      if (cell.column_id == id) {
        ++found;
        out = cell;
      }
    }
    REQUIRE(found == 1);
    return out;
  }

  // The term of serialized `value` of `column`'s type.
  std::string Term(const std::string& column, const std::string& value) {
    return FormatTerm(*t->column(Col(column)).type, value);
  }

  TestEngine db;
  TableHandle t;
  Key pk = {IntValue(1)};
  Key ck = {IntValue(1)};

 private:
  std::string CellText(const RowFragment& row, const std::string& column) {
    const uint32_t id = t->column_ids[Col(column)];
    std::string text;
    int found = 0;
    for (const RowCell& cell : row.cells) {
      if (cell.column_id != id) continue;
      ++found;
      CHECK(cell.path.empty());  // a reader sees one assembled cell per column
      CHECK(!cell.cell.is_tombstone());
      text = FormatTerm(*t->column(Col(column)).type, cell.cell.value);
    }
    CHECK(found <= 1);
    return found == 0 ? "null" : text;
  }
};

// ---------------------------------------------------------------------------
// Whole-value writes: a collection deletion at t - 1 plus elements at t.

TEST_CASE("setting a whole collection at t shadows elements written before t, not at t",
          "[element_cells]") {
  Rows r;
  r.Add("s", SetOfInts({4}), At(9));
  r.Add("s", SetOfInts({5}), At(10));
  r.Add("s", SetOfInts({6}), At(11));
  r.Update("s", SetOfInts({1, 2}), At(10));
  // Deletion at 9: {4}@9 is gone, {5}@10 and {6}@11 stay.
  CHECK(r.Read("s") == "{1, 2, 5, 6}");
  // A whole value replayed at an older time changes nothing it shadows...
  r.Update("s", SetOfInts({7}), At(5));
  CHECK(r.Read("s") == "{1, 2, 5, 6}");
  // ...and a newer one replaces everything written before it.
  r.Update("s", SetOfInts({3}), At(20));
  CHECK(r.Read("s") == "{3}");
}

TEST_CASE("the same applies to maps, lists and UDTs", "[element_cells]") {
  Rows r;
  r.Put("m", "x", IntValue(9), At(9));
  r.Put("m", "y", IntValue(8), At(10));
  r.Update("m", MapOf({{"a", 1}, {"y", 2}}), At(10));
  // y: {8}@10 (SetElement) vs {2}@10 (overwrite): a tie, the greater value wins.
  CHECK(r.Read("m") == "{'a': 1, 'y': 8}");

  r.Update("l", ListOfTexts({"a", "b"}), At(30));
  r.Add("l", ListOfTexts({"c"}), At(29));  // an older append: shadowed by the deletion at 29
  CHECK(r.Read("l") == "['a', 'b']");
  r.Add("l", ListOfTexts({"d"}), At(30));
  CHECK(r.Read("l") == "['a', 'b', 'd']");

  r.Put("u", "c", IntValue(3), At(40));
  r.Put("u", "a", IntValue(7), At(39));
  r.Update("u", PackComponents({IntValue(1), std::string("x"), std::nullopt}), At(40));
  CHECK(r.Read("u") == r.Term("u", PackComponents({IntValue(1), std::string("x"), IntValue(3)})));
}

TEST_CASE("a null or empty whole value leaves no cell", "[element_cells]") {
  Rows r;
  r.Insert("v", IntValue(1), At(1));  // a marker keeps the row
  r.Update("s", SetOfInts({1, 2}), At(5));
  r.Update("s", SetOfInts({}), At(6));
  CHECK(r.Read("s") == "null");
  r.Update("l", ListOfTexts({"a"}), At(5));
  r.Update("l", std::nullopt, At(6));
  CHECK(r.Read("l") == "null");
  r.Update("m", MapOf({{"a", 1}}), At(5));
  r.Insert("m", MapOf({}), At(6));
  CHECK(r.Read("m") == "null");
  r.Update("u", PackComponents({IntValue(1), std::nullopt, std::nullopt}), At(5));
  r.Update("u", std::nullopt, At(6));
  CHECK(r.Read("u") == "null");
  // No element cell was written by the empty values: nothing but the marker
  // and v are left.
  std::optional<RowFragment> row = r.Row();
  REQUIRE(row);
  CHECK(row->cells.size() == 1);

  SECTION("SET c = null at t is a deletion at t - 1: an element written at t stays") {
    r.Add("s", SetOfInts({9}), At(20));
    r.Update("s", std::nullopt, At(20));
    CHECK(r.Read("s") == "{9}");
    r.Update("s", SetOfInts({}), At(21));
    CHECK(r.Read("s") == "null");
  }
  SECTION("a row holding only an empty collection written by UPDATE is not live") {
    r.pk = {IntValue(2)};
    r.Update("s", SetOfInts({}), At(5));
    CHECK(r.Read("s") == "<no row>");
    // INSERT writes a marker, so the row is live with a null collection.
    r.Insert("s", SetOfInts({}), At(6));
    CHECK(r.Read("s") == "null");
  }
}

TEST_CASE("DELETE c at t is a collection deletion at t", "[element_cells]") {
  Rows r;
  r.Add("s", SetOfInts({1}), At(10));
  r.Add("s", SetOfInts({2}), At(11));
  r.Delete("s", At(10));
  CHECK(r.Read("s") == "{2}");
  r.Delete("s", At(11));
  // Nothing but the collection was written, by UPDATE: the row is gone.
  CHECK(r.Read("s") == "<no row>");
  r.Add("s", SetOfInts({3}), At(11));  // shadowed: the deletion wins at its own time
  CHECK(r.Read("s") == "<no row>");
  r.Add("s", SetOfInts({4}), At(12));
  CHECK(r.Read("s") == "{4}");
}

// ---------------------------------------------------------------------------
// Element operations.

TEST_CASE("set: add and remove are per element, by timestamp", "[element_cells]") {
  Rows r;
  r.Update("s", SetOfInts({1, 2, 3}), At(10));
  r.Remove("s", SetOfInts({2, 9}), At(11));
  CHECK(r.Read("s") == "{1, 3}");
  r.Remove("s", SetOfInts({3}), At(9));  // older than the element: no effect
  CHECK(r.Read("s") == "{1, 3}");
  r.Remove("s", SetOfInts({1}), At(10));  // a tie: the tombstone wins
  CHECK(r.Read("s") == "{3}");
  r.Add("s", SetOfInts({2}), At(11));  // ties the removal of 2: the removal wins
  CHECK(r.Read("s") == "{3}");
  r.Add("s", SetOfInts({-5, 2, 100}), At(12));
  CHECK(r.Read("s") == "{-5, 2, 3, 100}");
}

TEST_CASE("an element write with an older timestamp is kept unless a deletion shadows it",
          "[element_cells]") {
  Rows r;
  r.Add("s", SetOfInts({1}), At(100));
  r.Add("s", SetOfInts({2}), At(50));
  CHECK(r.Read("s") == "{1, 2}");
  r.Delete("s", At(60));
  CHECK(r.Read("s") == "{1}");
  r.Add("s", SetOfInts({3}), At(60));
  r.Add("s", SetOfInts({4}), At(61));
  CHECK(r.Read("s") == "{1, 4}");
}

TEST_CASE("map: put, delete by key, remove keys, ties", "[element_cells]") {
  Rows r;
  r.Update("m", MapOf({{"a", 1}, {"b", 2}}), At(10));
  r.Put("m", "c", IntValue(3), At(11));
  r.Put("m", "a", std::nullopt, At(11));
  CHECK(r.Read("m") == "{'b': 2, 'c': 3}");
  r.Remove("m", SetOfTexts({"b", "zz"}), At(12));
  CHECK(r.Read("m") == "{'c': 3}");
  // A tie on an entry: the greater value wins, whatever the order.
  r.Put("m", "x", IntValue(2), At(20));
  r.Put("m", "x", IntValue(1), At(20));
  CHECK(r.Read("m") == "{'c': 3, 'x': 2}");
  // m = m + {...} puts entries.
  r.Add("m", MapOf({{"c", 30}, {"d", 4}}), At(21));
  CHECK(r.Read("m") == "{'c': 30, 'd': 4, 'x': 2}");
  // A newer put beats an older one even if its value is smaller.
  r.Put("m", "d", IntValue(-1), At(22));
  CHECK(r.Read("m") == "{'c': 30, 'd': -1, 'x': 2}");
}

TEST_CASE("list: appends in call order, prepends first, a later prepend before an earlier one",
          "[element_cells]") {
  Rows r;
  r.Add("l", ListOfTexts({"a"}));
  r.Add("l", ListOfTexts({"b", "c"}));
  r.db.clock.AdvanceSeconds(1);
  r.Prepend("l", ListOfTexts({"x", "y"}));
  r.db.clock.AdvanceSeconds(1);
  r.Prepend("l", ListOfTexts({"p", "q"}));
  r.Add("l", ListOfTexts({"d"}));
  CHECK(r.Read("l") == "['p', 'q', 'x', 'y', 'a', 'b', 'c', 'd']");

  SECTION("a whole value then appends and prepends in one UPDATE") {
    r.Write([&](Mutation& m) {
      REQUIRE(m.Update(r.t, r.pk, r.ck,
                       std::vector<ColumnValue>{ColumnValue{r.Col("l"), ListOfTexts({"w"})}})
                  .ok());
      REQUIRE(m.AddElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"z"})).ok());
      return m.PrependElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"v"}));
    });
    CHECK(r.Read("l") == "['v', 'w', 'z']");
  }
  SECTION("duplicates are kept in a list") {
    r.Update("l", ListOfTexts({"a", "a"}));
    r.Add("l", ListOfTexts({"a"}));
    CHECK(r.Read("l") == "['a', 'a', 'a']");
  }
}

// Cassandra (Lists.Prepender, PrecisionTime.getNext): every prepend takes a
// time below the last one handed out, so of two prepends in one batch or
// statement the later goes first; the elements of one prepend keep their
// order. Appends take increasing times: call order.
TEST_CASE("two prepends in one mutation: the later one goes first", "[element_cells]") {
  Rows r;
  r.Add("l", ListOfTexts({"a"}));
  r.Prepend("l", ListOfTexts({"p", "q"}));
  r.Write([&](Mutation& m) {
    REQUIRE(m.AddElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"e"})).ok());
    REQUIRE(m.AddElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"f", "g"})).ok());
    REQUIRE(m.PrependElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"n"})).ok());
    return m.PrependElements(r.t, r.pk, r.ck, r.Col("l"), ListOfTexts({"m", "m2"}));
  });
  CHECK(r.Read("l") == "['m', 'm2', 'n', 'p', 'q', 'a', 'e', 'f', 'g']");
}

TEST_CASE("UDT: fields are cells; the value read has every field", "[element_cells]") {
  Rows r;
  r.Put("u", "b", std::string("x"), At(10));
  CHECK(r.Read("u") == r.Term("u", PackComponents({std::nullopt, std::string("x"), std::nullopt})));
  r.Put("u", "a", IntValue(1), At(11));
  r.Put("u", "c", IntValue(3), At(11));
  CHECK(r.Read("u") == r.Term("u", PackComponents({IntValue(1), std::string("x"), IntValue(3)})));
  r.Put("u", "b", std::nullopt, At(12));
  CHECK(r.Read("u") == r.Term("u", PackComponents({IntValue(1), std::nullopt, IntValue(3)})));
  // The serialized value holds all three fields, nulls included.
  CHECK(r.CellOf("u").cell.value == PackComponents({IntValue(1), std::nullopt, IntValue(3)}));
  r.Put("u", "a", std::nullopt, At(12));
  r.Put("u", "c", std::nullopt, At(12));
  CHECK(r.Read("u") == "<no row>");
  // A whole value with a null field writes no cell for it: an older field
  // write at the same time stays.
  r.Put("u", "b", std::string("old"), At(20));
  r.Update("u", PackComponents({IntValue(5), std::nullopt, std::nullopt}), At(20));
  CHECK(r.CellOf("u").cell.value ==
        PackComponents({IntValue(5), std::string("old"), std::nullopt}));
}

// ---------------------------------------------------------------------------
// TTLs and liveness.

TEST_CASE("an append with a TTL expires only the appended elements", "[element_cells]") {
  Rows r;
  r.Update("l", ListOfTexts({"a"}));
  r.Add("l", ListOfTexts({"b"}), Ttl(10));
  r.Add("s", SetOfInts({1}));
  r.Add("s", SetOfInts({2}), Ttl(10));
  r.Put("m", "k", IntValue(1), Ttl(10));
  r.Put("m", "j", IntValue(2));
  r.db.clock.AdvanceSeconds(9);
  CHECK(r.Read("l") == "['a', 'b']");
  CHECK(r.Read("s") == "{1, 2}");
  r.db.clock.AdvanceSeconds(1);
  CHECK(r.Read("l") == "['a']");
  CHECK(r.Read("s") == "{1}");
  CHECK(r.Read("m") == "{'j': 2}");
}

TEST_CASE("an append without a TTL does not make earlier elements permanent", "[element_cells]") {
  Rows r;
  r.Update("l", ListOfTexts({"a", "b"}), Ttl(10));
  r.Add("l", ListOfTexts({"c"}));
  r.Update("s", SetOfInts({1}), Ttl(10));
  r.Add("s", SetOfInts({2}));
  r.db.clock.AdvanceSeconds(10);
  CHECK(r.Read("l") == "['c']");
  CHECK(r.Read("s") == "{2}");
}

TEST_CASE("the assembled cell has the newest write time and the first expiry", "[element_cells]") {
  Rows r;
  r.Add("s", SetOfInts({1}), At(100, 50));
  r.Add("s", SetOfInts({2}), At(300, 20));
  r.Add("s", SetOfInts({3}), At(200));
  const RowCell cell = r.CellOf("s");
  CHECK(cell.cell.write_time == 300);
  CHECK(cell.cell.ttl == 20);
}

TEST_CASE("a row with only element cells is live while an element is", "[element_cells]") {
  Rows r;
  r.Add("s", SetOfInts({1}), Ttl(5));
  r.Put("u", "a", IntValue(1), Ttl(8));
  r.Add("l", ListOfTexts({"z"}), Ttl(10));
  CHECK(r.Read("s") == "{1}");
  r.db.clock.AdvanceSeconds(5);
  CHECK(r.Read("s") == "null");
  r.db.clock.AdvanceSeconds(3);
  CHECK(r.Read("u") == "null");
  CHECK(r.Read("l") == "['z']");
  auto live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(live.value());
  r.db.clock.AdvanceSeconds(2);
  CHECK(r.Read("l") == "<no row>");
  live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(!live.value());
  // Removing every element also leaves no row.
  r.Add("s", SetOfInts({1, 2}));
  r.Remove("s", SetOfInts({1, 2}));
  CHECK(r.Read("s") == "<no row>");
}

TEST_CASE("a static non-frozen set and a row deletion", "[element_cells]") {
  Rows r;
  r.Write([&](Mutation& m) {
    return m.AddElements(r.t, r.pk, {}, r.Col("ss"), SetOfTexts({"a", "b"}), At(10));
  });
  r.Write([&](Mutation& m) {
    return m.RemoveElements(r.t, r.pk, {}, r.Col("ss"), SetOfTexts({"a"}), At(11));
  });
  CHECK(r.ReadStatic("ss") == "{'b'}");
  r.Add("s", SetOfInts({1}), At(10));
  r.Add("s", SetOfInts({2}), At(12));
  r.Write([&](Mutation& m) { return m.DeleteRow(r.t, r.pk, r.ck, At(11)); });
  CHECK(r.Read("s") == "{2}");
  r.Write([&](Mutation& m) { return m.DeletePartition(r.t, r.pk, At(12)); });
  CHECK(r.Read("s") == "<no row>");
  CHECK(r.ReadStatic("ss") == "<no row>");
}

TEST_CASE("element cells survive a reopen", "[element_cells]") {
  Rows r;
  r.Update("l", ListOfTexts({"a", "b"}));
  r.Prepend("l", ListOfTexts({"z"}));
  r.Update("m", MapOf({{"k", 1}}));
  r.Remove("m", SetOfTexts({"k"}));
  r.Put("m", "j", IntValue(2));
  r.db.Reopen();
  r.t = r.db.Table("ks", "t");
  CHECK(r.Read("l") == "['z', 'a', 'b']");
  CHECK(r.Read("m") == "{'j': 2}");
  r.Add("l", ListOfTexts({"c"}));
  CHECK(r.Read("l") == "['z', 'a', 'b', 'c']");
}

TEST_CASE("element operations are refused on the wrong kind of column", "[element_cells]") {
  Rows r;
  Mutation m = r.db.engine->NewMutation();
  CHECK(!m.AddElements(r.t, r.pk, r.ck, r.Col("v"), IntValue(1)).ok());
  CHECK(!m.PrependElements(r.t, r.pk, r.ck, r.Col("s"), SetOfInts({1})).ok());
  CHECK(!m.SetElement(r.t, r.pk, r.ck, r.Col("u"), "nope", IntValue(1)).ok());
  CHECK(!m.SetElement(r.t, r.pk, r.ck, r.Col("s"), IntValue(1), IntValue(1)).ok());
  CHECK(!m.AddElements(r.t, r.pk, r.ck, r.Col("s"), std::string("\x00\x00", 2)).ok());
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// ---------------------------------------------------------------------------
// Random sequences of operations on a set<int> and a map<text, int> of one
// row, with explicit timestamps from a small range (ties are common), TTLs
// and clock steps, checked after every step against a model of Cassandra's
// per-element rules written here.

class ElementModel {
 public:
  struct Column {
    int64_t deletion = INT64_MIN;                    // shadows elements written at or before it
    std::map<std::string, model::Version> elements;  // by element (set) or key (map)
  };

  void Write(Column* column, const std::string& element, std::optional<std::string> value,
             int64_t timestamp, int64_t now, uint32_t ttl) {
    model::Version v;
    v.write_time = timestamp;
    if (!value) {
      v.tombstone = true;
      v.local_deletion_time = model::FloorDiv(now);
    } else {
      v.value = *value;
      v.ttl = ttl;
      v.local_deletion_time = ttl == 0 ? 0 : model::FloorDiv(now) + ttl;
    }
    auto [it, inserted] = column->elements.try_emplace(element, v);
    if (!inserted && model::Wins(v, it->second)) it->second = v;
  }
  static void Delete(Column* column, int64_t through) {
    column->deletion = std::max(column->deletion, through);
  }

  // The live elements: element -> value.
  std::map<std::string, std::string> Live(const Column& column, int64_t now) const {
    std::map<std::string, std::string> out;
    for (const auto& [element, v] : column.elements) {
      if (v.write_time <= std::max(column.deletion, row_deletion) || !v.LiveAt(now)) continue;
      out[element] = v.value;
    }
    return out;
  }
  bool MarkerLive(int64_t now) const {
    return marker && marker->write_time > row_deletion && marker->LiveAt(now);
  }

  // What a sweep does that a later write can see: an expired element
  // becomes a tombstone at its write time (Cassandra's compaction).
  void Sweep(int64_t now) {
    for (Column* column : {&set, &map, &list}) {
      for (auto& [element, v] : column->elements) {
        if (!v.expiring() || v.LiveAt(now)) continue;
        v.tombstone = true;
        v.value.clear();
        v.ttl = 0;
      }
    }
  }

  // The list: elements keyed by an order-preserving position (see the test).
  Column set, map, list;
  std::optional<model::Marker> marker;
  int64_t row_deletion = INT64_MIN;
};

std::string SetText(const std::map<std::string, std::string>& live) {
  std::vector<int32_t> values;
  for (const auto& [element, unused] : live) values.push_back(IntOf(element));
  std::sort(values.begin(), values.end());
  std::string text = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  }
  return live.empty() ? "null" : text + "}";
}

// Positions of list elements: appends count up from kMiddle, prepends down,
// so a later prepend sorts first; 8 bytes big-endian so keys sort as numbers.
constexpr uint64_t kMiddle = uint64_t{1} << 62;
std::string Position(uint64_t position) {
  std::string out(8, '\0');
  for (size_t i = 0; i < 8; ++i) out[i] = static_cast<char>(position >> (56 - 8 * i));
  return out;
}

std::string ListText(const std::map<std::string, std::string>& live) {
  std::string text = "[";
  bool first = true;
  for (const auto& [position, value] : live) {
    text += (first ? "'" : ", '") + value + "'";
    first = false;
  }
  return live.empty() ? "null" : text + "]";
}

std::string MapText(const std::map<std::string, std::string>& live) {
  std::string text = "{";
  bool first = true;
  for (const auto& [key, value] : live) {  // keys of one letter: byte order is text order
    text += (first ? "'" : ", '") + key + "': " + std::to_string(IntOf(value));
    first = false;
  }
  return live.empty() ? "null" : text + "}";
}

TEST_CASE("random element operations on a set, a map and a list agree with the model",
          "[element_cells][model]") {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    Rows r;
    ElementModel model;
    std::mt19937 rng(seed);
    auto pick = [&](int64_t lo, int64_t hi) {
      return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    const std::vector<int32_t> ints = {-2, -1, 0, 1, 2};
    const std::vector<std::string> keys = {"a", "b", "c"};
    uint64_t next_append = kMiddle, next_prepend = kMiddle;
    std::string log;
    for (int step = 0; step < 120; ++step) {
      const int64_t now = r.db.clock.NowMicros();
      const int64_t ts = pick(1, 6);
      const std::optional<int64_t> ttl =
          pick(0, 2) == 0 ? std::optional<int64_t>(pick(1, 3)) : std::nullopt;
      const auto ttl_s = static_cast<uint32_t>(ttl.value_or(0));
      // A few distinct elements (sorted, as a set value must be).
      std::vector<int32_t> some;
      for (int32_t v : ints) {
        if (pick(0, 2) == 0) some.push_back(v);
      }
      std::vector<std::string> some_keys;
      for (const std::string& k : keys) {
        if (pick(0, 1) == 0) some_keys.push_back(k);
      }
      std::vector<std::pair<std::string, int32_t>> entries;
      for (const std::string& k : some_keys) {
        entries.emplace_back(k, static_cast<int32_t>(pick(0, 2)));
      }
      std::vector<std::string> texts;
      for (int64_t i = pick(0, 3); i > 0; --i)
        texts.push_back(keys[static_cast<size_t>(pick(0, 2))]);
      const int64_t op = pick(0, 16);
      log += "\nstep " + std::to_string(step) + " op " + std::to_string(op) + " ts " +
             std::to_string(ts) + " ttl " + std::to_string(ttl_s) + " n " +
             std::to_string(some.size());
      switch (op) {
        case 0:
        case 1: {  // s = s + {...}
          r.Add("s", SetOfInts(some), At(ts, ttl));
          for (int32_t v : some) model.Write(&model.set, IntValue(v), "", ts, now, ttl_s);
          break;
        }
        case 2: {  // s = s - {...}
          r.Remove("s", SetOfInts(some), At(ts));
          for (int32_t v : some) model.Write(&model.set, IntValue(v), std::nullopt, ts, now, 0);
          break;
        }
        case 3: {  // UPDATE s = {...} (possibly empty)
          r.Update("s", SetOfInts(some), At(ts, ttl));
          ElementModel::Delete(&model.set, ts - 1);
          for (int32_t v : some) model.Write(&model.set, IntValue(v), "", ts, now, ttl_s);
          break;
        }
        case 4: {  // INSERT m = {...}: a marker too
          r.Insert("m", MapOf(entries), At(ts, ttl));
          model::Marker marker{ts, ttl_s, ttl_s == 0 ? 0 : model::FloorDiv(now) + ttl_s};
          if (!model.marker || model::Wins(marker, *model.marker)) model.marker = marker;
          ElementModel::Delete(&model.map, ts - 1);
          for (const auto& [k, v] : entries)
            model.Write(&model.map, k, IntValue(v), ts, now, ttl_s);
          break;
        }
        case 5: {  // m = m + {...}
          r.Add("m", MapOf(entries), At(ts, ttl));
          for (const auto& [k, v] : entries)
            model.Write(&model.map, k, IntValue(v), ts, now, ttl_s);
          break;
        }
        case 6: {  // m[k] = v, or DELETE m[k]
          const std::string& k = keys[static_cast<size_t>(pick(0, 2))];
          if (pick(0, 2) == 0) {
            r.Put("m", k, std::nullopt, At(ts));
            model.Write(&model.map, k, std::nullopt, ts, now, 0);
          } else {
            const auto v = static_cast<int32_t>(pick(0, 2));
            r.Put("m", k, IntValue(v), At(ts, ttl));
            model.Write(&model.map, k, IntValue(v), ts, now, ttl_s);
          }
          break;
        }
        case 7: {  // m = m - {keys}
          r.Remove("m", SetOfTexts(some_keys), At(ts));
          for (const std::string& k : some_keys) {
            model.Write(&model.map, k, std::nullopt, ts, now, 0);
          }
          break;
        }
        case 8: {  // DELETE s or DELETE m
          const bool set = pick(0, 1) == 0;
          r.Delete(set ? "s" : "m", At(ts));
          ElementModel::Delete(set ? &model.set : &model.map, ts);
          break;
        }
        case 9: {  // DELETE FROM t WHERE (row), rarely
          if (pick(0, 3) != 0) break;
          r.Write([&](Mutation& m) { return m.DeleteRow(r.t, r.pk, r.ck, At(ts)); });
          model.row_deletion = std::max(model.row_deletion, ts);
          break;
        }
        case 10: {  // l = l + [...]
          r.Add("l", ListOfTexts(texts), At(ts, ttl));
          for (const std::string& text : texts) {
            model.Write(&model.list, Position(next_append++), text, ts, now, ttl_s);
          }
          break;
        }
        case 11: {  // l = [...] + l
          r.Prepend("l", ListOfTexts(texts), At(ts, ttl));
          next_prepend -= texts.size();
          for (size_t i = 0; i < texts.size(); ++i) {
            model.Write(&model.list, Position(next_prepend + i), texts[i], ts, now, ttl_s);
          }
          break;
        }
        case 12: {  // UPDATE l = [...], or DELETE l
          if (pick(0, 2) == 0) {
            r.Delete("l", At(ts));
            ElementModel::Delete(&model.list, ts);
            break;
          }
          r.Update("l", ListOfTexts(texts), At(ts, ttl));
          ElementModel::Delete(&model.list, ts - 1);
          for (const std::string& text : texts) {
            model.Write(&model.list, Position(next_append++), text, ts, now, ttl_s);
          }
          break;
        }
        case 13: {
          SweepStats stats;
          const Status swept = r.db.engine->Sweep(&stats);
          INFO(swept.ToString());
          REQUIRE(swept.ok());
          model.Sweep(r.db.clock.NowMicros());
          break;
        }
        case 14: {
          if (pick(0, 3) != 0) break;
          r.db.Reopen();
          r.t = r.db.Table("ks", "t");
          break;
        }
        default:
          r.db.clock.AdvanceSeconds(pick(0, 2));
          break;
      }
      const int64_t at = r.db.clock.NowMicros();
      const auto live_set = model.Live(model.set, at);
      const auto live_map = model.Live(model.map, at);
      const auto live_list = model.Live(model.list, at);
      const bool row_live =
          model.MarkerLive(at) || !live_set.empty() || !live_map.empty() || !live_list.empty();
      INFO("seed " << seed << log);
      REQUIRE(r.Read("s") == (row_live ? SetText(live_set) : "<no row>"));
      REQUIRE(r.Read("m") == (row_live ? MapText(live_map) : "<no row>"));
      REQUIRE(r.Read("l") == (row_live ? ListText(live_list) : "<no row>"));
    }
  }
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// The rows of partition k=1 read one by one with GetRow, as FormatRow text
// without write times, in clustering order.
std::vector<std::string> RowsByGetRow(Rows& r, const std::vector<int32_t>& clusterings) {
  std::vector<std::string> out;
  for (int32_t c : clusterings) {
    auto row = r.db.engine->NewReadView().GetRow(r.t, r.pk, Key{IntValue(c)});
    REQUIRE(row.ok());
    if (row.value()) out.push_back(std::to_string(c) + ": " + FormatRow(*r.t, *row.value(), false));
  }
  return out;
}

std::string Joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : " | ") + part;
  return text;
}

TEST_CASE("iterators, reverse slices and table scans assemble element cells as GetRow does",
          "[element_cells]") {
  Rows r;
  const std::vector<int32_t> clusterings = {1, 2, 3, 4};
  for (int round = 0; round < 3; ++round) {
    for (int32_t c : clusterings) {
      r.ck = {IntValue(c)};
      r.Add("s", SetOfInts({c * 10 + round}));
      r.Add("l", ListOfTexts({std::to_string(round)}));
      r.Put("m", std::to_string(c), IntValue(round));
      r.Put("u", round == 1 ? "b" : "a", round == 1 ? std::string("x") : IntValue(round));
      if (c == 2 && round == 1) r.Update("s", SetOfInts({-7}));
      if (c == 3 && round == 2) r.Remove("s", SetOfInts({30, 31}));
      if (c == 4 && round == 2) {
        r.Delete("l");
        r.Delete("m");
      }
    }
  }
  r.ck = {IntValue(1)};
  std::vector<std::string> rows = RowsByGetRow(r, clusterings);
  REQUIRE(rows.size() == 4);
  CHECK(rows[1] == "2: l=['0', '1', '2'] m={'2': 2} s={-7, 22} u={a: 2, b: 'x', c: null}");
  const ReadView view = r.db.engine->NewReadView();
  CHECK(FormatPartition(view, r.t, r.pk, {}, false) == Joined(rows));
  SliceSpec reverse;
  reverse.reverse = true;
  std::vector<std::string> reversed(rows.rbegin(), rows.rend());
  CHECK(FormatPartition(view, r.t, r.pk, reverse, false) == Joined(reversed));
  SliceSpec limited;
  limited.limit = 2;
  limited.lower = ClusteringBound{{IntValue(2)}, true};
  CHECK(FormatPartition(view, r.t, r.pk, limited, false) ==
        Joined({rows.begin() + 1, rows.begin() + 3}));
  // A table scan (another read path) sees the same rows.
  std::vector<std::string> scanned;
  for (TableScan scan(r.db.engine->NewReadView(), r.t); scan.Valid(); scan.Next()) {
    if (!scan.has_row()) continue;
    Key clustering;
    REQUIRE(scan.row().DecodeClustering(&clustering).ok());
    scanned.push_back(std::to_string(IntOf(clustering[0])) + ": " +
                      FormatRow(*r.t, scan.row().row(), false));
  }
  CHECK(Joined(scanned) == Joined(rows));
  // A range deletion shadows the element cells of the rows it covers that
  // were written at or before it.
  r.Write([&](Mutation& m) {
    SliceSpec range;
    range.lower = ClusteringBound{{IntValue(2)}, true};
    range.upper = ClusteringBound{{IntValue(3)}, true};
    return m.DeleteRange(r.t, r.pk, range);
  });
  r.ck = {IntValue(3)};
  r.Add("s", SetOfInts({99}));
  rows = RowsByGetRow(r, clusterings);
  REQUIRE(rows.size() == 3);
  CHECK(rows[1] == "3: s={99}");
  CHECK(FormatPartition(r.db.engine->NewReadView(), r.t, r.pk, {}, false) == Joined(rows));
  reversed.assign(rows.rbegin(), rows.rend());
  CHECK(FormatPartition(r.db.engine->NewReadView(), r.t, r.pk, reverse, false) == Joined(reversed));
}

TEST_CASE("default_time_to_live applies to each element written without USING TTL",
          "[element_cells]") {
  Rows r;
  r.db.Ddl(
      "CREATE TABLE ks.d (k int PRIMARY KEY, s set<int>, m map<text, int>)"
      " WITH default_time_to_live = 10;");
  const TableHandle d = r.db.Table("ks", "d");
  const Key pk = {IntValue(1)};
  auto col = [&](const std::string& name) {
    for (size_t i = 0; i < d->def.columns.size(); ++i) {
      if (d->column(i).name == name) return i;
    }
    FAIL("no column " << name);
    return size_t{0};
  };
  auto write = [&](const std::function<Status(Mutation&)>& ops) { r.Write(ops); };
  write([&](Mutation& m) { return m.AddElements(d, pk, Key{}, col("s"), SetOfInts({1})); });
  r.db.clock.AdvanceSeconds(5);
  write([&](Mutation& m) { return m.AddElements(d, pk, Key{}, col("s"), SetOfInts({2})); });
  write(
      [&](Mutation& m) { return m.SetElement(d, pk, Key{}, col("m"), "a", IntValue(1), Ttl(0)); });
  auto read = [&]() {
    auto row = r.db.engine->NewReadView().GetRow(d, pk, Key{});
    REQUIRE(row.ok());
    return row.value() ? FormatRow(*d, *row.value(), false) : "<no row>";
  };
  CHECK(read() == "m={'a': 1} s={1, 2}/ttl=10");
  r.db.clock.AdvanceSeconds(5);
  CHECK(read() == "m={'a': 1} s={2}/ttl=10");
  r.db.clock.AdvanceSeconds(5);
  CHECK(read() == "m={'a': 1}");
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

TEST_CASE("a static non-frozen collection: whole values, elements, partition liveness",
          "[element_cells]") {
  Rows r;
  const Key none;
  auto update = [&](std::optional<std::string> value, int64_t ts) {
    r.Write([&](Mutation& m) {
      return m.Update(r.t, r.pk, none, std::vector<ColumnValue>{{r.Col("ss"), value}}, At(ts));
    });
  };
  r.Write([&](Mutation& m) {
    return m.AddElements(r.t, r.pk, none, r.Col("ss"), SetOfTexts({"x"}), At(10));
  });
  update(SetOfTexts({"a", "b"}), 10);
  CHECK(r.ReadStatic("ss") == "{'a', 'b', 'x'}");
  update(std::nullopt, 11);
  CHECK(r.ReadStatic("ss") == "<no row>");
  auto live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(!live.value());
  r.Write([&](Mutation& m) {
    return m.AddElements(r.t, r.pk, none, r.Col("ss"), SetOfTexts({"y"}), At(11, 3));
  });
  CHECK(r.ReadStatic("ss") == "{'y'}");
  live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(live.value());
  r.db.clock.AdvanceSeconds(3);
  live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(!live.value());
}

TEST_CASE("frozen collections stay one cell: a whole-value overwrite, no element operations",
          "[element_cells]") {
  Rows r;
  r.db.Ddl("CREATE TABLE ks.f (k int PRIMARY KEY, fs frozen<set<int>>, fu frozen<pt>);");
  const TableHandle f = r.db.Table("ks", "f");
  const Key pk = {IntValue(1)};
  auto col = [&](const std::string& name) {
    for (size_t i = 0; i < f->def.columns.size(); ++i) {
      if (f->column(i).name == name) return i;
    }
    FAIL("no column " << name);
    return size_t{0};
  };
  auto update = [&](const std::string& column, const std::string& value, int64_t ts) {
    r.Write([&](Mutation& m) {
      return m.Update(f, pk, Key{}, std::vector<ColumnValue>{{col(column), value}}, At(ts));
    });
  };
  update("fs", SetOfInts({1, 2}), 10);
  update("fs", SetOfInts({3}), 10);  // a tie: the greater bytes ({1, 2}: count 2) win
  update("fu", PackComponents({IntValue(1)}), 10);
  auto row = r.db.engine->NewReadView().GetRow(f, pk, Key{});
  REQUIRE(row.ok());
  REQUIRE(row.value());
  CHECK(FormatRow(*f, *row.value(), false) == "fs={1, 2} fu={a: 1, b: null, c: null}");
  for (const RowCell& cell : row.value()->cells) CHECK(cell.path.empty());
  Mutation m = r.db.engine->NewMutation();
  CHECK(!m.AddElements(f, pk, Key{}, col("fs"), SetOfInts({4})).ok());
  CHECK(!m.SetElement(f, pk, Key{}, col("fu"), "a", IntValue(2)).ok());
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// Cassandra: two whole-value writes of a collection in one batch at the same
// timestamp are two deletions at t - 1 and both writes' elements at t: the
// union (list elements get distinct time-UUIDs, so both lists' elements).
TEST_CASE("two whole values of a collection in one mutation: both writes' elements",
          "[element_cells]") {
  Rows r;
  r.Write([&](Mutation& m) {
    const size_t s = r.Col("s"), l = r.Col("l");
    REQUIRE(m.Update(r.t, r.pk, r.ck, std::vector<ColumnValue>{{s, SetOfInts({1})}}).ok());
    REQUIRE(m.Update(r.t, r.pk, r.ck, std::vector<ColumnValue>{{l, ListOfTexts({"a"})}}).ok());
    REQUIRE(m.Update(r.t, r.pk, r.ck, std::vector<ColumnValue>{{s, SetOfInts({2})}}).ok());
    return m.Update(r.t, r.pk, r.ck, std::vector<ColumnValue>{{l, ListOfTexts({"b"})}});
  });
  CHECK(r.Read("s") == "{1, 2}");
  CHECK(r.Read("l") == "['a', 'b']");
}

TEST_CASE("sweeps after gc_grace keep what an overwrite or a removal shadowed gone",
          "[element_cells]") {
  Rows r;
  r.db.Ddl(
      "CREATE TABLE ks.g (k int, c int, s set<int>, m map<text, int>, PRIMARY KEY (k, c))"
      " WITH gc_grace_seconds = 1;");
  r.t = r.db.Table("ks", "g");
  r.Add("s", SetOfInts({1, 2}));
  r.Put("m", "a", IntValue(1));
  r.Put("m", "b", IntValue(2), Ttl(2));
  r.Update("s", SetOfInts({3}));
  r.Remove("m", SetOfTexts({"a"}));
  r.db.clock.AdvanceSeconds(5);
  CHECK(r.Read("s") == "{3}");
  CHECK(r.Read("m") == "null");
  for (int round = 0; round < 2; ++round) {
    SweepStats stats;
    REQUIRE(r.db.engine->Sweep(&stats).ok());
    r.db.clock.AdvanceSeconds(5);
    CHECK(r.Read("s") == "{3}");
    CHECK(r.Read("m") == "null");
  }
  r.db.Reopen();
  r.t = r.db.Table("ks", "g");
  CHECK(r.Read("s") == "{3}");
  r.Add("s", SetOfInts({4}));
  CHECK(r.Read("s") == "{3, 4}");
  r.Delete("s");
  CHECK(r.Read("s") == "<no row>");
  r.db.clock.AdvanceSeconds(5);
  SweepStats stats;
  REQUIRE(r.db.engine->Sweep(&stats).ok());
  CHECK(r.Read("s") == "<no row>");
  auto live = r.db.engine->NewReadView().IsPartitionLive(r.t, r.pk);
  REQUIRE(live.ok());
  CHECK(!live.value());
}

}  // namespace
}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

PartitionRef Ref(Rows& r) {
  auto made = PartitionRef::Make(*r.t, r.pk);
  REQUIRE(made.ok());
  return std::move(made).value();
}

// GetCell of a multi-cell column: the assembled value, as GetRow has it.
TEST_CASE("GetCell of a multi-cell column is its assembled value", "[element_cells]") {
  Rows r;
  r.Update("s", SetOfInts({1, 2}), At(10));
  r.Add("s", SetOfInts({3}), At(12));
  r.Remove("s", SetOfInts({1}), At(11));
  r.Put("u", "b", std::string("x"), At(10));
  const PartitionRef ref = Ref(r);
  const ReadView view = r.db.engine->NewReadView();
  auto cell = view.GetCell(r.t, ref, r.ck, r.t->column_ids[r.Col("s")]);
  REQUIRE(cell.ok());
  REQUIRE(cell.value());
  CHECK(cell.value()->path.empty());
  CHECK(r.Term("s", cell.value()->cell.value) == "{2, 3}");
  CHECK(cell.value()->cell.write_time == 12);
  auto field = view.GetCell(r.t, ref, r.ck, r.t->column_ids[r.Col("u")]);
  REQUIRE(field.ok());
  REQUIRE(field.value());
  CHECK(field.value()->cell.value ==
        PackComponents({std::nullopt, std::string("x"), std::nullopt}));
  auto none = view.GetCell(r.t, ref, r.ck, r.t->column_ids[r.Col("m")]);
  REQUIRE(none.ok());
  CHECK(!none.value());
  r.Delete("s", At(12));
  auto deleted = r.db.engine->NewReadView().GetCell(r.t, ref, r.ck, r.t->column_ids[r.Col("s")]);
  REQUIRE(deleted.ok());
  CHECK(!deleted.value());
}

// l[i] = v, DELETE l[i] and l = l - [...] by the paths GetElements gives.
TEST_CASE("list elements by index through GetElements and SetElementAt", "[element_cells]") {
  Rows r;
  r.Update("l", ListOfTexts({"a", "b", "a", "c"}));
  r.Prepend("l", ListOfTexts({"z"}));
  auto elements = [&]() {
    auto got =
        r.db.engine->NewReadView().GetElements(r.t, Ref(r), r.ck, r.t->column_ids[r.Col("l")]);
    INFO(got.status().ToString());
    REQUIRE(got.ok());
    return got.value();
  };
  std::vector<RowCell> live = elements();
  REQUIRE(live.size() == 5);
  CHECK(live[0].cell.value == "z");
  CHECK(live[3].cell.value == "a");
  // l[1] = 'B'
  r.Write([&](Mutation& m) {
    return m.SetElementAt(r.t, r.pk, r.ck, r.Col("l"), live[1].path, std::string("B"));
  });
  CHECK(r.Read("l") == "['z', 'B', 'b', 'a', 'c']");
  // DELETE l[0]
  r.Write([&](Mutation& m) {
    return m.SetElementAt(r.t, r.pk, r.ck, r.Col("l"), live[0].path, std::nullopt);
  });
  CHECK(r.Read("l") == "['B', 'b', 'a', 'c']");
  // l = l - ['a']: every element holding 'a'
  live = elements();
  r.Write([&](Mutation& m) {
    for (const RowCell& e : live) {
      if (e.cell.value != "a") continue;
      CELLFS_RETURN_IF_ERROR(m.SetElementAt(r.t, r.pk, r.ck, r.Col("l"), e.path, std::nullopt));
    }
    return Status::Ok();
  });
  CHECK(r.Read("l") == "['B', 'b', 'c']");
  // An element set by index with an older timestamp than a later overwrite
  // of the list is gone with it.
  live = elements();
  r.Update("l", ListOfTexts({"n"}), At(r.db.clock.NowMicros() + 1000));
  r.Write([&](Mutation& m) {
    return m.SetElementAt(r.t, r.pk, r.ck, r.Col("l"), live[0].path, std::string("late"),
                          At(r.db.clock.NowMicros() + 999));
  });
  CHECK(r.Read("l") == "['n']");
  // A set by index of a path the list does not hold. Cassandra refuses l[i]
  // for an index out of range (after its read), so callers only pass paths
  // GetElements gave; the engine stores what it is given.
  CHECK(elements().size() == 1);
}

}  // namespace
}  // namespace cellfs::testing
