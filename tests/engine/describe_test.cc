// DESCRIBE: canonical CREATE text that parses back to the same schema.
#include "engine/cql/describe.h"

#include <catch2/catch.hpp>

#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

using testing::RunScript;

// Applies DescribeKeyspace(original) to a fresh catalog and checks that the
// keyspace comes back identical and describes identically.
void CheckRoundTrip(const KeyspaceDef& original) {
  const std::string text = DescribeKeyspace(original);
  INFO(text);
  Catalog copy;
  Status status = RunScript(copy, text);
  REQUIRE(status.ok());
  const KeyspaceDef* again = copy.FindKeyspace(original.name);
  REQUIRE(again != nullptr);
  CHECK(SameKeyspace(original, *again));
  CHECK(DescribeKeyspace(*again) == text);
}

TEST_CASE("a table describes in canonical form", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "create keyspace Logs with REPLICATION = {'replication_factor': 3, 'class': "
                    "'SimpleStrategy'};\n"
                    "CREATE TABLE logs.by_host (\n"
                    "  msg text, host text, day int, at timestamp, who text,\n"
                    "  origin text static,\n"
                    "  PRIMARY KEY ((host, day), at, who)\n"
                    ") WITH CLUSTERING ORDER BY (at DESC) AND comment = 'q1' AND "
                    "default_time_to_live = 86400;")
              .ok());
  CHECK(DescribeTable(*catalog.FindTable("logs", "by_host")) ==
        "CREATE TABLE logs.by_host (\n"
        "    host text,\n"
        "    day int,\n"
        "    at timestamp,\n"
        "    who text,\n"
        "    msg text,\n"
        "    origin text static,\n"
        "    PRIMARY KEY ((host, day), at, who)\n"
        ") WITH CLUSTERING ORDER BY (at DESC, who ASC)\n"
        "    AND default_time_to_live = 86400\n"
        "    AND gc_grace_seconds = 864000\n"
        "    AND comment = 'q1';\n");
  CHECK(DescribeKeyspaceStatement(*catalog.FindKeyspace("logs")) ==
        "CREATE KEYSPACE logs WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': '3'} AND durable_writes = true;\n");
}

TEST_CASE("a table without clustering columns has a single-column key clause", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'};"
                    "CREATE TABLE k.users (email text PRIMARY KEY, name text);")
              .ok());
  CHECK(DescribeTable(*catalog.FindTable("k", "users")) ==
        "CREATE TABLE k.users (\n"
        "    email text,\n"
        "    name text,\n"
        "    PRIMARY KEY (email)\n"
        ") WITH default_time_to_live = 0\n"
        "    AND gc_grace_seconds = 864000;\n");
}

TEST_CASE("quoted identifiers and reserved words are quoted when described", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'};"
                    "CREATE TABLE k.t (\"Key\" int PRIMARY KEY, \"select\" text, \"a\"\"b\" int);")
              .ok());
  const std::string text = DescribeTable(*catalog.FindTable("k", "t"));
  CHECK_THAT(text, Catch::Contains("\"Key\" int,"));
  CHECK_THAT(text, Catch::Contains("\"select\" text,"));
  CHECK_THAT(text, Catch::Contains("\"a\"\"b\" int,"));
  CheckRoundTrip(*catalog.FindKeyspace("k"));
}

TEST_CASE("a keyspace with types, tables, options and functions round-trips", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', "
                    "'dc1': 3, 'dc2': 2} AND durable_writes = false;\n"
                    "USE k;\n"
                    "CREATE TYPE address (street text, zip int, tags set<text>);\n"
                    "CREATE TYPE person (name text, home frozen<address>);\n"
                    "CREATE TABLE people (id uuid, at timeuuid, who frozen<person>, "
                    "  hist list<frozen<tuple<int, text>>>, m map<text, frozen<list<int>>>,"
                    "  d duration, s text static, PRIMARY KEY (id, at))"
                    "  WITH CLUSTERING ORDER BY (at DESC) AND gc_grace_seconds = 0"
                    "  AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}"
                    "  AND bloom_filter_fp_chance = 0.01 AND speculative_retry = '99p';\n"
                    "CREATE TABLE hits (page text PRIMARY KEY, n counter);\n"
                    "CREATE TABLE keyed (a frozen<set<int>>, b tuple<int, frozen<address>>, "
                    "  c decimal, PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY (c DESC);\n"
                    "CREATE FUNCTION plus (a int, b int) CALLED ON NULL INPUT RETURNS int "
                    "LANGUAGE java AS 'return a + b;';\n")
              .ok());
  CheckRoundTrip(*catalog.FindKeyspace("k"));
}

TEST_CASE("types are described in creation order so dependencies come first", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'};"
                    "CREATE TYPE k.zeta (a int); CREATE TYPE k.alpha (z frozen<zeta>);")
              .ok());
  const std::string text = DescribeKeyspace(*catalog.FindKeyspace("k"));
  CHECK(text.find("CREATE TYPE k.zeta") < text.find("CREATE TYPE k.alpha"));
  CHECK(DescribeType(catalog.FindKeyspace("k")->types.at("alpha")) ==
        "CREATE TYPE k.alpha (\n    z frozen<zeta>\n);\n");
}

TEST_CASE("altered tables describe their new shape", "[describe]") {
  Catalog catalog;
  REQUIRE(RunScript(catalog,
                    "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'}; USE k;"
                    "CREATE TABLE t (p int, c int, v int, PRIMARY KEY (p, c));"
                    "ALTER TABLE t ADD (a text, s int static); ALTER TABLE t DROP v;"
                    "ALTER TABLE t RENAME c TO cc; ALTER TABLE t WITH comment = 'x';")
              .ok());
  CHECK(DescribeTable(*catalog.FindTable("k", "t")) ==
        "CREATE TABLE k.t (\n"
        "    p int,\n"
        "    cc int,\n"
        "    a text,\n"
        "    s int static,\n"
        "    PRIMARY KEY (p, cc)\n"
        ") WITH CLUSTERING ORDER BY (cc ASC)\n"
        "    AND default_time_to_live = 0\n"
        "    AND gc_grace_seconds = 864000\n"
        "    AND comment = 'x';\n");
  CheckRoundTrip(*catalog.FindKeyspace("k"));
}

}  // namespace
}  // namespace cellfs
