// DESCRIBE statements (parsed, then printed as cqlsh prints them), and
// DROP FUNCTION / AGGREGATE with Cassandra's messages.
#include "engine/cql/describe_statement.h"

#include <catch2/catch.hpp>

#include "engine/cql/describe.h"
#include "tests/engine/cql_parse_support.h"
#include "tests/engine/schema_script.h"

namespace cellfs {
namespace {

using testing::Outline;
using testing::ParseAs;
using testing::RunScript;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "CREATE KEYSPACE zz WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "CREATE TYPE ks.addr (street text);\n"
    "CREATE TABLE ks.users (id int PRIMARY KEY, a frozen<addr>);\n"
    "CREATE TABLE ks.logs (h text, at int, PRIMARY KEY (h, at));\n"
    "CREATE FUNCTION ks.twice (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS "
    "'return 2*a;';\n"
    "CREATE FUNCTION ks.twice (a text) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE java AS "
    "'return a+a;';\n"
    "CREATE AGGREGATE ks.total (int) SFUNC twice STYPE int;\n";

// What `cql` (one DESCRIBE) prints, or "error: <message>".
std::string Describe(const Catalog& catalog, const std::string& cql,
                     const std::string& current = "") {
  Statement statement = testing::ParseOne(cql);
  const auto* describe = std::get_if<DescribeStatement>(&statement.body);
  REQUIRE(describe != nullptr);
  Result<std::string> out = DescribeOutput(catalog, *describe, current);
  return out.ok() ? out.value() : "error: " + out.status().message();
}

Catalog Loaded() {
  Catalog catalog;
  Status status = RunScript(catalog, kSchema);
  INFO(status.ToString());
  REQUIRE(status.ok());
  return catalog;
}

TEST_CASE("DESCRIBE, TRUNCATE, DROP FUNCTION and SELECT parse", "[parser][describe]") {
  CHECK(Outline("DESCRIBE KEYSPACES; desc tables; DESCRIBE TABLE ks.t; DESC ks.t; DESCRIBE "
                "FULL SCHEMA; DESCRIBE KEYSPACE; TRUNCATE t; TRUNCATE TABLE ks.t; "
                "DROP FUNCTION f; DROP AGGREGATE IF EXISTS ks.a (int); SELECT * FROM t;") ==
        std::vector<std::string>{"Describe", "Describe", "Describe", "Describe", "Describe",
                                 "Describe", "TruncateTable", "TruncateTable", "DropRoutine",
                                 "DropRoutine", "Select"});
  auto table = ParseAs<DescribeStatement>("DESCRIBE TABLE ks.\"T\";");
  CHECK(table.kind == DescribeStatement::Kind::kTable);
  CHECK(table.name.keyspace == "ks");
  CHECK(table.name.name == "T");
  auto keyspace = ParseAs<DescribeStatement>("DESC KEYSPACE;");
  CHECK(keyspace.kind == DescribeStatement::Kind::kKeyspace);
  CHECK_FALSE(keyspace.has_name);
  auto full = ParseAs<DescribeStatement>("DESCRIBE FULL SCHEMA");
  CHECK(full.kind == DescribeStatement::Kind::kSchema);
  CHECK(full.full);
  auto drop = ParseAs<DropRoutine>("DROP FUNCTION ks.f (int, frozen<list<text>>)");
  CHECK(drop.arguments_given);
  CHECK(drop.arguments.size() == 2);
  CHECK(ParseAs<DropRoutine>("DROP FUNCTION f ()").arguments_given);
  CHECK_FALSE(ParseAs<DropRoutine>("DROP FUNCTION f").arguments_given);
  CHECK(ParseAs<TruncateTable>("TRUNCATE COLUMNFAMILY ks.t").table.name == "t");
}

TEST_CASE("malformed DESCRIBE, TRUNCATE and DROP FUNCTION fail at the right place",
          "[parser][describe]") {
  CHECK(Outline("DESCRIBE TABLE;") ==
        std::vector<std::string>{"error: line 1:15: expected a name, found ';'"});
  CHECK(Outline("DESCRIBE FULL KEYSPACES;") ==
        std::vector<std::string>{"error: line 1:15: expected SCHEMA, found 'keyspaces'"});
  CHECK(Outline("TRUNCATE;") ==
        std::vector<std::string>{"error: line 1:9: expected table name, found ';'"});
  CHECK(Outline("DROP FUNCTION f (int;") ==
        std::vector<std::string>{"error: line 1:21: expected ')', found ';'"});
  CHECK(Outline("DESCRIBE CLUSTER;") ==
        std::vector<std::string>{"error: line 1:10: DESCRIBE CLUSTER is not supported by cellfs"});
}

TEST_CASE("Columnize lays names out as Python's cmd.Cmd.columnize", "[describe]") {
  CHECK(Columnize({}) == "<empty>\n");
  CHECK(Columnize({"one"}) == "one\n");
  CHECK(Columnize({"a", "bb", "ccc"}) == "a  bb  ccc\n");
  // 8 names of 10 characters: 6 fit in 80 columns? 6*10+5*2 = 70, 7 = 82: so
  // 2 rows of 4 columns, filled down the columns.
  std::vector<std::string> names;
  for (char c = 'a'; c < 'a' + 8; ++c) names.push_back(std::string(10, c));
  CHECK(Columnize(names) ==
        "aaaaaaaaaa  cccccccccc  eeeeeeeeee  gggggggggg\n"
        "bbbbbbbbbb  dddddddddd  ffffffffff  hhhhhhhhhh\n");
  // Shorter names in a column are padded, the last column too.
  CHECK(Columnize({std::string(40, 'x'), std::string(40, 'y'), "z"}, 50) ==
        std::string(40, 'x') + "  z\n" + std::string(40, 'y') + "\n");
}

TEST_CASE("DESCRIBE KEYSPACES, TABLES, TYPES, FUNCTIONS print names as cqlsh does", "[describe]") {
  Catalog catalog = Loaded();
  CHECK(Describe(catalog, "DESCRIBE KEYSPACES") == "\nks  zz\n\n");
  CHECK(Describe(catalog, "DESCRIBE TABLES") == "\nKeyspace ks\n-----------\nlogs  users\n\n");
  CHECK(Describe(catalog, "DESCRIBE TABLES", "ks") == "\nlogs  users\n\n");
  CHECK(Describe(catalog, "DESCRIBE TABLES", "zz") == "");
  CHECK(Describe(catalog, "DESCRIBE TYPES") == "\nKeyspace ks\n-----------\naddr\n\n");
  CHECK(Describe(catalog, "DESCRIBE FUNCTIONS", "ks") == "\ntwice(int)  twice(text)\n\n");
  CHECK(Describe(catalog, "DESCRIBE AGGREGATES", "ks") == "\ntotal(int)\n\n");
  CHECK(Describe(catalog, "DESCRIBE TABLES", "gone") == "error: 'gone' not found in keyspaces");
}

TEST_CASE("DESCRIBE of one object prints its CREATE statement after an empty line", "[describe]") {
  Catalog catalog = Loaded();
  const std::string users = DescribeTable(*catalog.FindTable("ks", "users"));
  CHECK(Describe(catalog, "DESCRIBE TABLE ks.users") == "\n" + users);
  CHECK(Describe(catalog, "DESCRIBE TABLE users", "ks") == "\n" + users);
  CHECK(Describe(catalog, "DESCRIBE ks.users") == "\n" + users);
  CHECK(Describe(catalog, "DESCRIBE users", "ks") == "\n" + users);
  CHECK(Describe(catalog, "DESCRIBE TYPE ks.addr") ==
        "\nCREATE TYPE ks.addr (\n    street text\n);\n");
  CHECK(Describe(catalog, "DESCRIBE AGGREGATE ks.total") ==
        "\nCREATE AGGREGATE ks.total (int) SFUNC twice STYPE int;\n");
  CHECK(Describe(catalog, "DESCRIBE FUNCTION ks.twice") ==
        "\nCREATE FUNCTION ks.twice (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE "
        "java AS 'return 2*a;';\n"
        "\nCREATE FUNCTION ks.twice (a text) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE "
        "java AS 'return a+a;';\n");
  const KeyspaceDef& ks = *catalog.FindKeyspace("ks");
  const std::string keyspace =
      "\n" + DescribeKeyspaceStatement(ks) + "\n" + DescribeType(ks.types.at("addr")) + "\n" +
      ks.routines.at("twice(int)").text + ";\n\n" + ks.routines.at("twice(text)").text + ";\n\n" +
      ks.routines.at("total(int)").text + ";\n\n" +
      DescribeTable(*catalog.FindTable("ks", "logs")) + "\n" + users;
  CHECK(Describe(catalog, "DESCRIBE KEYSPACE ks") == keyspace);
  CHECK(Describe(catalog, "DESCRIBE KEYSPACE", "ks") == keyspace);
  CHECK(Describe(catalog, "DESCRIBE ks") == keyspace);
  CHECK(Describe(catalog, "DESCRIBE ks", "zz") == keyspace);
  const std::string zz = "\n" + DescribeKeyspaceStatement(*catalog.FindKeyspace("zz"));
  CHECK(Describe(catalog, "DESCRIBE SCHEMA") == keyspace + zz);
  CHECK(Describe(catalog, "DESCRIBE FULL SCHEMA") == keyspace + zz);
}

TEST_CASE("DESCRIBE of something missing fails with Cassandra's messages", "[describe]") {
  Catalog catalog = Loaded();
  CHECK(Describe(catalog, "DESCRIBE KEYSPACE nope") == "error: 'nope' not found in keyspaces");
  CHECK(Describe(catalog, "DESCRIBE KEYSPACE") ==
        "error: No keyspace specified and no current keyspace");
  CHECK(Describe(catalog, "DESCRIBE TABLE nope") ==
        "error: No keyspace specified and no current keyspace");
  CHECK(Describe(catalog, "DESCRIBE TABLE ks.nope") ==
        "error: Table 'nope' not found in keyspace 'ks'");
  CHECK(Describe(catalog, "DESCRIBE TABLE nope.t") == "error: 'nope' not found in keyspaces");
  CHECK(Describe(catalog, "DESCRIBE TYPE ks.nope") ==
        "error: User defined type 'nope' not found in 'ks'");
  CHECK(Describe(catalog, "DESCRIBE FUNCTION ks.total") ==
        "error: User defined function 'total' not found in 'ks'");
  CHECK(Describe(catalog, "DESCRIBE AGGREGATE ks.twice") ==
        "error: User defined aggregate 'twice' not found in 'ks'");
  CHECK(Describe(catalog, "DESCRIBE ks.nope") == "error: 'nope' not found in keyspace 'ks'");
  CHECK(Describe(catalog, "DESCRIBE nope") == "error: 'nope' not found in keyspaces");
  CHECK(Describe(catalog, "DESCRIBE nope", "ks") == "error: 'nope' not found in keyspace 'ks'");
}

TEST_CASE("DROP FUNCTION and DROP AGGREGATE follow Cassandra", "[catalog][describe]") {
  Catalog catalog = Loaded();
  auto routines = [&] {
    std::string keys;
    for (const auto& [key, routine] : catalog.FindKeyspace("ks")->routines) keys += key + " ";
    return keys;
  };
  CHECK(RunScript(catalog, "DROP FUNCTION ks.twice;").message() ==
        "line 1:1: 'DROP FUNCTION twice' matches multiple function definitions; specify the "
        "argument types by issuing a statement like 'DROP FUNCTION twice (type, type, ...)'. "
        "You can use cqlsh 'DESCRIBE FUNCTION twice' command to find all overloads");
  CHECK(RunScript(catalog, "DROP FUNCTION ks.twice (bigint);").message() ==
        "line 1:1: Function 'ks.twice(bigint)' doesn't exist");
  CHECK(RunScript(catalog, "DROP FUNCTION ks.nope;").message() ==
        "line 1:1: Function 'ks.nope' doesn't exist");
  CHECK(RunScript(catalog, "DROP FUNCTION nope.f;").message() ==
        "line 1:1: Function 'nope.f' doesn't exist");
  CHECK(RunScript(catalog, "DROP FUNCTION f;").message() ==
        "line 1:1: No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename");
  CHECK(RunScript(catalog, "DROP FUNCTION ks.total (int);").message() ==
        "line 1:1: Function 'ks.total(int)' doesn't exist");  // an aggregate
  CHECK(RunScript(catalog, "DROP AGGREGATE ks.twice (int);").message() ==
        "line 1:1: Aggregate 'ks.twice(int)' doesn't exist");
  CHECK(RunScript(catalog, "DROP FUNCTION ks.twice (frozen<list<int>>);").message() ==
        "line 1:1: Argument 'frozen<list<int>>' cannot be frozen; remove frozen<> modifier "
        "from 'frozen<list<int>>'");
  CHECK(RunScript(catalog,
                  "DROP FUNCTION IF EXISTS ks.nope; DROP FUNCTION IF EXISTS nope.f; "
                  "DROP AGGREGATE IF EXISTS ks.total (text);")
            .ok());
  CHECK(routines() == "total(int) twice(int) twice(text) ");

  REQUIRE(RunScript(catalog, "USE ks; DROP FUNCTION twice (varchar);").ok());  // varchar is text
  CHECK(routines() == "total(int) twice(int) ");
  REQUIRE(RunScript(catalog, "DROP FUNCTION ks.twice; DROP AGGREGATE ks.total;").ok());
  CHECK(routines() == "");
}

}  // namespace
}  // namespace cellfs
