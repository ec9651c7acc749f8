// Catalog: DDL statements applied with Cassandra's validation rules.
#include "engine/cql/catalog.h"

#include <catch2/catch.hpp>

#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

using testing::RunScript;

constexpr const char* kKeyspace =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n";

// Runs kKeyspace + `script` and returns the error message ("" when ok).
std::string ErrorOf(const std::string& script, StatusCode* code = nullptr) {
  Catalog catalog;
  Status s = RunScript(catalog, std::string(kKeyspace) + script);
  if (code != nullptr) *code = s.code();
  return s.ok() ? "" : s.message();
}

TEST_CASE("a keyspace is created with its replication map and durable_writes", "[catalog]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k1 WITH replication = {'class': 'NetworkTopologyStrategy', "
                    "'dc1': 3} AND durable_writes = false;")
              .ok());
  const KeyspaceDef* ks = catalog.FindKeyspace("k1");
  REQUIRE(ks != nullptr);
  CHECK(ks->replication.at("class") == "NetworkTopologyStrategy");
  CHECK(ks->replication.at("dc1") == "3");
  CHECK_FALSE(ks->durable_writes);
}

TEST_CASE("keyspace creation needs a replication map with a class", "[catalog]") {
  Catalog catalog;
  CHECK_THAT(RunScript(catalog, "CREATE KEYSPACE k1 WITH durable_writes = true;").message(),
             Catch::Contains("replication"));
  CHECK_THAT(RunScript(catalog, "CREATE KEYSPACE k1 WITH replication = {'dc1': 3};").message(),
             Catch::Contains("'class'"));
  CHECK_THAT(RunScript(catalog, "CREATE KEYSPACE k1 WITH replication = {'class': 'X'} AND foo = 1;")
                 .message(),
             Catch::Contains("unknown keyspace option foo"));
  CHECK(catalog.keyspaces().empty());
}

TEST_CASE("keyspace names follow Cassandra's 48-character word rule", "[catalog]") {
  Catalog catalog;
  CHECK_THAT(RunScript(catalog, "CREATE KEYSPACE \"has space\" WITH replication = {'class': 'X'};")
                 .message(),
             Catch::Contains("letters, digits or underscores"));
  CHECK_FALSE(RunScript(catalog, "CREATE KEYSPACE " + std::string(49, 'a') +
                                     " WITH replication = {'class': 'X'};")
                  .ok());
  CHECK(RunScript(catalog,
                  "CREATE KEYSPACE " + std::string(48, 'a') + " WITH replication = {'class': 'X'};")
            .ok());
}

TEST_CASE("IF NOT EXISTS and IF EXISTS turn conflicts into no-ops", "[catalog]") {
  Catalog catalog;
  std::string ks;
  REQUIRE(RunScript(catalog, kKeyspace, &ks).ok());
  SECTION("keyspace") {
    CHECK(RunScript(catalog, "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'X'};")
              .ok());
    CHECK(catalog.FindKeyspace("ks")->replication.at("class") == "SimpleStrategy");
    Status again = RunScript(catalog, "CREATE KEYSPACE ks WITH replication = {'class': 'X'};");
    CHECK(again.code() == StatusCode::kAlreadyExists);
    CHECK(RunScript(catalog, "DROP KEYSPACE IF EXISTS nope;").ok());
    CHECK(RunScript(catalog, "DROP KEYSPACE nope;").code() == StatusCode::kNotFound);
  }
  SECTION("table") {
    REQUIRE(RunScript(catalog, "CREATE TABLE ks.t (a int PRIMARY KEY);").ok());
    CHECK(RunScript(catalog, "CREATE TABLE IF NOT EXISTS ks.t (b text PRIMARY KEY);").ok());
    CHECK(catalog.FindTable("ks", "t")->FindColumn("a") != nullptr);
    CHECK(RunScript(catalog, "CREATE TABLE ks.t (b text PRIMARY KEY);").code() ==
          StatusCode::kAlreadyExists);
    CHECK(RunScript(catalog, "DROP TABLE IF EXISTS ks.nope;").ok());
    CHECK(RunScript(catalog, "DROP TABLE ks.nope;").code() == StatusCode::kNotFound);
    CHECK(RunScript(catalog, "ALTER TABLE IF EXISTS ks.nope ADD x int;").ok());
  }
  SECTION("type") {
    REQUIRE(RunScript(catalog, "CREATE TYPE ks.a (x int);").ok());
    CHECK(RunScript(catalog, "CREATE TYPE IF NOT EXISTS ks.a (y text);").ok());
    CHECK(catalog.FindKeyspace("ks")->types.at("a").field_names == std::vector<std::string>{"x"});
    CHECK(RunScript(catalog, "DROP TYPE IF EXISTS ks.nope;").ok());
    CHECK(RunScript(catalog, "DROP TYPE ks.nope;").code() == StatusCode::kNotFound);
  }
}

TEST_CASE("every primary key form yields the right partition and clustering columns", "[catalog]") {
  struct Case {
    const char* columns;
    std::vector<std::string> partition;
    std::vector<std::string> clustering;
  };
  const Case cases[] = {
      {"a int PRIMARY KEY, b text", {"a"}, {}},
      {"a int, b text, PRIMARY KEY (a)", {"a"}, {}},
      {"a int, b text, c int, PRIMARY KEY (a, b, c)", {"a"}, {"b", "c"}},
      {"a int, b text, c int, PRIMARY KEY ((a, b), c)", {"a", "b"}, {"c"}},
      {"a int, b text, PRIMARY KEY ((a))", {"a"}, {}},
      {"PRIMARY KEY (b, a), a int, b text", {"b"}, {"a"}},
  };
  for (const auto& c : cases) {
    Catalog catalog;
    INFO(c.columns);
    REQUIRE(
        RunScript(catalog, std::string(kKeyspace) + "CREATE TABLE t (" + c.columns + ");").ok());
    const TableDef* t = catalog.FindTable("ks", "t");
    REQUIRE(t != nullptr);
    std::vector<std::string> partition, clustering;
    for (const auto& col : t->columns) {
      if (col.kind == ColumnKind::kPartitionKey) partition.push_back(col.name);
      if (col.kind == ColumnKind::kClustering) clustering.push_back(col.name);
    }
    CHECK(partition == c.partition);
    CHECK(clustering == c.clustering);
  }
}

TEST_CASE("columns are kept in canonical order: partition, clustering, then by name", "[catalog]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kKeyspace) +
                                 "CREATE TABLE t (z text, c int, y int static, b int, a int, "
                                 "PRIMARY KEY ((b, a), c));")
              .ok());
  std::vector<std::string> names;
  for (const auto& col : catalog.FindTable("ks", "t")->columns) names.push_back(col.name);
  CHECK(names == std::vector<std::string>{"b", "a", "c", "y", "z"});
  CHECK(catalog.FindTable("ks", "t")->FindColumn("y")->kind == ColumnKind::kStatic);
  CHECK(catalog.FindTable("ks", "t")->partition_key_count() == 2);
  CHECK(catalog.FindTable("ks", "t")->clustering_count() == 1);
}

TEST_CASE("a key column that is not declared is refused with its position", "[catalog]") {
  CHECK(ErrorOf("CREATE TABLE t (a int, b int,\n  PRIMARY KEY (a, c));") ==
        "line 4:3: unknown column c referenced in PRIMARY KEY");
}

TEST_CASE("a table needs exactly one primary key", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int, b int);"), Catch::Contains("no PRIMARY KEY"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int PRIMARY KEY);"),
             Catch::Contains("multiple PRIMARY KEYs"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b));"),
             Catch::Contains("multiple PRIMARY KEYs"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int, b int, PRIMARY KEY (a, a));"),
             Catch::Contains("more than once"));
}

TEST_CASE("duplicate column definitions are refused", "[catalog]") {
  CHECK(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int, b text);") ==
        "line 3:43: multiple definition of identifier b");
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, \"B\" int, b text);"), Catch::Equals(""));
}

TEST_CASE("static columns need clustering columns and cannot be keys", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, s int static);"),
             Catch::Contains("static columns are only useful"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int, b int static, PRIMARY KEY (a, b));"),
             Catch::Contains("cannot be part of the PRIMARY KEY"));
  CHECK(ErrorOf("CREATE TABLE t (a int, b int, s int static, PRIMARY KEY (a, b));").empty());
}

TEST_CASE("counter columns cannot be mixed with other regular columns", "[catalog]") {
  CHECK(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, hits counter, views counter);").empty());
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, hits counter, name text);"),
             Catch::Contains("cannot mix counter and non-counter columns"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a counter PRIMARY KEY, b counter);"),
             Catch::Contains("counter type is not supported for PRIMARY KEY"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, hits counter) WITH "
                     "default_time_to_live = 10;"),
             Catch::Contains("counter columns"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, l list<counter>);"),
             Catch::Contains("counters are not allowed inside collections"));
}

TEST_CASE("non-frozen collections and durations cannot be key columns", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TABLE t (a list<int> PRIMARY KEY);"),
             Catch::Contains("non-frozen list<int>"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int, b set<text>, PRIMARY KEY (a, b));"),
             Catch::Contains("invalid PRIMARY KEY column b"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int, b duration, PRIMARY KEY (a, b));"),
             Catch::Contains("duration type is not supported"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a frozen<list<duration>> PRIMARY KEY);"),
             Catch::Contains("duration"));
  CHECK(ErrorOf("CREATE TABLE t (a frozen<list<int>>, b frozen<map<text, int>>, "
                "c tuple<int, text>, PRIMARY KEY ((a, b), c));")
            .empty());
}

TEST_CASE("collection nesting follows Cassandra's frozen rules", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, l list<set<int>>);"),
             Catch::Contains("non-frozen collections are not allowed inside collections"));
  CHECK(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, l list<frozen<set<int>>>);").empty());
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, s set<duration>);"),
             Catch::Contains("durations are not allowed"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, f frozen<int>);"),
             Catch::Contains("frozen<> is only allowed"));
  CHECK_THAT(ErrorOf("CREATE TYPE u (x int);\nCREATE TABLE t (a int PRIMARY KEY, l list<u>);"),
             Catch::Contains("non-frozen user types are not allowed inside collections"));
}

TEST_CASE("a frozen collection freezes everything inside it", "[catalog]") {
  Catalog catalog;
  REQUIRE(
      RunScript(catalog, std::string(kKeyspace) +
                             "CREATE TABLE t (a int PRIMARY KEY, m frozen<map<text, list<int>>>);")
          .ok());
  const TypePtr& m = catalog.FindTable("ks", "t")->FindColumn("m")->type;
  CHECK(m->ToCql() == "frozen<map<text, frozen<list<int>>>>");
}

TEST_CASE("a missing keyspace is reported by name", "[catalog]") {
  Catalog catalog;
  CHECK(RunScript(catalog, "CREATE TABLE nope.t (a int PRIMARY KEY);").message() ==
        "line 1:14: keyspace nope does not exist");
  CHECK_THAT(RunScript(catalog, "CREATE TABLE t (a int PRIMARY KEY);").message(),
             Catch::Contains("no keyspace has been specified"));
  CHECK(RunScript(catalog, "USE nope;").code() == StatusCode::kNotFound);
}

TEST_CASE("clustering order must name clustering columns in key order", "[catalog]") {
  const std::string table = "CREATE TABLE t (p int, a int, b int, v int, PRIMARY KEY (p, a, b)) ";
  CHECK(ErrorOf(table + "WITH CLUSTERING ORDER BY (a DESC, b ASC);").empty());
  CHECK(ErrorOf(table + "WITH CLUSTERING ORDER BY (a DESC);").empty());
  CHECK_THAT(ErrorOf(table + "WITH CLUSTERING ORDER BY (b DESC, a ASC);"),
             Catch::Contains("key order"));
  CHECK_THAT(ErrorOf(table + "WITH CLUSTERING ORDER BY (v DESC);"),
             Catch::Contains("v is not one"));
  Catalog catalog;
  REQUIRE(RunScript(catalog, kKeyspace + table + "WITH CLUSTERING ORDER BY (a DESC);").ok());
  CHECK(catalog.FindTable("ks", "t")->FindColumn("a")->order == SortOrder::kDesc);
  CHECK(catalog.FindTable("ks", "t")->FindColumn("b")->order == SortOrder::kAsc);
}

TEST_CASE("TTL and gc grace options are typed and range-checked", "[catalog]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kKeyspace) +
                                 "CREATE TABLE t (a int PRIMARY KEY, b int) WITH "
                                 "default_time_to_live = 3600 AND gc_grace_seconds = 0 AND "
                                 "comment = 'it''s' AND compaction = {'class': "
                                 "'LeveledCompactionStrategy', 'sstable_size_in_mb': 160};")
              .ok());
  const TableOptions& o = catalog.FindTable("ks", "t")->options;
  CHECK(o.default_time_to_live == 3600);
  CHECK(o.gc_grace_seconds == 0);
  CHECK(o.other.at("comment") == "'it''s'");
  CHECK(o.other.at("compaction") ==
        "{'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '160'}");
  CHECK_THAT(ErrorOf("CREATE TABLE t2 (a int PRIMARY KEY) WITH default_time_to_live = 630720001;"),
             Catch::Contains("between 0 and 630720000"));
  CHECK_THAT(ErrorOf("CREATE TABLE t2 (a int PRIMARY KEY) WITH gc_grace_seconds = -1;"),
             Catch::Contains("gc_grace_seconds"));
  CHECK_THAT(ErrorOf("CREATE TABLE t2 (a int PRIMARY KEY) WITH default_time_to_live = 'x';"),
             Catch::Contains("whole number"));
  CHECK_THAT(ErrorOf("CREATE TABLE t2 (a int PRIMARY KEY) WITH flavour = 'x';"),
             Catch::Contains("unknown table option flavour"));
}

TEST_CASE("ALTER TABLE adds, drops and renames columns under the same rules", "[catalog]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kKeyspace) +
                                 "CREATE TABLE t (p int, c int, v int, PRIMARY KEY (p, c));")
              .ok());
  std::string ks = "ks";
  CHECK(RunScript(catalog, "ALTER TABLE t ADD w text;", &ks).ok());
  CHECK(RunScript(catalog, "ALTER TABLE t ADD (s int static, x list<int>);", &ks).ok());
  const TableDef* t = catalog.FindTable("ks", "t");
  CHECK(t->FindColumn("w") != nullptr);
  CHECK(t->FindColumn("s")->kind == ColumnKind::kStatic);
  CHECK_THAT(RunScript(catalog, "ALTER TABLE t ADD v int;", &ks).message(),
             Catch::Contains("already exists"));
  CHECK_THAT(RunScript(catalog, "ALTER TABLE t ADD n counter;", &ks).message(),
             Catch::Contains("cannot mix"));
  CHECK(RunScript(catalog, "ALTER TABLE t DROP w;", &ks).ok());
  CHECK(catalog.FindTable("ks", "t")->FindColumn("w") == nullptr);
  CHECK_THAT(RunScript(catalog, "ALTER TABLE t DROP p;", &ks).message(),
             Catch::Contains("cannot drop PRIMARY KEY column p"));
  CHECK_THAT(RunScript(catalog, "ALTER TABLE t DROP nope;", &ks).message(),
             Catch::Contains("was not found"));
  CHECK(RunScript(catalog, "ALTER TABLE t RENAME c TO c2;", &ks).ok());
  CHECK(catalog.FindTable("ks", "t")->FindColumn("c2")->kind == ColumnKind::kClustering);
  CHECK_THAT(RunScript(catalog, "ALTER TABLE t RENAME v TO v2;", &ks).message(),
             Catch::Contains("non PRIMARY KEY"));
  CHECK(RunScript(catalog, "ALTER TABLE t WITH default_time_to_live = 60;", &ks).ok());
  CHECK(catalog.FindTable("ks", "t")->options.default_time_to_live == 60);
}

TEST_CASE("ALTER TABLE ADD of a static column needs clustering columns", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TABLE t (p int PRIMARY KEY, v int);\nALTER TABLE t ADD s int static;"),
             Catch::Contains("static columns are only useful"));
}

TEST_CASE("user types resolve in the table's keyspace and cannot be dropped while used",
          "[catalog]") {
  Catalog catalog;
  std::string ks;
  REQUIRE(RunScript(catalog,
                    std::string(kKeyspace) +
                        "CREATE TYPE address (street text, city text, zip int);\n"
                        "CREATE TYPE person (name text, home frozen<address>, tags set<text>);\n"
                        "CREATE TABLE t (id int PRIMARY KEY, who frozen<person>, a address);",
                    &ks)
              .ok());
  const TableDef* t = catalog.FindTable("ks", "t");
  CHECK(t->FindColumn("who")->type->ToCql() == "frozen<person>");
  CHECK(t->FindColumn("who")->type->frozen());
  CHECK_FALSE(t->FindColumn("a")->type->frozen());
  CHECK(t->FindColumn("who")->type->params()[1]->udt_name() == "address");
  CHECK(RunScript(catalog, "DROP TYPE address;", &ks).code() == StatusCode::kFailedPrecondition);
  CHECK(RunScript(catalog, "DROP TABLE t;", &ks).ok());
  CHECK_THAT(RunScript(catalog, "DROP TYPE address;", &ks).message(),
             Catch::Contains("type person still uses it"));
  CHECK(RunScript(catalog, "DROP TYPE person; DROP TYPE address;", &ks).ok());
  CHECK(catalog.FindKeyspace("ks")->types.empty());
}

TEST_CASE("user type definitions are validated", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE TYPE u (a int, a text);"), Catch::Contains("duplicate field name a"));
  CHECK_THAT(ErrorOf("CREATE TYPE u (a counter);"), Catch::Contains("cannot contain counters"));
  CHECK_THAT(ErrorOf("CREATE TYPE u (a int);\nCREATE TYPE v (x u);"),
             Catch::Contains("non-frozen user types"));
  CHECK_THAT(ErrorOf("CREATE TYPE u (a nope);"), Catch::Contains("unknown type ks.nope"));
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b frozen<nope>);"),
             Catch::Contains("unknown type ks.nope"));
  CHECK_THAT(ErrorOf("CREATE TYPE int (a int);"), Catch::Contains("native type"));
}

TEST_CASE("a user type cannot take the name of a parameterised type", "[catalog]") {
  // The parser folds a quoted "list" to list, so frozen<"list"> would read
  // as a list without its parameter: such a type could never be used.
  for (const char* name : {"list", "set", "map", "tuple", "frozen"}) {
    INFO(name);
    CHECK_THAT(ErrorOf(std::string("CREATE TYPE \"") + name + "\" (a int);"),
               Catch::Contains("line 3:1: a user type cannot be named " + std::string(name) +
                               ", which is a reserved type name"));
  }
  CHECK(ErrorOf("CREATE TYPE \"List\" (a int);\n"
                "CREATE TABLE t (k int PRIMARY KEY, v frozen<\"List\">);") == "");
}

TEST_CASE("types nested too deeply through user types are refused with a position", "[catalog]") {
  // The parser caps one type expression at 32 levels; user types chain
  // expressions, and every recursive walk over values would follow the chain
  // (a hostile schema crashed the process).
  auto lists = [](int n, const std::string& inner) {
    std::string type = inner;
    for (int i = 0; i < n; ++i) type = "list<" + type + ">";
    return "frozen<" + type + ">";
  };
  // t0 is 2 deep (the type and its int), t1 = 1 + 31 + 2, then 30 + 34 = 64.
  const std::string types =
      "CREATE TYPE t0 (a int);\nCREATE TYPE t1 (a " + lists(31, "t0") + ");\n";
  CHECK(ErrorOf(types + "CREATE TABLE t (k int PRIMARY KEY, v " + lists(30, "t1") + ");") == "");
  CHECK(ErrorOf(types + "CREATE TABLE t (k int PRIMARY KEY, v " + lists(31, "t1") + ");") ==
        "line 5:38: type nested more than 64 levels deep (through user types)");
  CHECK_THAT(ErrorOf(types + "CREATE TYPE t2 (a " + lists(31, "t1") + ");"),
             Catch::Contains("line 5:19: type nested more than 64 levels deep"));
  std::string chain = "CREATE TYPE t0 (a int);\n";
  for (int i = 1; i <= 1000; ++i) {
    chain += "CREATE TYPE t" + std::to_string(i) + " (a frozen<t" + std::to_string(i - 1) + ">);\n";
  }
  CHECK_THAT(ErrorOf(chain), Catch::Contains("type nested more than 64 levels deep"));
}

TEST_CASE("user types from another keyspace are refused", "[catalog]") {
  CHECK_THAT(ErrorOf("CREATE KEYSPACE other WITH replication = {'class': 'X'};\n"
                     "CREATE TYPE other.u (a int);\n"
                     "CREATE TABLE t (a int PRIMARY KEY, b frozen<other.u>);"),
             Catch::Contains("only be used in the keyspace they are defined in"));
}

TEST_CASE("a view shares the table namespace (tests/engine/view_schema_test.cc has the rest)",
          "[catalog]") {
  CHECK(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int);\n"
                "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE b IS NOT NULL AND a IS "
                "NOT NULL PRIMARY KEY (b, a);")
            .empty());
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int);\n"
                     "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE b IS NOT NULL AND a IS "
                     "NOT NULL PRIMARY KEY (b, a);\n"
                     "CREATE TABLE v (a int PRIMARY KEY);"),
             Catch::Contains("already exists"));
}

TEST_CASE("functions and aggregates are kept as written", "[catalog]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kKeyspace) +
                                 "CREATE OR REPLACE FUNCTION f (a int) RETURNS NULL ON NULL INPUT "
                                 "RETURNS int LANGUAGE java AS 'return a;';")
              .ok());
  const auto& routines = catalog.FindKeyspace("ks")->routines;
  REQUIRE(routines.contains("f(int)"));
  CHECK_THAT(routines.at("f(int)").text,
             Catch::StartsWith("CREATE OR REPLACE FUNCTION ks.f (a int)"));
}

TEST_CASE("a failed statement leaves the catalog and the session keyspace unchanged", "[catalog]") {
  Catalog catalog;
  std::string ks;
  REQUIRE(RunScript(catalog, kKeyspace, &ks).ok());
  REQUIRE(RunScript(catalog, "CREATE TABLE t (p int, c int, PRIMARY KEY (p, c));", &ks).ok());
  CHECK_FALSE(RunScript(catalog, "ALTER TABLE t ADD (x int, c text);", &ks).ok());
  CHECK(catalog.FindTable("ks", "t")->FindColumn("x") == nullptr);
  CHECK_FALSE(RunScript(catalog, "USE nope;", &ks).ok());
  CHECK(ks == "ks");
}

TEST_CASE("DROP KEYSPACE drops its tables and clears the session keyspace", "[catalog]") {
  Catalog catalog;
  std::string ks;
  REQUIRE(
      RunScript(catalog, std::string(kKeyspace) + "CREATE TABLE t (a int PRIMARY KEY);", &ks).ok());
  SchemaChange change;
  Statement statement;
  bool done = false;
  CqlParser parser("DROP KEYSPACE ks");
  REQUIRE(parser.Next(&statement, &done).ok());
  REQUIRE(catalog.Apply(statement, &ks, &change).ok());
  CHECK(change.kind == SchemaChange::Kind::kDropped);
  CHECK(change.keyspace == "ks");
  CHECK(catalog.FindTable("ks", "t") == nullptr);
  CHECK(ks.empty());
}

TEST_CASE("COMPACT STORAGE is refused", "[catalog]") {
  StatusCode code;
  CHECK_THAT(ErrorOf("CREATE TABLE t (a int PRIMARY KEY, b int) WITH COMPACT STORAGE;", &code),
             Catch::Contains("COMPACT STORAGE"));
  CHECK(code == StatusCode::kNotSupported);
}

}  // namespace
}  // namespace cellfs
