// Secondary indexes in the engine: entries written with every write, built
// over existing rows, checked against the row at read (overwrites, deletes,
// TTL expiry), persisted across reopen, reclaimed on DROP and TRUNCATE.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "engine/store/index_iterator.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::TestEngine;
using testing::Value;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE users (id int, part int, at int, country text, age int, s text static, "
    "tags set<text>, props map<text, int>, PRIMARY KEY ((id, part), at)) "
    "WITH CLUSTERING ORDER BY (at DESC);\n";

std::vector<std::string> Key(const TableSchema& table, const std::vector<std::string>& texts,
                             size_t first) {
  std::vector<std::string> out;
  for (size_t i = 0; i < texts.size(); ++i) {
    out.push_back(Value(*table.column(first + i).type, texts[i]));
  }
  return out;
}

ColumnValue Cell(const TableSchema& table, const std::string& column, const std::string& literal) {
  size_t index = testing::ColumnIndexOf(table, column);
  return {index, Value(*table.column(index).type, literal)};
}

void Apply(Engine& engine, const std::function<Status(Mutation&)>& op) {
  Mutation m = engine.NewMutation();
  Status built = op(m);
  INFO(built.ToString());
  REQUIRE(built.ok());
  Status applied = engine.Apply(std::move(m));
  INFO(applied.ToString());
  REQUIRE(applied.ok());
}

// Upserts row (id, part, at) with the given cells.
void Put(TestEngine& db, int id, int part, int at,
         std::vector<std::pair<std::string, std::string>> cells, WriteAttributes attributes = {}) {
  TableHandle t = db.Table("ks", "users");
  std::vector<ColumnValue> values;
  for (auto& [column, literal] : cells) values.push_back(Cell(*t, column, literal));
  Apply(*db.engine, [&](Mutation& m) {
    return m.Insert(t, Key(*t, {std::to_string(id), std::to_string(part)}, 0),
                    Key(*t, {std::to_string(at)}, 2), values, attributes);
  });
}

size_t IndexNumber(const TableSchema& table, const std::string& name) {
  for (size_t i = 0; i < table.def.indexes.size(); ++i) {
    if (table.def.indexes[i].name == name) return i;
  }
  FAIL("no index " << name);
  return 0;
}

// The matches as "id,part/at" (a partition match: "id,part/*"), in order.
std::string Lookup(TestEngine& db, const std::string& index, const IndexBounds& bounds) {
  TableHandle t = db.Table("ks", "users");
  auto made = db.engine->NewReadView().NewIndexIterator(t, IndexNumber(*t, index), bounds);
  INFO(made.status().ToString());
  REQUIRE(made.ok());
  std::string out;
  for (IndexIterator& it = *made.value(); it.Valid(); it.Next()) {
    if (!out.empty()) out += ' ';
    out += FormatLiteral(*t->column(0).type, it.partition_key()[0]) + "," +
           FormatLiteral(*t->column(1).type, it.partition_key()[1]) + "/";
    out += it.partition_match() ? "*" : FormatLiteral(*t->column(2).type, it.clustering()[0]);
  }
  REQUIRE(made.value()->status().ok());
  return out;
}

std::string Equal(TestEngine& db, const std::string& index, const std::string& literal) {
  TableHandle t = db.Table("ks", "users");
  const IndexSchema* stored = t->FindIndex(index);
  REQUIRE(stored != nullptr);
  return Lookup(db, index, IndexBounds::Equal(Value(*IndexedValueType(*t, *stored), literal)));
}

TEST_CASE("an index finds the rows holding a value, and only while they hold it", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX by_country ON users (country);");
  Put(db, 1, 0, 10, {{"country", "US"}});
  Put(db, 1, 0, 20, {{"country", "FR"}});
  Put(db, 2, 0, 10, {{"country", "US"}});
  Put(db, 1, 0, 30, {{"country", "US"}});
  // Token order across partitions, clustering order (DESC) inside one.
  const std::string us = Equal(db, "by_country", "US");
  CHECK((us == "1,0/30 1,0/10 2,0/10" || us == "2,0/10 1,0/30 1,0/10"));
  CHECK(Equal(db, "by_country", "FR") == "1,0/20");

  // An overwrite moves the row; the old entry no longer matches.
  Put(db, 1, 0, 20, {{"country", "US"}});
  CHECK(Equal(db, "by_country", "FR").empty());
  CHECK(Equal(db, "by_country", "US").find("1,0/20") != std::string::npos);

  // A deleted row, a deleted cell and a deleted partition stop matching.
  TableHandle t = db.Table("ks", "users");
  Apply(*db.engine, [&](Mutation& m) {
    return m.DeleteRow(t, Key(*t, {"2", "0"}, 0), Key(*t, {"10"}, 2));
  });
  size_t country = testing::ColumnIndexOf(*t, "country");
  Apply(*db.engine, [&](Mutation& m) {
    return m.DeleteCells(t, Key(*t, {"1", "0"}, 0), Key(*t, {"30"}, 2), std::vector{country});
  });
  CHECK(Equal(db, "by_country", "US") == "1,0/20 1,0/10");
  Apply(*db.engine, [&](Mutation& m) { return m.DeletePartition(t, Key(*t, {"1", "0"}, 0)); });
  CHECK(Equal(db, "by_country", "US").empty());
}

TEST_CASE("an index entry expires with its cell", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX ON users (age);");
  WriteAttributes ttl;
  ttl.ttl = 60;
  Put(db, 1, 0, 1, {{"age", "30"}}, ttl);
  Put(db, 2, 0, 1, {{"age", "30"}});
  CHECK(Equal(db, "users_age_idx", "30").size() == std::string("1,0/1 2,0/1").size());
  db.clock.AdvanceSeconds(61);
  CHECK(Equal(db, "users_age_idx", "30") == "2,0/1");
  REQUIRE(db.engine->Sweep().ok());
  CHECK(Equal(db, "users_age_idx", "30") == "2,0/1");
}

TEST_CASE("an index answers ranges in value order", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX ON users (age);");
  for (int i = 0; i < 10; ++i) Put(db, 1, 0, i, {{"age", std::to_string(20 + i * 5)}});
  TableHandle t = db.Table("ks", "users");
  IndexBounds bounds;
  bounds.lower = Value(*t->column(testing::ColumnIndexOf(*t, "age")).type, "30");
  bounds.upper = Value(*t->column(testing::ColumnIndexOf(*t, "age")).type, "40");
  bounds.upper_inclusive = false;
  CHECK(Lookup(db, "users_age_idx", bounds) == "1,0/2 1,0/3");
  bounds.lower_inclusive = false;
  bounds.upper_inclusive = true;
  CHECK(Lookup(db, "users_age_idx", bounds) == "1,0/3 1,0/4");
}

TEST_CASE("CREATE INDEX on a populated table builds it from the rows there", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  for (int i = 0; i < 50; ++i) Put(db, i, 0, 1, {{"country", i % 2 == 0 ? "US" : "FR"}});
  Put(db, 3, 0, 1, {{"country", "US"}});  // was FR: the build sees only the live value
  db.Ddl("CREATE INDEX by_country ON users (country);");
  TableHandle t = db.Table("ks", "users");
  CHECK(t->FindIndex("by_country")->built);
  const std::string us = Equal(db, "by_country", "US");
  CHECK(std::count(us.begin(), us.end(), '/') == 26);
  CHECK(us.find("3,0/1") != std::string::npos);
  const std::string fr = Equal(db, "by_country", "FR");
  CHECK(std::count(fr.begin(), fr.end(), '/') == 24);
}

TEST_CASE("static, clustering and partition key columns and collections are indexed", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl(
      "CREATE INDEX ON users (s); CREATE INDEX ON users (at); CREATE INDEX ON users (part);"
      "CREATE INDEX ON users (tags); CREATE INDEX ON users (keys(props));"
      "CREATE INDEX by_entry ON users (entries(props));");
  Put(db, 1, 7, 10, {{"s", "x"}, {"tags", "{'a', 'b'}"}, {"props", "{'k': 1}"}});
  Put(db, 1, 7, 20, {{"tags", "{'b'}"}});
  Put(db, 2, 7, 10, {{"s", "y"}, {"props", "{'k': 2, 'j': 1}"}});
  CHECK(Equal(db, "users_s_idx", "x") == "1,7/*");
  CHECK(Equal(db, "users_at_idx", "20") == "1,7/20");
  const std::string part = Equal(db, "users_part_idx", "7");
  CHECK((part == "1,7/* 2,7/*" || part == "2,7/* 1,7/*"));
  CHECK(Equal(db, "users_tags_idx", "a") == "1,7/10");
  CHECK(Equal(db, "users_tags_idx", "b") == "1,7/20 1,7/10");
  CHECK(Equal(db, "users_props_idx", "j") == "2,7/10");
  CHECK(Equal(db, "by_entry", "{'k': 2}") == "2,7/10");
  CHECK(Equal(db, "by_entry", "{'k': 3}").empty());
  // An element removed stops matching.
  TableHandle t = db.Table("ks", "users");
  const size_t tags = testing::ColumnIndexOf(*t, "tags");
  Apply(*db.engine, [&](Mutation& m) {
    return m.RemoveElements(t, Key(*t, {"1", "7"}, 0), Key(*t, {"10"}, 2), tags,
                            Value(*t->column(tags).type, "{'a'}"));
  });
  CHECK(Equal(db, "users_tags_idx", "a").empty());
}

// Cassandra refuses a value an index cannot hold (65535 bytes or more)
// with this message; the write stores nothing, rather than a row its index
// would not find.
TEST_CASE("a value of 65535 bytes or more for an index refuses the write", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl(
      "CREATE INDEX by_country ON users (country); CREATE INDEX ON users (s);"
      "CREATE INDEX ON users (tags); CREATE INDEX by_entry ON users (entries(props));");
  TableHandle t = db.Table("ks", "users");
  auto refusal = [&](const std::string& column, const std::string& literal) {
    Mutation m = db.engine->NewMutation();
    std::vector<ColumnValue> values{Cell(*t, column, literal)};
    Status s = m.Insert(t, Key(*t, {"1", "0"}, 0), Key(*t, {"10"}, 2), values);
    return s.ok() ? std::string() : s.message();
  };
  const std::string longest(65534, 'x');
  const std::string too_long(65535, 'x');
  CHECK(refusal("country", longest).empty());  // text: the literal unquoted
  CHECK(refusal("country", too_long) ==
        "Cannot index value of size 65535 for index by_country on ks.users(country) (maximum "
        "allowed size=65535)");
  CHECK(refusal("s", too_long + "x") ==
        "Cannot index value of size 65536 for index users_s_idx on ks.users(s) (maximum allowed "
        "size=65535)");
  CHECK(refusal("tags", "{'a', '" + too_long + "'}") ==
        "Cannot index value of size 65535 for index users_tags_idx on ks.users(tags) (maximum "
        "allowed size=65535)");
  // An entry counts its key and value as Cassandra's composite does: 2 + k + 1 + 2 + 4 + 1.
  CHECK(refusal("props", "{'" + std::string(65525, 'k') + "': 1}") ==
        "Cannot index value of size 65535 for index by_entry on ks.users(props) (maximum allowed "
        "size=65535)");
  CHECK(refusal("props", "{'" + std::string(65524, 'k') + "': 1}").empty());
  CHECK(Equal(db, "by_country", longest).empty());  // nothing above was applied
}

TEST_CASE("indexes persist across reopen and are reclaimed when dropped or truncated", "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX by_country ON users (country);");
  Put(db, 1, 0, 1, {{"country", "US"}});
  db.Reopen();
  CHECK(Equal(db, "by_country", "US") == "1,0/1");
  const uint32_t old_id = db.Table("ks", "users")->FindIndex("by_country")->id;

  db.Ddl("TRUNCATE users;");
  CHECK(db.Table("ks", "users")->FindIndex("by_country")->id != old_id);
  CHECK(Equal(db, "by_country", "US").empty());
  Put(db, 2, 0, 1, {{"country", "US"}});
  CHECK(Equal(db, "by_country", "US") == "2,0/1");

  db.Ddl("DROP INDEX by_country;");
  SweepStats stats;
  REQUIRE(db.engine->Sweep(&stats).ok());
  CHECK(stats.tables_cleaned >= 2);  // the old table space and both index spaces
  db.Ddl("CREATE INDEX by_country ON users (country);");
  CHECK(Equal(db, "by_country", "US") == "2,0/1");
}

TEST_CASE(
    "a read through a handle taken before DROP INDEX is refused, not answered from a "
    "space being reclaimed",
    "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  db.Ddl("CREATE INDEX by_country ON users (country);");
  Put(db, 1, 0, 1, {{"country", "US"}});
  TableHandle before = db.Table("ks", "users");
  db.Ddl("DROP INDEX by_country;");
  REQUIRE(db.engine->Sweep().ok());
  auto made = db.engine->NewReadView().NewIndexIterator(
      before, 0,
      IndexBounds::Equal(
          Value(*before->column(testing::ColumnIndexOf(*before, "country")).type, "US")));
  CHECK(made.status().code() == StatusCode::kNotFound);
  CHECK_THAT(made.status().message(), Catch::Contains("was dropped"));
}

TEST_CASE("a write prepared before its table's indexes changed is refused, not half-indexed",
          "[index]") {
  TestEngine db;
  db.Ddl(kSchema);
  TableHandle before = db.Table("ks", "users");
  Mutation m = db.engine->NewMutation();
  REQUIRE(m.Insert(before, Key(*before, {"1", "0"}, 0), Key(*before, {"1"}, 2),
                   std::vector{Cell(*before, "country", "US")})
              .ok());
  db.Ddl("CREATE INDEX by_country ON users (country);");
  Status applied = db.engine->Apply(std::move(m));
  CHECK(applied.code() == StatusCode::kAborted);
  CHECK_THAT(applied.message(), Catch::Contains("indexes or views of table users changed"));
  CHECK(Equal(db, "by_country", "US").empty());
}

}  // namespace
}  // namespace cellfs
