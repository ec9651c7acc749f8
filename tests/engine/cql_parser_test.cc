// Tests for CqlParser's grammar: every DDL statement form and variant, the
// AST it produces, case folding, quoting, comments and statement text.
#include "engine/cql/cql_parser.h"

#include <catch2/catch.hpp>

#include "tests/engine/cql_parse_support.h"

namespace cellfs {
namespace {

using testing::ColumnNames;
using testing::Join;
using testing::KindOf;
using testing::Outline;
using testing::ParseAs;
using testing::ParseOne;
using testing::RenderType;

std::string Entries(const OptionValue& value) {
  std::string out;
  for (const auto& [key, text] : value.entries) {
    if (!out.empty()) out += ", ";
    out += key + "=" + text;
  }
  return out;
}

// ---------------------------------------------------------------- keyspaces

TEST_CASE("CREATE KEYSPACE reads its name and replication map", "[parser]") {
  auto create = ParseAs<CreateKeyspace>(
      "CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor' : 3};");
  CHECK(create.name == "hotel");
  CHECK_FALSE(create.if_not_exists);
  REQUIRE(create.options.size() == 1);
  CHECK(create.options[0].name == "replication");
  CHECK(create.options[0].value.kind == OptionValue::Kind::kMap);
  CHECK(Entries(create.options[0].value) == "class=SimpleStrategy, replication_factor=3");
}

TEST_CASE("CREATE SCHEMA is CREATE KEYSPACE, with IF NOT EXISTS", "[parser]") {
  auto create = ParseAs<CreateKeyspace>(
      "create schema if not exists ks with replication = {'class': 'SimpleStrategy'}");
  CHECK(create.name == "ks");
  CHECK(create.if_not_exists);
}

TEST_CASE("CREATE KEYSPACE takes durable_writes after AND, option names folded", "[parser]") {
  auto create = ParseAs<CreateKeyspace>(
      "CREATE KEYSPACE ks WITH REPLICATION = {'class': 'NetworkTopologyStrategy', 'dc1': 3} "
      "AND DURABLE_WRITES = false;");
  REQUIRE(create.options.size() == 2);
  CHECK(create.options[0].name == "replication");
  CHECK(create.options[1].name == "durable_writes");
  CHECK(create.options[1].value.kind == OptionValue::Kind::kBoolean);
  CHECK(create.options[1].value.text == "false");
}

TEST_CASE("keyspace names fold unless quoted", "[parser]") {
  CHECK(ParseAs<CreateKeyspace>("CREATE KEYSPACE MyKs WITH r = 1").name == "myks");
  CHECK(ParseAs<CreateKeyspace>("CREATE KEYSPACE \"MyKs\" WITH r = 1").name == "MyKs");
}

TEST_CASE("ALTER KEYSPACE takes IF EXISTS and options", "[parser]") {
  SECTION("plain") {
    auto alter = ParseAs<AlterKeyspace>("ALTER KEYSPACE ks WITH durable_writes = true;");
    CHECK(alter.name == "ks");
    CHECK_FALSE(alter.if_exists);
    REQUIRE(alter.options.size() == 1);
    const auto describe =
        std::get<DescribeStatement>(ParseOne("DESCRIBE MATERIALIZED VIEW ks.v").body);
    CHECK(describe.kind == DescribeStatement::Kind::kView);
    CHECK(describe.name.keyspace == "ks");
    CHECK(describe.name.name == "v");
    CHECK(alter.options[0].value.text == "true");
  }
  SECTION("IF EXISTS, SCHEMA synonym") {
    auto alter = ParseAs<AlterKeyspace>(
        "ALTER SCHEMA IF EXISTS ks WITH replication = {'class': 'SimpleStrategy'}");
    CHECK(alter.if_exists);
  }
}

TEST_CASE("DROP KEYSPACE and DROP SCHEMA, with and without IF EXISTS", "[parser]") {
  SECTION("keyspace") {
    auto drop = ParseAs<DropKeyspace>("DROP KEYSPACE ks;");
    CHECK(drop.name == "ks");
    CHECK_FALSE(drop.if_exists);
  }
  SECTION("schema, if exists") {
    auto drop = ParseAs<DropKeyspace>("drop schema IF EXISTS killr_video");
    CHECK(drop.name == "killr_video");
    CHECK(drop.if_exists);
  }
}

TEST_CASE("USE names a keyspace, quoted or not", "[parser]") {
  CHECK(ParseAs<UseKeyspace>("USE Killrvideo;").name == "killrvideo");
  CHECK(ParseAs<UseKeyspace>("use \"Mixed Case\"").name == "Mixed Case");
}

// ------------------------------------------------------------- CREATE TABLE

TEST_CASE("CREATE TABLE with an inline primary key", "[parser]") {
  Statement statement = ParseOne("CREATE TABLE users (id uuid PRIMARY KEY, name text);");
  const auto& create = std::get<CreateTable>(statement.body);
  CHECK(create.table.keyspace.empty());
  CHECK(create.table.name == "users");
  CHECK_FALSE(create.has_primary_key_clause);
  CHECK(create.partition_key.empty());
  REQUIRE(create.columns.size() == 2);
  CHECK(create.columns[0].name == "id");
  CHECK(create.columns[0].type.name == "uuid");
  CHECK(create.columns[0].inline_primary_key);
  CHECK_FALSE(create.columns[1].inline_primary_key);
  CHECK_FALSE(create.compact_storage);
  CHECK(create.options.empty());
}

TEST_CASE("CREATE TABLE names may be keyspace-qualified and quoted", "[parser]") {
  SECTION("qualified") {
    auto create = ParseAs<CreateTable>("CREATE TABLE hotel.Hotels (id text PRIMARY KEY)");
    CHECK(create.table.keyspace == "hotel");
    CHECK(create.table.name == "hotels");
  }
  SECTION("both parts quoted") {
    auto create =
        ParseAs<CreateTable>("CREATE TABLE \"My KS\".\"My \"\"T\"\"\" (a int PRIMARY KEY)");
    CHECK(create.table.keyspace == "My KS");
    CHECK(create.table.name == "My \"T\"");
  }
  SECTION("spaces and comments around the dot") {
    auto create = ParseAs<CreateTable>("CREATE TABLE ks /*x*/ . t (a int PRIMARY KEY)");
    CHECK(create.table.keyspace == "ks");
    CHECK(create.table.name == "t");
  }
  SECTION("position of the name") {
    auto create = ParseAs<CreateTable>("CREATE TABLE\n  ks.t (a int PRIMARY KEY)");
    CHECK(create.table.position.line == 2);
    CHECK(create.table.position.column == 3);
  }
}

TEST_CASE("CREATE TABLE takes IF NOT EXISTS and the COLUMNFAMILY synonym", "[parser]") {
  SECTION("if not exists") {
    auto create = ParseAs<CreateTable>("CREATE TABLE IF NOT EXISTS t (a int PRIMARY KEY)");
    CHECK(create.if_not_exists);
    CHECK(create.table.name == "t");
  }
  SECTION("columnfamily") {
    auto create = ParseAs<CreateTable>("create columnfamily if not exists t (a int primary key)");
    CHECK(create.if_not_exists);
  }
}

TEST_CASE("CREATE TABLE accepts every PRIMARY KEY clause form", "[parser]") {
  struct Case {
    const char* clause;
    const char* partition;
    const char* clustering;
  };
  const Case cases[] = {
      {"PRIMARY KEY (a)", "a", ""},
      {"PRIMARY KEY (a, b, c)", "a", "b,c"},
      {"PRIMARY KEY ((a, b), c)", "a,b", "c"},
      {"PRIMARY KEY ((a))", "a", ""},
      {"PRIMARY KEY (a,)", "a", ""},
      {"PRIMARY KEY ((a), b, c)", "a", "b,c"},
      {"PRIMARY KEY ((a, b))", "a,b", ""},
      {"PRIMARY KEY ((a, b,), c,)", "a,b", "c"},
      {"PRIMARY KEY((a,b),c)", "a,b", "c"},
      {"primary key (\"A b\", c)", "A b", "c"},
  };
  for (const Case& c : cases) {
    const std::string cql =
        std::string("CREATE TABLE t (a int, b int, c int, \"A b\" int, ") + c.clause + ")";
    auto create = ParseAs<CreateTable>(cql);
    INFO(cql);
    CHECK(create.has_primary_key_clause);
    CHECK(Join(create.partition_key) == c.partition);
    CHECK(Join(create.clustering) == c.clustering);
  }
}

TEST_CASE("the PRIMARY KEY clause may come before, between or after the columns", "[parser]") {
  SECTION("first") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (PRIMARY KEY (a, b), a int, b int)");
    CHECK(ColumnNames(create) == "a,b");
    CHECK(Join(create.clustering) == "b");
  }
  SECTION("between") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int, PRIMARY KEY (a, b), b int)");
    CHECK(ColumnNames(create) == "a,b");
  }
  SECTION("its position is the PRIMARY keyword") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int,\n    PRIMARY KEY (a))");
    CHECK(create.primary_key_position.line == 2);
    CHECK(create.primary_key_position.column == 5);
  }
}

TEST_CASE("a trailing comma is accepted in the column list", "[parser]") {
  SECTION("after a column") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int PRIMARY KEY, b text,)");
    CHECK(ColumnNames(create) == "a,b");
  }
  SECTION("after the key clause") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int, PRIMARY KEY (a),\n)");
    CHECK(create.has_primary_key_clause);
  }
}

TEST_CASE("columns may be STATIC, before or after an inline PRIMARY KEY", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (p int, c int, s text STATIC, m map<int, text> static, "
      "x int STATIC PRIMARY KEY, PRIMARY KEY (p, c))");
  REQUIRE(create.columns.size() == 5);
  CHECK_FALSE(create.columns[0].is_static);
  CHECK(create.columns[2].is_static);
  CHECK(create.columns[3].is_static);
  CHECK(create.columns[4].is_static);
  CHECK(create.columns[4].inline_primary_key);
  auto other = ParseAs<CreateTable>("CREATE TABLE t (x int PRIMARY KEY STATIC)");
  CHECK(other.columns[0].is_static);
  CHECK(other.columns[0].inline_primary_key);
}

TEST_CASE("column names fold unless quoted; quoted names keep spaces and quotes", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE Foo (Id int PRIMARY KEY, \"CamelCase\" text, \"with space\" int, "
      "\"say \"\"hi\"\"\" int)");
  CHECK(create.table.name == "foo");
  CHECK(ColumnNames(create) == "id,CamelCase,with space,say \"hi\"");
  CHECK(ParseAs<CreateTable>("CREATE TABLE \"Foo\" (a int PRIMARY KEY)").table.name == "Foo");
}

TEST_CASE("non-reserved keywords and type names serve as column names", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (key int PRIMARY KEY, date date, type text, text text, comment text, "
      "compact int, clustering int, static_x int, ttl int, writetime int, \"select\" int)");
  CHECK(ColumnNames(create) ==
        "key,date,type,text,comment,compact,clustering,static_x,ttl,writetime,select");
  CHECK(RenderType(create.columns[1].type) == "date");
}

TEST_CASE("column and type positions are their first tokens", "[parser]") {
  auto create = ParseAs<CreateTable>("CREATE TABLE t (\n  a int PRIMARY KEY,\n  b frozen<x>)");
  REQUIRE(create.columns.size() == 2);
  CHECK(create.columns[0].position.ToString() == "line 2:3");
  CHECK(create.columns[0].type.position.ToString() == "line 2:5");
  CHECK(create.columns[1].type.position.ToString() == "line 3:5");
}

// -------------------------------------------------------------------- types

TEST_CASE("native type names are read in any case", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (a INT PRIMARY KEY, b VarChar, c TIMESTAMP, d bigint, e Blob, "
      "f timeuuid, g counter, h decimal, i duration)");
  std::string types;
  for (const ColumnExpr& column : create.columns) types += RenderType(column.type) + " ";
  CHECK(types == "int varchar timestamp bigint blob timeuuid counter decimal duration ");
}

TEST_CASE("collection, tuple and frozen types nest to any depth", "[parser]") {
  struct Case {
    const char* written;
    const char* parsed;
  };
  const Case cases[] = {
      {"list<int>", "list<int>"},
      {"SET<TEXT>", "set<text>"},
      {"map<int,blob>", "map<int, blob>"},
      {"tuple<int, text, float>", "tuple<int, text, float>"},
      {"tuple<int>", "tuple<int>"},
      {"frozen<list<int>>", "frozen<list<int>>"},
      {"FROZEN<address>", "frozen<address>"},
      {"set <frozen<video_metadata>>", "set<frozen<video_metadata>>"},
      {"map<text, frozen<address>>", "map<text, frozen<address>>"},
      {"map < text , frozen < list < int > > >", "map<text, frozen<list<int>>>"},
      {"list<frozen<map<int, frozen<set<text>>>>>", "list<frozen<map<int, frozen<set<text>>>>>"},
      {"frozen<tuple<int, tuple<text, blob>>>", "frozen<tuple<int, tuple<text, blob>>>"},
      {"frozen<hotel.address>", "frozen<hotel.address>"},
      {"list<frozen<\"My Type\">>", "list<frozen<My Type>>"},
  };
  for (const Case& c : cases) {
    const std::string cql = std::string("CREATE TABLE t (k int PRIMARY KEY, v ") + c.written + ")";
    auto create = ParseAs<CreateTable>(cql);
    INFO(cql);
    CHECK(RenderType(create.columns[1].type) == c.parsed);
  }
}

TEST_CASE("user type names may be keyspace-qualified and quoted", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (k int PRIMARY KEY, a address, b ks.Address, c \"KS\".\"Addr Ess\")");
  CHECK(create.columns[1].type.name == "address");
  CHECK(create.columns[1].type.keyspace.empty());
  CHECK(create.columns[2].type.keyspace == "ks");
  CHECK(create.columns[2].type.name == "address");
  CHECK(create.columns[3].type.keyspace == "KS");
  CHECK(create.columns[3].type.name == "Addr Ess");
}

TEST_CASE("frozen marks the wrapped type and takes the frozen keyword's position", "[parser]") {
  auto create = ParseAs<CreateTable>("CREATE TABLE t (k int PRIMARY KEY, v frozen<list<int>>)");
  const TypeExpr& type = create.columns[1].type;
  CHECK(type.frozen);
  CHECK(type.name == "list");
  CHECK(type.position.column == 38);
  REQUIRE(type.params.size() == 1);
  CHECK_FALSE(type.params[0].frozen);
  CHECK(type.params[0].position.column == 50);
}

// ---------------------------------------------------------------- options

TEST_CASE("table options take every value kind", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (a int PRIMARY KEY) WITH comment = 'it''s' AND gc_grace_seconds = 864000 "
      "AND crc_check_chance = 0.5 AND x_negative = -3 AND y_negative = -1.5e3 "
      "AND cdc = TRUE AND read_repair = false "
      "AND id = 5a1c395e-b41f-11e5-9f22-ba0be0483c18 AND caching = {'keys': 'ALL'}");
  REQUIRE(create.options.size() == 9);
  const auto& o = create.options;
  CHECK(o[0].value.kind == OptionValue::Kind::kString);
  CHECK(o[0].value.text == "it's");
  CHECK(o[1].value.kind == OptionValue::Kind::kNumber);
  CHECK(o[1].value.text == "864000");
  CHECK(o[2].value.text == "0.5");
  CHECK(o[3].value.text == "-3");
  CHECK(o[4].value.kind == OptionValue::Kind::kNumber);
  CHECK(o[4].value.text == "-1.5e3");
  CHECK(o[5].value.kind == OptionValue::Kind::kBoolean);
  CHECK(o[5].value.text == "true");
  CHECK(o[6].value.text == "false");
  CHECK(o[7].name == "id");
  CHECK(o[7].value.kind == OptionValue::Kind::kNumber);
  CHECK(o[7].value.text == "5a1c395e-b41f-11e5-9f22-ba0be0483c18");
  CHECK(o[8].value.kind == OptionValue::Kind::kMap);
}

TEST_CASE("option maps hold strings, numbers and booleans as text", "[parser]") {
  SECTION("mixed values, trailing comma") {
    auto create = ParseAs<CreateTable>(
        "CREATE TABLE t (a int PRIMARY KEY) WITH compaction = {'class': "
        "'SizeTieredCompactionStrategy', 'min_threshold': 4, 'enabled': true, 'ratio': -0.5,}");
    CHECK(Entries(create.options[0].value) ==
          "class=SizeTieredCompactionStrategy, min_threshold=4, enabled=true, ratio=-0.5");
  }
  SECTION("empty map") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int PRIMARY KEY) WITH caching = {}");
    CHECK(create.options[0].value.kind == OptionValue::Kind::kMap);
    CHECK(create.options[0].value.entries.empty());
  }
  SECTION("value position") {
    auto create = ParseAs<CreateTable>("CREATE TABLE t (a int PRIMARY KEY) WITH x = {'a': 1}");
    CHECK(create.options[0].value.position.column == 45);
  }
}

TEST_CASE("option names are lower-cased, quoted ones too", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (a int PRIMARY KEY) WITH Default_Time_To_Live = 60 AND \"Comment\" = 'x'");
  CHECK(create.options[0].name == "default_time_to_live");
  CHECK(create.options[1].name == "comment");
}

TEST_CASE("CLUSTERING ORDER BY reads directions, ASC when omitted", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE TABLE t (p int, a int, b int, c int, PRIMARY KEY (p, a, b, c)) "
      "WITH CLUSTERING ORDER BY (a DESC, b asc, c)");
  REQUIRE(create.clustering_order.size() == 3);
  CHECK(create.clustering_order[0].column == "a");
  CHECK(create.clustering_order[0].descending);
  CHECK_FALSE(create.clustering_order[1].descending);
  CHECK_FALSE(create.clustering_order[2].descending);
  CHECK(create.clustering_order[0].position.column == 97);
  CHECK(create.options.empty());
}

TEST_CASE("CLUSTERING ORDER, COMPACT STORAGE and options come in any order", "[parser]") {
  SECTION("order, then option") {
    auto create = ParseAs<CreateTable>(
        "CREATE TABLE t (p int, c int, PRIMARY KEY (p, c)) WITH CLUSTERING ORDER BY (c DESC) "
        "AND comment = 'x'");
    CHECK(create.clustering_order.size() == 1);
    CHECK(create.options.size() == 1);
  }
  SECTION("option, compact storage, order") {
    auto create = ParseAs<CreateTable>(
        "CREATE TABLE t (p int, c int, PRIMARY KEY (p, c)) WITH comment = 'x' AND COMPACT "
        "STORAGE AND clustering order by (\"c\" desc)");
    CHECK(create.compact_storage);
    CHECK(create.clustering_order.size() == 1);
    CHECK(create.options.size() == 1);
  }
  SECTION("compact storage alone") {
    CHECK(ParseAs<CreateTable>("CREATE TABLE t (a int PRIMARY KEY) WITH COMPACT STORAGE")
              .compact_storage);
  }
}

// -------------------------------------------------------------- DROP TABLE

TEST_CASE("DROP TABLE and DROP COLUMNFAMILY, qualified, with IF EXISTS", "[parser]") {
  SECTION("plain") {
    auto drop = ParseAs<DropTable>("DROP TABLE t");
    CHECK(drop.table.name == "t");
    CHECK_FALSE(drop.if_exists);
  }
  SECTION("qualified, if exists") {
    auto drop = ParseAs<DropTable>("DROP COLUMNFAMILY IF EXISTS ks.\"T\";");
    CHECK(drop.table.keyspace == "ks");
    CHECK(drop.table.name == "T");
    CHECK(drop.if_exists);
  }
}

// ------------------------------------------------------------- ALTER TABLE

TEST_CASE("ALTER TABLE ADD one column, optionally static or IF NOT EXISTS", "[parser]") {
  SECTION("plain") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t ADD email text");
    CHECK(alter.action == AlterTable::Action::kAdd);
    REQUIRE(alter.added.size() == 1);
    CHECK(alter.added[0].name == "email");
    CHECK(RenderType(alter.added[0].type) == "text");
    CHECK_FALSE(alter.added[0].is_static);
    CHECK_FALSE(alter.if_column_not_exists);
    CHECK(alter.action_position.column == 15);
  }
  SECTION("static, if not exists") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE ks.t ADD IF NOT EXISTS s set<int> STATIC;");
    CHECK(alter.table.keyspace == "ks");
    CHECK(alter.if_column_not_exists);
    CHECK(alter.added[0].is_static);
    CHECK(RenderType(alter.added[0].type) == "set<int>");
  }
}

TEST_CASE("ALTER TABLE ADD a parenthesised column list with a trailing comma", "[parser]") {
  auto alter =
      ParseAs<AlterTable>("ALTER TABLE t ADD (a int, b map<int, text> static, \"C\" blob,)");
  REQUIRE(alter.added.size() == 3);
  CHECK(alter.added[1].is_static);
  CHECK(alter.added[2].name == "C");
}

TEST_CASE("ALTER TABLE DROP one column or a list, with IF EXISTS", "[parser]") {
  SECTION("one") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t DROP email");
    CHECK(alter.action == AlterTable::Action::kDrop);
    CHECK(Join(alter.dropped) == "email");
    CHECK_FALSE(alter.if_column_exists);
  }
  SECTION("list") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t DROP (a, \"B\")");
    CHECK(Join(alter.dropped) == "a,B");
  }
  SECTION("if exists") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t DROP IF EXISTS a");
    CHECK(alter.if_column_exists);
    CHECK(Join(alter.dropped) == "a");
  }
  SECTION("a column named compact") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t DROP compact;");
    CHECK(Join(alter.dropped) == "compact");
  }
}

TEST_CASE("ALTER TABLE RENAME one or several columns", "[parser]") {
  SECTION("one") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t RENAME a TO b");
    CHECK(alter.action == AlterTable::Action::kRename);
    REQUIRE(alter.renamed.size() == 1);
    CHECK(alter.renamed[0].first == "a");
    CHECK(alter.renamed[0].second == "b");
  }
  SECTION("several, if exists") {
    auto alter = ParseAs<AlterTable>("ALTER TABLE t RENAME IF EXISTS a TO \"B\" AND c TO d");
    CHECK(alter.if_column_exists);
    REQUIRE(alter.renamed.size() == 2);
    CHECK(alter.renamed[0].second == "B");
    CHECK(alter.renamed[1].first == "c");
  }
}

TEST_CASE("ALTER TABLE WITH options, and IF EXISTS on the table", "[parser]") {
  auto alter = ParseAs<AlterTable>(
      "ALTER TABLE IF EXISTS ks.t WITH comment = 'c' AND default_time_to_live = 10");
  CHECK(alter.if_exists);
  CHECK(alter.action == AlterTable::Action::kWith);
  REQUIRE(alter.options.size() == 2);
  CHECK(alter.options[1].value.text == "10");
}

TEST_CASE("ALTER TABLE forms cellfs does not implement are unsupported statements", "[parser]") {
  CHECK(Outline("ALTER TABLE t ALTER a TYPE blob; DROP TABLE t") ==
        std::vector<std::string>{"Unsupported(ALTER TABLE ... ALTER TYPE)", "DropTable"});
  CHECK(Outline("ALTER TABLE t DROP COMPACT STORAGE; DROP TABLE t") ==
        std::vector<std::string>{"Unsupported(ALTER TABLE ... DROP COMPACT STORAGE)", "DropTable"});
}

// ------------------------------------------------------------------ types

TEST_CASE("CREATE TYPE reads its fields in order", "[parser]") {
  auto create = ParseAs<CreateType>(
      "CREATE TYPE IF NOT EXISTS hotel.Address (street text, \"Zip\" int, tags set<text>,)");
  CHECK(create.if_not_exists);
  CHECK(create.type.keyspace == "hotel");
  CHECK(create.type.name == "address");
  REQUIRE(create.fields.size() == 3);
  CHECK(create.fields[1].first == "Zip");
  CHECK(RenderType(create.fields[2].second) == "set<text>");
  CHECK_FALSE(ParseAs<CreateType>("CREATE TYPE a (x int)").if_not_exists);
}

TEST_CASE("DROP TYPE, qualified, with IF EXISTS", "[parser]") {
  auto drop = ParseAs<DropType>("DROP TYPE IF EXISTS ks.address");
  CHECK(drop.if_exists);
  CHECK(drop.type.keyspace == "ks");
  CHECK(drop.type.name == "address");
  CHECK_FALSE(ParseAs<DropType>("DROP TYPE a").if_exists);
}

TEST_CASE("ALTER TYPE is an unsupported statement", "[parser]") {
  CHECK(Outline("ALTER TYPE a ADD f int; ALTER TYPE a RENAME f TO g") ==
        std::vector<std::string>{"Unsupported(ALTER TYPE)", "Unsupported(ALTER TYPE)"});
}

// --------------------------------------------------- functions, aggregates

TEST_CASE("CREATE FUNCTION keeps its text; ';' inside the body does not end it", "[parser]") {
  const char* cql =
      "CREATE OR REPLACE FUNCTION ks.avg_rating (c counter, t counter)\n"
      "CALLED ON NULL INPUT RETURNS double LANGUAGE java\n"
      "AS 'return Double.valueOf(t.doubleValue()/c.doubleValue());';\n"
      "DROP TABLE x;";
  CqlParser parser(cql);
  Statement statement;
  bool done = false;
  REQUIRE(parser.Next(&statement, &done).ok());
  REQUIRE(std::holds_alternative<CreateRoutine>(statement.body));
  const auto& routine = std::get<CreateRoutine>(statement.body);
  CHECK(routine.kind == CreateRoutine::Kind::kFunction);
  CHECK(routine.or_replace);
  CHECK_FALSE(routine.if_not_exists);
  CHECK(routine.routine.keyspace == "ks");
  CHECK(routine.routine.name == "avg_rating");
  CHECK(routine.text == std::string_view(cql).substr(0, std::string_view(cql).find(";';") + 2));
  CHECK(routine.text == statement.text);
  REQUIRE(parser.Next(&statement, &done).ok());
  CHECK(KindOf(statement) == "DropTable");
}

TEST_CASE("CREATE FUNCTION with a $$ body holding quotes and semicolons", "[parser]") {
  auto routine = ParseAs<CreateRoutine>(
      "CREATE FUNCTION IF NOT EXISTS f (a int) RETURNS NULL ON NULL INPUT RETURNS int "
      "LANGUAGE java AS $$ String s = \"x;\"; return 'y'; $$;");
  CHECK(routine.if_not_exists);
  CHECK_FALSE(routine.or_replace);
  CHECK(routine.routine.name == "f");
  CHECK(routine.text.substr(routine.text.size() - 2) == "$$");
}

TEST_CASE("CREATE AGGREGATE is a routine of its own kind", "[parser]") {
  auto routine = ParseAs<CreateRoutine>(
      "CREATE OR REPLACE AGGREGATE ks.average(int) SFUNC avg_state STYPE tuple<int, bigint> "
      "FINALFUNC avg_final INITCOND (0, 0);");
  CHECK(routine.kind == CreateRoutine::Kind::kAggregate);
  CHECK(routine.or_replace);
  CHECK(routine.routine.name == "average");
}

// ------------------------------------------------- unsupported statements

TEST_CASE("CREATE INDEX parses names, targets, classes and options", "[parser]") {
  auto parse = [](const std::string& cql) {
    CqlParser parser(cql);
    Statement statement;
    bool done = false;
    Status s = parser.Next(&statement, &done);
    INFO(s.ToString());
    REQUIRE(s.ok());
    REQUIRE(std::holds_alternative<CreateIndex>(statement.body));
    return std::get<CreateIndex>(statement.body);
  };
  CreateIndex entries = parse("CREATE INDEX tags_idx ON videos(ENTRIES(tags))");
  CHECK(entries.index.name == "tags_idx");
  CHECK(entries.table.name == "videos");
  REQUIRE(entries.targets.size() == 1);
  CHECK(entries.targets[0].kind == IndexTargetKind::kEntries);
  CHECK(entries.targets[0].column == "tags");
  CHECK_FALSE(entries.custom);

  CreateIndex unnamed = parse("CREATE INDEX IF NOT EXISTS ON ks.t (v)");
  CHECK(unnamed.if_not_exists);
  CHECK(unnamed.index.name.empty());
  CHECK(unnamed.table.keyspace == "ks");
  CHECK(unnamed.targets[0].kind == IndexTargetKind::kSimple);

  CreateIndex sasi = parse(
      "CREATE CUSTOM INDEX ON users (firstname) USING 'org.x.SASIIndex' WITH OPTIONS = "
      "{'mode': 'CONTAINS;', 'case_sensitive': 'false'}");
  CHECK(sasi.custom);
  CHECK(sasi.using_class == "org.x.SASIIndex");
  REQUIRE(sasi.options.size() == 2);
  CHECK(sasi.options[0] == std::pair<std::string, std::string>{"mode", "CONTAINS;"});

  CreateIndex keys = parse("CREATE INDEX ON t (keys(m))");
  CHECK(keys.targets[0].kind == IndexTargetKind::kKeys);
  CreateIndex full = parse("CREATE INDEX ON t (FULL(l))");
  CHECK(full.targets[0].kind == IndexTargetKind::kFull);
  CreateIndex column_named_keys = parse("CREATE INDEX ON t (keys)");
  CHECK(column_named_keys.targets[0].kind == IndexTargetKind::kSimple);
  CHECK(column_named_keys.targets[0].column == "keys");
  CreateIndex sai = parse("CREATE INDEX ON t (v) USING 'sai'");
  CHECK_FALSE(sai.custom);
  CHECK(sai.using_class == "sai");
}

TEST_CASE("CREATE MATERIALIZED VIEW parses its selection, relations, key and options", "[parser]") {
  Statement statement = ParseOne(
      "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS SELECT a, \"B\", c AS x, ttl(d) FROM ks.t "
      "WHERE a IS NOT NULL AND b IN (1, 2) AND c >= 'x' AND d < 3 "
      "PRIMARY KEY ((a, b), c) WITH CLUSTERING ORDER BY (c DESC) AND comment = 'z'");
  const auto* view = std::get_if<CreateView>(&statement.body);
  REQUIRE(view != nullptr);
  CHECK(view->if_not_exists);
  CHECK(view->view.keyspace == "ks");
  CHECK(view->view.name == "v");
  CHECK(view->base.name == "t");
  CHECK_FALSE(view->select_all);
  REQUIRE(view->selected.size() == 4);
  CHECK(view->selected[1].name == "B");
  CHECK(view->selected[2].alias == "x");
  CHECK(view->written == std::vector<std::string>{"a", "\"B\"", "c AS x", "ttl(d)"});
  REQUIRE(view->where.size() == 4);
  CHECK(view->where[0].is_not_null);
  CHECK(view->where[1].relation.op == Relation::Op::kIn);
  CHECK(view->where[1].relation.in_values.size() == 2);
  CHECK(view->where[2].relation.op == Relation::Op::kGe);
  CHECK(view->where[2].relation.value.text == "'x'");
  CHECK(view->where[3].relation.op == Relation::Op::kLt);
  CHECK(view->layout.partition_key == std::vector<std::string>{"a", "b"});
  CHECK(view->layout.clustering == std::vector<std::string>{"c"});
  REQUIRE(view->layout.clustering_order.size() == 1);
  CHECK(view->layout.clustering_order[0].descending);
  REQUIRE(view->layout.options.size() == 1);
  CHECK(view->layout.options[0].name == "comment");

  CHECK(std::get<CreateView>(ParseOne("CREATE MATERIALIZED VIEW v AS SELECT * FROM t "
                                      "PRIMARY KEY (a)")
                                 .body)
            .select_all);
  const auto drop = std::get<DropView>(ParseOne("DROP MATERIALIZED VIEW IF EXISTS ks.v").body);
  CHECK(drop.if_exists);
  CHECK(drop.view.keyspace == "ks");
  const auto alter =
      std::get<AlterView>(ParseOne("ALTER MATERIALIZED VIEW v WITH comment = 'x'").body);
  CHECK(alter.view.name == "v");
  REQUIRE(alter.options.size() == 1);
  const auto describe =
      std::get<DescribeStatement>(ParseOne("DESCRIBE MATERIALIZED VIEW ks.v").body);
  CHECK(describe.kind == DescribeStatement::Kind::kView);
  CHECK(describe.name.keyspace == "ks");
  CHECK(describe.name.name == "v");
  CHECK(Outline("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE token(a) > 0 PRIMARY KEY "
                "(a); DROP TABLE after;") ==
        std::vector<std::string>{"error: line 1:53: Cannot use token relation when defining a "
                                 "materialized view",
                                 "DropTable"});
  CHECK(Outline("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL; DROP TABLE "
                "after;") ==
        std::vector<std::string>{"error: line 1:66: expected PRIMARY KEY, found ';'", "DropTable"});
}

TEST_CASE("trigger DDL is consumed as unsupported statements", "[parser]") {
  struct Case {
    const char* cql;
    const char* what;
  };
  const Case cases[] = {
      {"CREATE TRIGGER tr ON t USING 'org.x.Trigger'", "CREATE TRIGGER"},
      {"DROP TRIGGER tr ON t", "DROP TRIGGER"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    const std::string script = std::string(c.cql) + "; DROP TABLE after;";
    CHECK(Outline(script) ==
          std::vector<std::string>{std::string("Unsupported(") + c.what + ")", "DropTable"});
  }
}

// ------------------------------------------------- statement text, position

TEST_CASE("a statement's position is its first token, after comments", "[parser]") {
  Statement statement = ParseOne("-- intro\n/* block */\n   DROP TABLE t;");
  CHECK(statement.position.line == 3);
  CHECK(statement.position.column == 4);
  CHECK(statement.position.offset == 24);
}

TEST_CASE("a statement's text is its exact source without the ';'", "[parser]") {
  SECTION("inner comments and newlines are kept") {
    Statement statement =
        ParseOne("  CREATE TABLE t (\n  a int PRIMARY KEY -- the key\n) /* c */ WITH x = 1  ;  ");
    CHECK(statement.text ==
          "CREATE TABLE t (\n  a int PRIMARY KEY -- the key\n) /* c */ WITH x = 1");
  }
  SECTION("a comment before the ';' is not part of it") {
    CHECK(ParseOne("DROP TABLE t /* why */ ;").text == "DROP TABLE t");
  }
  SECTION("the last statement may omit the ';'") {
    CHECK(ParseOne("DROP TABLE t  \n").text == "DROP TABLE t");
  }
  SECTION("ends with a string") { CHECK(ParseOne("USE \"a;b\"").text == "USE \"a;b\""); }
}

TEST_CASE("empty statements are skipped", "[parser]") {
  CHECK(Outline(";;  ; -- nothing\n;") == std::vector<std::string>{});
  CHECK(Outline(";;DROP TABLE a;;;DROP TABLE b;;") ==
        std::vector<std::string>{"DropTable", "DropTable"});
  CHECK(Outline("") == std::vector<std::string>{});
}

TEST_CASE("after the end, Next keeps reporting done and leaves the statement alone", "[parser]") {
  CqlParser parser("USE ks;");
  Statement statement;
  bool done = false;
  REQUIRE(parser.Next(&statement, &done).ok());
  REQUIRE_FALSE(done);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(parser.Next(&statement, &done).ok());
    CHECK(done);
    CHECK(KindOf(statement) == "UseKeyspace");
    CHECK(statement.text == "USE ks");
  }
}

TEST_CASE("comments may appear between any two tokens", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "CREATE/*1*/TABLE -- 2\n IF // 3\n NOT /* 4 */ EXISTS ks/**/./**/t /*(*/ ( a /*,*/ "
      "map</*<*/text, --x>\n frozen<list<int>/*>*/>> /* ) */ , PRIMARY /**/ KEY ((a)), ) "
      "/*WITH*/ WITH /* x */ comment /* = */ = /* ' */ 'c' -- end\n;");
  CHECK(create.if_not_exists);
  CHECK(create.table.keyspace == "ks");
  CHECK(RenderType(create.columns[0].type) == "map<text, frozen<list<int>>>");
  CHECK(Join(create.partition_key) == "a");
  CHECK(create.options[0].value.text == "c");
}

TEST_CASE("keywords are case-insensitive everywhere", "[parser]") {
  auto create = ParseAs<CreateTable>(
      "cReAtE tAbLe If NoT eXiStS t (a InT, b TeXt, PrImArY kEy (a, b)) WiTh ClUsTeRiNg "
      "OrDeR bY (b DeSc) aNd CoMmEnT = 'x'");
  CHECK(create.if_not_exists);
  CHECK(create.clustering_order[0].descending);
  CHECK(create.options[0].name == "comment");
}

TEST_CASE("a multi-statement script parses in order", "[parser]") {
  CHECK(Outline("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'};\n"
                "USE ks;\n"
                "CREATE TYPE a (x int);\n"
                "CREATE TABLE t (k int PRIMARY KEY, v frozen<a>);\n"
                "ALTER TABLE t ADD w text;\n"
                "DROP TABLE t;\n"
                "DROP TYPE a;\n"
                "ALTER KEYSPACE ks WITH durable_writes = false;\n"
                "DROP KEYSPACE ks") ==
        std::vector<std::string>{"CreateKeyspace", "UseKeyspace", "CreateType", "CreateTable",
                                 "AlterTable", "DropTable", "DropType", "AlterKeyspace",
                                 "DropKeyspace"});
}

}  // namespace
}  // namespace cellfs
