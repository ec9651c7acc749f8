// Materialized views in the engine: entries written with every base write,
// rows read through their base rows (a changed key column moves the row, a
// null one has none, TTLs carry over and expire with the base), every read
// of a view handle (slices, point reads, cells, elements, liveness), builds
// over existing rows, writes refused, TRUNCATE and DROP.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::FormatPartition;
using testing::TestEngine;
using testing::Value;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE users (id int, at int, email text, name text, tags set<text>, "
    "PRIMARY KEY (id, at));\n"
    "CREATE MATERIALIZED VIEW by_email AS SELECT email, at, id, name, tags FROM users "
    "WHERE email IS NOT NULL AND id IS NOT NULL AND at IS NOT NULL "
    "PRIMARY KEY (email, at, id) WITH CLUSTERING ORDER BY (at DESC, id ASC);\n";

class ViewDb {
 public:
  ViewDb() { db.Ddl(kSchema); }

  TableHandle Base() { return db.Table("ks", "users"); }
  TableHandle View(const std::string& name = "by_email") { return db.Table("ks", name); }

  // Upserts row (id, at) with literal cells, as INSERT (marker) or UPDATE.
  Status Put(int id, int at, const std::vector<std::pair<std::string, std::string>>& cells,
             WriteAttributes attributes = {}, bool insert = true) {
    TableHandle t = Base();
    std::vector<ColumnValue> values;
    for (const auto& [column, literal] : cells) {
      const size_t index = testing::ColumnIndexOf(*t, column);
      if (literal == "null") {
        values.push_back({index, std::nullopt});
      } else {
        values.push_back({index, Value(*t->column(index).type, literal)});
      }
    }
    return Write([&](Mutation& m) {
      return insert ? m.Insert(t, Key(id), Clustering(at), values, attributes)
                    : m.Update(t, Key(id), Clustering(at), values, attributes);
    });
  }

  Status Write(const std::function<Status(Mutation&)>& op) {
    Mutation m = db.engine->NewMutation();
    Status built = op(m);
    if (!built.ok()) return built;
    return db.engine->Apply(std::move(m));
  }

  static std::vector<std::string> Key(int id) { return {testing::IntValue(id)}; }
  static std::vector<std::string> Clustering(int at) { return {testing::IntValue(at)}; }

  // The view partition `email`, rows as "at,id: cells" (no write times).
  std::string Partition(const std::string& email, const SliceSpec& slice = {}) {
    return FormatPartition(db.engine->NewReadView(), View(), {email}, slice, false);
  }

  // Every view partition's email, in the order the iterator lists them.
  std::vector<std::string> Emails() {
    std::vector<std::string> out;
    auto it = db.engine->NewReadView().NewPartitionIterator(View());
    for (; it->Valid(); it->Next()) {
      std::vector<std::string> key;
      REQUIRE(it->DecodePartitionKey(&key).ok());
      out.push_back(key[0]);
      CHECK(it->first_row() != nullptr);
    }
    REQUIRE(it->status().ok());
    return out;
  }

  TestEngine db;
};

TEST_CASE("a view row follows its base row: moved by its key column, gone with it", "[view]") {
  ViewDb v;
  REQUIRE(v.Put(1, 10, {{"email", "a@x"}, {"name", "ann"}}).ok());
  REQUIRE(v.Put(2, 20, {{"email", "b@x"}, {"name", "bob"}}).ok());
  REQUIRE(v.Put(3, 30, {{"name", "cy"}}).ok());  // no email: no view row
  CHECK(v.Partition("a@x") == "10,1: marker name='ann'");
  CHECK(v.Emails().size() == 2);

  SECTION("a changed email moves the row; the old one is gone") {
    REQUIRE(v.Put(1, 10, {{"email", "c@x"}}, {}, false).ok());
    CHECK(v.Partition("a@x").empty());
    CHECK(v.Partition("c@x") == "10,1: marker name='ann'");
    // Back to the first email, with an older timestamp than the move: the
    // base keeps c@x, and so does the view.
    WriteAttributes old;
    old.timestamp = 1;
    REQUIRE(v.Put(1, 10, {{"email", "a@x"}}, old, false).ok());
    CHECK(v.Partition("a@x").empty());
    CHECK(v.Partition("c@x") == "10,1: marker name='ann'");
  }
  SECTION("a null email, a deleted row, a deleted partition: no view row") {
    REQUIRE(v.Put(1, 10, {{"email", "null"}}, {}, false).ok());
    TableHandle t = v.Base();
    REQUIRE(v.Write([&](Mutation& m) {
               return m.DeleteRow(t, ViewDb::Key(2), ViewDb::Clustering(20));
             }).ok());
    CHECK(v.Emails().empty());
    REQUIRE(v.Put(4, 1, {{"email", "d@x"}}).ok());
    REQUIRE(v.Write([&](Mutation& m) { return m.DeletePartition(t, ViewDb::Key(4)); }).ok());
    CHECK(v.Emails().empty());
  }
  SECTION("a cell the view selects changes in place; one it does not select is not shown") {
    REQUIRE(v.Put(2, 20, {{"name", "robert"}, {"tags", "{'t'}"}}, {}, false).ok());
    CHECK(v.Partition("b@x") == "20,2: marker name='robert' tags={'t'}");
  }
}

// A view keyed by a regular column cannot hold a key value longer than
// 65535 bytes: the base write is refused, rather than stored with no view
// row (Cassandra has no clean answer: its view update fails after the base
// write).
TEST_CASE("a value too long for the view's key refuses the base write", "[view]") {
  ViewDb v;
  const std::string longest(65535, 'e');
  REQUIRE(v.Put(1, 10, {{"email", longest}}).ok());
  CHECK(v.Partition(longest) == "10,1: marker");
  Status s = v.Put(2, 20, {{"email", longest + "e"}, {"name", "x"}});
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() ==
        "Key length of 65536 is longer than maximum of 65535: column email is in the primary key "
        "of materialized view ks.by_email");
  CHECK(v.Emails().size() == 1);
  CHECK(FormatPartition(v.db.engine->NewReadView(), v.Base(), ViewDb::Key(2), {}, false).empty());
}

TEST_CASE("TTLs carry over: a view row expires with its base cell", "[view]") {
  ViewDb v;
  WriteAttributes ttl;
  ttl.ttl = 5;
  REQUIRE(v.Put(1, 10, {{"email", "a@x"}}, ttl, false).ok());  // UPDATE: no marker
  REQUIRE(v.Put(1, 10, {{"name", "ann"}}, {}, false).ok());
  const std::vector<std::string> pk = {"a@x"};
  const std::vector<std::string> ck = {testing::IntValue(10), testing::IntValue(1)};
  auto row = v.db.engine->NewReadView().GetRow(v.View(), pk, ck);
  REQUIRE(row.ok());
  REQUIRE(row->has_value());
  REQUIRE((*row)->marker.has_value());
  CHECK((*row)->marker->ttl == 5);  // lent by the email cell
  v.db.clock.AdvanceSeconds(6);
  CHECK(v.Partition("a@x").empty());
  CHECK(v.Emails().empty());
  // The base row lives on without its email.
  CHECK(FormatPartition(v.db.engine->NewReadView(), v.Base(), ViewDb::Key(1), {}, false) ==
        "10: name='ann'");
}

TEST_CASE("every read works on a view handle", "[view]") {
  ViewDb v;
  for (int at = 1; at <= 5; ++at) {
    REQUIRE(v.Put(at, at, {{"email", "same@x"}, {"tags", "{'a', 'b'}"}}).ok());
  }
  const ReadView view = v.db.engine->NewReadView();
  const TableHandle t = v.View();
  CHECK(v.Partition("same@x") ==
        "5,5: marker tags={'a', 'b'} | 4,4: marker tags={'a', 'b'} | 3,3: marker tags={'a', "
        "'b'} | 2,2: marker tags={'a', 'b'} | 1,1: marker tags={'a', 'b'}");
  SliceSpec slice;
  slice.lower = ClusteringBound{{testing::IntValue(2)}, true};
  slice.upper = ClusteringBound{{testing::IntValue(4)}, false};
  CHECK(v.Partition("same@x", slice) ==
        "3,3: marker tags={'a', 'b'} | 2,2: marker tags={'a', 'b'}");
  slice.reverse = true;
  slice.limit = 1;
  CHECK(v.Partition("same@x", slice) == "2,2: marker tags={'a', 'b'}");

  auto partition = PartitionRef::Make(*t, std::vector<std::string>{"same@x"});
  REQUIRE(partition.ok());
  const std::vector<std::string> ck = {testing::IntValue(3), testing::IntValue(3)};
  auto live = view.IsPartitionLive(t, partition.value());
  REQUIRE(live.ok());
  CHECK(live.value());
  auto statics = view.GetStaticRow(t, partition.value());
  REQUIRE(statics.ok());
  CHECK(!statics->has_value());
  const uint32_t tags_id = t->column_ids[testing::ColumnIndexOf(*t, "tags")];
  CHECK(tags_id == v.Base()->column_ids[testing::ColumnIndexOf(*v.Base(), "tags")]);
  auto cell = view.GetCell(t, partition.value(), ck, tags_id);
  REQUIRE(cell.ok());
  CHECK(cell->has_value());
  auto elements = view.GetElements(t, partition.value(), ck, tags_id);
  REQUIRE(elements.ok());
  CHECK(elements->size() == 2);
  const std::vector<std::string> wrong = {testing::IntValue(3), testing::IntValue(4)};
  auto missing = view.GetRow(t, partition.value(), wrong);
  REQUIRE(missing.ok());
  CHECK(!missing->has_value());
  auto none = PartitionRef::Make(*t, std::vector<std::string>{"none@x"});
  REQUIRE(none.ok());
  auto dead = view.IsPartitionLive(t, none.value());
  REQUIRE(dead.ok());
  CHECK(!dead.value());
}

TEST_CASE("a view cannot be written", "[view]") {
  ViewDb v;
  TableHandle t = v.View();
  const ColumnValue cells[] = {{testing::ColumnIndexOf(*t, "name"), "x"}};
  const std::vector<std::string> ck = {testing::IntValue(1), testing::IntValue(1)};
  Mutation m = v.db.engine->NewMutation();
  Status s = m.Insert(t, std::vector<std::string>{"a@x"}, ck, cells);
  CHECK(s.code() == StatusCode::kReadOnly);
  CHECK_THAT(s.message(), Catch::Contains("Cannot directly modify a materialized view"));
  CHECK(m.DeletePartition(t, std::vector<std::string>{"a@x"}).code() == StatusCode::kReadOnly);
  CHECK(m.empty());
}

TEST_CASE("a view built over existing rows, after a reopen, TRUNCATE and DROP", "[view]") {
  ViewDb v;
  for (int id = 0; id < 50; ++id) {
    REQUIRE(v.Put(id, 0, {{"email", "e" + std::to_string(id % 5)}}).ok());
  }
  v.db.Ddl(
      "CREATE MATERIALIZED VIEW late AS SELECT email, id, at, name FROM users"
      " WHERE email IS NOT NULL AND at IS NOT NULL AND id < 20 PRIMARY KEY ((email), id, at);");
  TableHandle late = v.View("late");
  REQUIRE(late->view.has_value());
  CHECK(late->view->built);
  auto count = [&](const TableHandle& view, const std::string& email) {
    auto it = v.db.engine->NewReadView().NewRowIterator(view, std::vector<std::string>{email});
    REQUIRE(it.ok());
    size_t n = 0;
    for (; it.value()->Valid(); it.value()->Next()) ++n;
    return n;
  };
  CHECK(count(late, "e1") == 4);  // ids 1, 6, 11, 16: the restriction id < 20 holds
  CHECK(count(v.View(), "e1") == 10);
  v.db.Reopen();
  CHECK(count(v.View("late"), "e1") == 4);

  v.db.Ddl("TRUNCATE users;");
  CHECK(count(v.View("late"), "e1") == 0);
  CHECK(count(v.View(), "e1") == 0);
  REQUIRE(v.Put(1, 0, {{"email", "e1"}}).ok());
  CHECK(count(v.View(), "e1") == 1);

  TableHandle before_drop = v.View("late");
  v.db.Ddl("DROP MATERIALIZED VIEW late;");
  auto dropped =
      v.db.engine->NewReadView().NewRowIterator(before_drop, std::vector<std::string>{"e1"});
  CHECK(dropped.status().code() == StatusCode::kNotFound);
  SweepStats stats;
  REQUIRE(v.db.engine->Sweep(&stats).ok());
  CHECK(stats.tables_cleaned >= 1);
}

}  // namespace
}  // namespace cellfs
