// CREATE / DROP / ALTER MATERIALIZED VIEW in the catalog: Cassandra's
// validation order and words, what views change for the table statements,
// and DESCRIBE text that loads back to an equal keyspace.
#include <catch2/catch.hpp>

#include "engine/cql/catalog.h"
#include "engine/cql/describe.h"
#include "engine/cql/describe_statement.h"
#include "engine/cql/literal.h"
#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

using testing::RunScript;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE t (k int, c text, v int, w text, s int static, l list<int>, d duration, "
    "PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);\n"
    "CREATE TABLE u (k int PRIMARY KEY, a int, b int, l list<int>, fl frozen<list<int>>, "
    "d duration);\n"
    "CREATE TABLE e (k int, c text, v int, w text, l list<int>, PRIMARY KEY (k, c));\n"
    "CREATE TABLE hits (k int PRIMARY KEY, n counter);\n"
    "CREATE TABLE nogc (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 0;\n";

// A valid view of t keyed by v.
constexpr const char* kByV =
    "CREATE MATERIALIZED VIEW by_v AS SELECT k, c, v, w FROM t "
    "WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);\n";

std::string ErrorOf(const std::string& script) {
  Catalog catalog;
  Status s = RunScript(catalog, std::string(kSchema) + script);
  return s.ok() ? "" : s.message();
}

const TableDef& TableOf(Catalog& catalog, const std::string& name) {
  const TableDef* table = catalog.FindTable("ks", name);
  REQUIRE(table != nullptr);
  return *table;
}

std::string ColumnsOf(const TableDef& table) {
  std::string out;
  for (const ColumnDef& c : table.columns) {
    out += (out.empty() ? "" : " ") + c.name;
    if (c.kind == ColumnKind::kPartitionKey) out += "(pk)";
    if (c.kind == ColumnKind::kClustering) out += c.order == SortOrder::kDesc ? "(desc)" : "(asc)";
  }
  return out;
}

TEST_CASE("CREATE MATERIALIZED VIEW adds a view table in canonical column order", "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + kByV).ok());
  const TableDef& view = TableOf(catalog, "by_v");
  REQUIRE(view.view.has_value());
  CHECK(view.view->base_table == "t");
  CHECK_FALSE(view.view->select_all);
  CHECK(view.view->where_text == "v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL");
  CHECK(view.view->restrictions.empty());
  // c keeps the base's DESC order when the view gives none.
  CHECK(ColumnsOf(view) == "v(pk) k(asc) c(desc) w");
}

TEST_CASE("a view's restrictions are typed, and its WHERE text is Cassandra's", "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) +
                                 "CREATE MATERIALIZED VIEW r AS SELECT * FROM e WHERE k IN (1, 2) "
                                 "AND c >= $$it's$$ AND v IS NOT NULL "
                                 "PRIMARY KEY ((v, k), c) WITH CLUSTERING ORDER BY (c ASC) "
                                 "AND comment = 'x';\n")
              .ok());
  const TableDef& view = TableOf(catalog, "r");
  CHECK(view.view->select_all);
  CHECK(view.view->where_text == "k IN (1, 2) AND c >= 'it''s' AND v IS NOT NULL");
  REQUIRE(view.view->restrictions.size() == 2);
  CHECK(view.view->restrictions[0].column == "k");
  CHECK(view.view->restrictions[0].op == ViewRestriction::Op::kIn);
  CHECK(view.view->restrictions[0].values ==
        std::vector<std::string>{std::string("\0\0\0\1", 4), std::string("\0\0\0\2", 4)});
  CHECK(view.view->restrictions[1].op == ViewRestriction::Op::kGe);
  CHECK(view.view->restrictions[1].values == std::vector<std::string>{"it's"});
  CHECK(ColumnsOf(view) == "v(pk) k(pk) c(asc) l w");
}

TEST_CASE("CREATE MATERIALIZED VIEW refuses what Cassandra refuses, in its words",
          "[view_schema]") {
  const std::string nn = " WHERE k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL ";
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW v1 AS SELECT * FROM nope WHERE k IS NOT NULL "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Base table 'nope' doesn't exist"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW u AS SELECT k, c FROM t" + nn + "PRIMARY KEY (k, c);"),
      Catch::Contains("Cannot create materialized view 'u' - a table with the same name "
                      "already exists"));
  CHECK_THAT(ErrorOf(std::string(kByV) + kByV),
             Catch::Contains("Cannot add already existing table \"by_v\" to keyspace \"ks\""));
  CHECK(ErrorOf(std::string(kByV) +
                "CREATE MATERIALIZED VIEW IF NOT EXISTS by_v AS SELECT k, c "
                "FROM t" +
                nn + "PRIMARY KEY (k, c);")
            .empty());
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM hits WHERE k IS NOT NULL "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Materialized views are not supported on counter tables"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM nogc WHERE k IS NOT NULL "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Cannot create materialized view 'm' for base table 'nogc' with "
                             "gc_grace_seconds of 0, since this value is used to TTL undelivered "
                             "updates. Setting gc_grace_seconds too low might cause undelivered "
                             "updates to expire before being replayed."));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM t" + nn + "PRIMARY KEY (k, c);"),
             Catch::Contains("Cannot include static column 's' in materialized view 'm'"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, s FROM t" + nn + "PRIMARY KEY (k, c);"),
      Catch::Contains("Cannot include static column 's' in materialized view 'm'"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k AS x, c FROM t" + nn + "PRIMARY KEY (k, c);"),
      Catch::Contains("Cannot use aliases when defining a materialized view (got k AS x)"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, c, writetime(v) FROM t" + nn +
                     "PRIMARY KEY (k, c);"),
             Catch::Contains("Can only select columns by name when defining a materialized view "
                             "(got writetime(v))"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, c, nope FROM t" + nn +
                     "PRIMARY KEY (k, c);"),
             Catch::Contains("Undefined column name nope in table ks.t"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, c FROM t" + nn + "PRIMARY KEY (k, c, v);"),
      Catch::Contains("Unknown column 'v' referenced in PRIMARY KEY for materialized view "
                      "'m'"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, c FROM t" + nn + "PRIMARY KEY (k, c, k);"),
      Catch::Contains("Duplicate column 'k' in PRIMARY KEY clause for materialized view "
                      "'m'"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND l IS "
                     "NOT NULL PRIMARY KEY (l, k);"),
             Catch::Contains("Invalid non-frozen collection type 'list<int>' for PRIMARY KEY "
                             "column 'l'"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND d IS "
                     "NOT NULL PRIMARY KEY (d, k);"),
             Catch::Contains("duration type is not supported for PRIMARY KEY column 'd'"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND a IS "
                     "NOT NULL PRIMARY KEY (a, k) WITH CLUSTERING ORDER BY (a DESC);"),
             Catch::Contains("Clustering key columns must exactly match columns in CLUSTERING "
                             "ORDER BY directive"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND a IS "
                     "NOT NULL PRIMARY KEY (a, k) WITH CLUSTERING ORDER BY (k DESC, k ASC);"),
             Catch::Contains("Duplicate column 'k' in CLUSTERING ORDER BY clause for view 'm'"));
  CHECK_THAT(
      ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT k, c, v FROM t" + nn + "PRIMARY KEY (v, k);"),
      Catch::Contains("Cannot create materialized view 'm' without primary key columns c "
                      "from base table 't'"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND a IS "
                     "NOT NULL AND b IS NOT NULL PRIMARY KEY (a, b, k);"),
             Catch::Contains("Cannot include more than one non-primary key column in materialized "
                             "view primary key (got a, b)"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE a IS NOT NULL "
                     "PRIMARY KEY (a, k);"),
             Catch::Contains("Primary key columns k must be restricted with 'IS NOT NULL' or "
                             "otherwise"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u PRIMARY KEY (a, k);"),
             Catch::Contains("Primary key columns a, k must be restricted with 'IS NOT NULL' or "
                             "otherwise"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND a = 1 "
                     "AND b > 2 PRIMARY KEY (a, k);"),
             Catch::Contains("Non-primary key columns can only be restricted with 'IS NOT NULL' "
                             "(got: a,b restricted illegally)"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND a IS "
                     "NOT NULL PRIMARY KEY (a, k) WITH default_time_to_live = 10;"),
             Catch::Contains("Cannot set default_time_to_live for a materialized view. Data in a "
                             "materialized view always expire at the same time than the "
                             "corresponding data in the parent table."));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k = 'x' AND a IS NOT "
                     "NULL PRIMARY KEY (a, k);"),
             Catch::Contains("Invalid STRING constant (x) for \"k\" of type int"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k = null AND a IS NOT "
                     "NULL PRIMARY KEY (a, k);"),
             Catch::Contains("Invalid null value in condition for column k"));
  CHECK_THAT(ErrorOf(std::string(kByV) + "CREATE MATERIALIZED VIEW m AS SELECT * FROM by_v WHERE "
                                         "v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL "
                                         "PRIMARY KEY (v, k, c);"),
             Catch::Contains("Base table 'by_v' doesn't exist"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW other.m AS SELECT * FROM ks.u WHERE k IS NOT NULL "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Cannot create a materialized view on a table in a different "
                             "keyspace"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW nope.m AS SELECT * FROM u WHERE k IS NOT NULL "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Keyspace 'nope' doesn't exist"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IS NOT NULL AND "
                     "k = 1 PRIMARY KEY (k);"),
             Catch::Contains("k cannot be restricted by a relation if it includes an IS NOT NULL "
                             "clause"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k = 1 AND k = 2 "
                     "PRIMARY KEY (k);"),
             Catch::Contains("k cannot be restricted by more than one relation if it includes an "
                             "Equal"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k IN (1) AND k > 0 "
                     "PRIMARY KEY (k);"),
             Catch::Contains("k cannot be restricted by more than one relation if it includes a "
                             "IN"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k > 0 AND k IS NOT "
                     "NULL PRIMARY KEY (k);"),
             Catch::Contains("Column \"k\" cannot be restricted by both an equality and an "
                             "inequality relation"));
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k > 0 AND k >= 1 "
                     "PRIMARY KEY (k);"),
             Catch::Contains("More than one restriction was found for the start bound on k"));
  CHECK(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE k > 0 AND k <= 9 "
                "PRIMARY KEY (k);")
            .empty());
  CHECK_THAT(ErrorOf("CREATE MATERIALIZED VIEW m AS SELECT * FROM u WHERE token(k) > 0 "
                     "PRIMARY KEY (k);"),
             Catch::Contains("Cannot use token relation when defining a materialized view"));
}

TEST_CASE("DROP and ALTER MATERIALIZED VIEW, with Cassandra's words", "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + kByV +
                                 "ALTER MATERIALIZED VIEW by_v WITH comment = 'hi' AND "
                                 "gc_grace_seconds = 5;\n")
              .ok());
  CHECK(TableOf(catalog, "by_v").options.gc_grace_seconds == 5);
  CHECK(TableOf(catalog, "by_v").options.other.at("comment") == "'hi'");
  std::string ks = "ks";
  REQUIRE(RunScript(catalog, "DROP MATERIALIZED VIEW by_v;", &ks).ok());
  CHECK(catalog.FindTable("ks", "by_v") == nullptr);

  CHECK_THAT(ErrorOf("DROP MATERIALIZED VIEW nope;"),
             Catch::Contains("Materialized view 'ks.nope' doesn't exist"));
  CHECK_THAT(ErrorOf("DROP MATERIALIZED VIEW t;"),
             Catch::Contains("Materialized view 'ks.t' doesn't exist"));
  CHECK(ErrorOf("DROP MATERIALIZED VIEW IF EXISTS nope;").empty());
  CHECK_THAT(ErrorOf("ALTER MATERIALIZED VIEW nope WITH comment = 'x';"),
             Catch::Contains("Materialized view 'ks.nope' doesn't exist"));
  CHECK(ErrorOf("ALTER MATERIALIZED VIEW IF EXISTS nope WITH comment = 'x';").empty());
  CHECK_THAT(
      ErrorOf(std::string(kByV) + "ALTER MATERIALIZED VIEW by_v WITH default_time_to_live = 5;"),
      Catch::Contains("Forbidden default_time_to_live detected for a materialized view."));
  CHECK_THAT(ErrorOf(std::string(kByV) + "ALTER MATERIALIZED VIEW by_v WITH gc_grace_seconds = 0;"),
             Catch::Contains("Cannot alter gc_grace_seconds of a materialized view to 0"));
}

TEST_CASE("table statements on a view or a base with views: Cassandra's refusals",
          "[view_schema]") {
  const std::string v = kByV;
  CHECK_THAT(ErrorOf(v + "DROP TABLE by_v;"),
             Catch::Contains("Cannot use DROP TABLE on a materialized view. Please use DROP "
                             "MATERIALIZED VIEW instead."));
  CHECK_THAT(ErrorOf(v + "DROP TABLE IF EXISTS by_v;"),
             Catch::Contains("Cannot use DROP TABLE on a materialized view."));
  CHECK_THAT(
      ErrorOf(v + "DROP TABLE t;"),
      Catch::Contains("Cannot drop a table when materialized views still depend on it (ks)"));
  CHECK(ErrorOf(v + "DROP MATERIALIZED VIEW by_v; DROP TABLE t;").empty());
  CHECK_THAT(ErrorOf(v + "ALTER TABLE by_v ADD x int;"),
             Catch::Contains("Cannot use ALTER TABLE on a materialized view; use ALTER "
                             "MATERIALIZED VIEW instead"));
  CHECK_THAT(ErrorOf(v + "ALTER TABLE t DROP w;"),
             Catch::Contains("Cannot drop column w on base table t with materialized views"));
  CHECK_THAT(ErrorOf(v + "ALTER TABLE t WITH gc_grace_seconds = 0;"),
             Catch::Contains("Cannot alter gc_grace_seconds of the base table of a materialized "
                             "view to 0"));
  CHECK_THAT(ErrorOf(v + "CREATE INDEX ON by_v (w);"),
             Catch::Contains("Secondary indexes on materialized views aren't supported"));
  CHECK_THAT(ErrorOf(v + "TRUNCATE by_v;"),
             Catch::Contains("Cannot TRUNCATE materialized view directly; must truncate base "
                             "table instead"));
  CHECK(ErrorOf(v + "TRUNCATE t;").empty());
  CHECK_THAT(ErrorOf(v + "CREATE TABLE by_v (k int PRIMARY KEY);"),
             Catch::Contains("already exists"));
}

TEST_CASE("ALTER TABLE ADD reaches SELECT * views only; RENAME reaches every view",
          "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + kByV +
                                 "CREATE MATERIALIZED VIEW all_u AS SELECT * FROM u WHERE k > 0 "
                                 "PRIMARY KEY (k);\n"
                                 "CREATE MATERIALIZED VIEW some_u AS SELECT k, a FROM u WHERE k IS "
                                 "NOT NULL PRIMARY KEY (k);\n"
                                 "ALTER TABLE u ADD (aa int, zz text);\n"
                                 "ALTER TABLE t ADD x int;\n"
                                 "ALTER TABLE u RENAME k TO id;\n")
              .ok());
  CHECK(ColumnsOf(TableOf(catalog, "all_u")) == "id(pk) a aa b d fl l zz");
  CHECK(ColumnsOf(TableOf(catalog, "some_u")) == "id(pk) a");
  CHECK(ColumnsOf(TableOf(catalog, "by_v")) == "v(pk) k(asc) c(desc) w");
  const ViewDef& all = *TableOf(catalog, "all_u").view;
  CHECK(all.where_text == "id > 0");
  CHECK(all.restrictions.at(0).column == "id");
  CHECK(TableOf(catalog, "some_u").view->where_text == "id IS NOT NULL");
}

TEST_CASE("a static column cannot join a base that has a SELECT * view", "[view_schema]") {
  const std::string all_e =
      "CREATE MATERIALIZED VIEW all_e AS SELECT * FROM e WHERE k IS NOT NULL AND c IS NOT NULL "
      "PRIMARY KEY (c, k);\n";
  CHECK_THAT(ErrorOf(all_e + "ALTER TABLE e ADD st int static;"),
             Catch::Contains("cannot add static column st to table e: its materialized view all_e "
                             "selects *"));
  CHECK(ErrorOf(all_e + "ALTER TABLE e ADD x int;").empty());
  CHECK(ErrorOf(std::string(kByV) + "ALTER TABLE t ADD st2 int static;").empty());
}

TEST_CASE("DROP KEYSPACE takes its views with it", "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + kByV + "DROP KEYSPACE ks;").ok());
  CHECK(catalog.FindKeyspace("ks") == nullptr);
}

TEST_CASE("DESCRIBE prints a view in Cassandra's layout after its table and indexes",
          "[view_schema]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog, std::string(kSchema) + kByV +
                                 "CREATE INDEX ON t (w);\n"
                                 "CREATE MATERIALIZED VIEW all_u AS SELECT * FROM u WHERE k IS NOT "
                                 "NULL PRIMARY KEY (k) WITH comment = 'c';\n")
              .ok());
  const KeyspaceDef& ks = *catalog.FindKeyspace("ks");
  CHECK(DescribeView(TableOf(catalog, "by_v")) ==
        "CREATE MATERIALIZED VIEW ks.by_v AS\n"
        "    SELECT v, k, c, w\n"
        "    FROM ks.t\n"
        "    WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL\n"
        "    PRIMARY KEY (v, k, c)\n"
        " WITH CLUSTERING ORDER BY (k ASC, c DESC)\n"
        "    AND gc_grace_seconds = 864000;\n");
  CHECK(DescribeView(TableOf(catalog, "all_u")) ==
        "CREATE MATERIALIZED VIEW ks.all_u AS\n"
        "    SELECT *\n"
        "    FROM ks.u\n"
        "    WHERE k IS NOT NULL\n"
        "    PRIMARY KEY (k)\n"
        " WITH gc_grace_seconds = 864000\n"
        "    AND comment = 'c';\n");
  const std::string text = DescribeKeyspace(ks);
  const size_t table = text.find("CREATE TABLE ks.t ");
  const size_t index = text.find("CREATE INDEX t_w_idx ON ks.t (w);");
  const size_t view = text.find("CREATE MATERIALIZED VIEW ks.by_v AS");
  const size_t next = text.find("CREATE TABLE ks.u ");
  CHECK(table < index);
  CHECK(index < view);
  CHECK(view < next);
  CHECK(text.find("CREATE TABLE ks.by_v") == std::string::npos);

  DescribeStatement describe;
  describe.kind = DescribeStatement::Kind::kView;
  describe.has_name = true;
  describe.name.name = "by_v";
  Result<std::string> one = DescribeOutput(catalog, describe, "ks");
  REQUIRE(one.ok());
  CHECK(one.value() == "\n" + DescribeView(TableOf(catalog, "by_v")));
  describe.name.name = "t";
  CHECK(DescribeOutput(catalog, describe, "ks").status().message() ==
        "Materialized view 't' not found in keyspace 'ks'");
  describe.kind = DescribeStatement::Kind::kTable;
  Result<std::string> base = DescribeOutput(catalog, describe, "ks");
  REQUIRE(base.ok());
  CHECK_THAT(base.value(), Catch::Contains("CREATE MATERIALIZED VIEW ks.by_v AS"));
  describe.name.name = "by_v";
  CHECK(DescribeOutput(catalog, describe, "ks").status().message() ==
        "Table 'by_v' not found in keyspace 'ks'");
}

TEST_CASE("DESCRIBE KEYSPACE text of views loads back to an equal keyspace", "[view_schema]") {
  Catalog catalog;
  Status created = RunScript(
      catalog, std::string(kSchema) + kByV +
                   "CREATE TABLE \"Odd\" (\"K\" int, \"select\" text, v uuid, b blob, "
                   "ts timestamp, PRIMARY KEY (\"K\", \"select\"));\n"
                   "CREATE MATERIALIZED VIEW \"Odd_view\" AS SELECT * FROM \"Odd\" WHERE "
                   "\"K\" IN (1, -2) AND \"select\" > 'a''b' AND \"select\" < $$z$$ AND "
                   "v IS NOT NULL PRIMARY KEY (v, \"select\", \"K\") WITH CLUSTERING ORDER "
                   "BY (\"select\" DESC, \"K\" ASC) AND comment = 'it''s' AND "
                   "gc_grace_seconds = 7;\n"
                   "CREATE MATERIALIZED VIEW by_ts AS SELECT \"K\", \"select\", ts, b FROM "
                   "\"Odd\" WHERE ts IS NOT NULL AND \"select\" IS NOT NULL AND \"K\" = 3 "
                   "PRIMARY KEY (ts, \"K\", \"select\");\n"
                   "CREATE MATERIALIZED VIEW all_u AS SELECT * FROM u WHERE k >= 0 "
                   "PRIMARY KEY (k);\n");
  INFO(created.ToString());
  REQUIRE(created.ok());
  const std::string text = DescribeKeyspace(*catalog.FindKeyspace("ks"));
  INFO(text);
  CHECK_THAT(text, Catch::Contains("\nCREATE MATERIALIZED VIEW ks.\"Odd_view\" AS\n"
                                   "    SELECT *\n"
                                   "    FROM ks.\"Odd\"\n"
                                   "    WHERE \"K\" IN (1, -2) AND \"select\" > 'a''b' AND "
                                   "\"select\" < 'z' AND v IS NOT NULL\n"
                                   "    PRIMARY KEY (v, \"select\", \"K\")\n"
                                   " WITH CLUSTERING ORDER BY (\"select\" DESC, \"K\" ASC)\n"
                                   "    AND gc_grace_seconds = 7\n"
                                   "    AND comment = 'it''s';\n"));
  Catalog reloaded;
  REQUIRE(RunScript(reloaded, text).ok());
  CHECK(SameKeyspace(*reloaded.FindKeyspace("ks"), *catalog.FindKeyspace("ks")));
  CHECK(DescribeKeyspace(*reloaded.FindKeyspace("ks")) == text);
}

}  // namespace
}  // namespace cellfs
