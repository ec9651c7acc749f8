// Tests for CqlParser's failure paths and streaming: exact error messages
// and positions, recovery at ';', CompleteStatementsLength, robustness on
// random input, and the real schema files in tests/data/cql end to end.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "tests/engine/cql_parse_support.h"

namespace cellfs {
namespace {

using testing::ErrorMessage;
using testing::FirstError;
using testing::KindOf;
using testing::Outline;

using Lines = std::vector<std::string>;

// ------------------------------------------------------ syntax error texts

TEST_CASE("syntax errors name the position, what was expected and what was found",
          "[parser][errors]") {
  struct Case {
    const char* cql;
    const char* message;
  };
  const Case cases[] = {
      {"CREATE TABLE t (a)", "line 1:18: expected a type, found ')'"},
      {"CREATE TABLE t (a int PRIMARY KEY", "line 1:34: expected ',' or ')', found end of input"},
      {"CREATE TABLE t a int", "line 1:16: expected '(', found 'a'"},
      {"CREATE TABLE t ()", "line 1:17: expected column definition, found ')'"},
      {"CREATE TABLE t (a int, PRIMARY KEY ())",
       "line 1:37: expected primary key column name, found ')'"},
      {"CREATE TABLE t (a int, PRIMARY KEY (()))",
       "line 1:38: expected partition key column name, found ')'"},
      {"CREATE TABLE t (a int, PRIMARY (a))", "line 1:32: expected KEY, found '('"},
      {"CREATE TABLE t (a int static static)", "line 1:30: expected ',' or ')', found 'static'"},
      {"CREATE TABLE t (a map<int>)", "line 1:26: expected ',', found '>'"},
      {"CREATE TABLE t (a list<int, int>)", "line 1:27: expected '>', found ','"},
      {"CREATE TABLE t (a list)", "line 1:23: expected '<' after list, found ')'"},
      {"CREATE TABLE t (a frozen<>)", "line 1:26: expected a type, found '>'"},
      {"CREATE TABLE t (a ks.)", "line 1:22: expected a type name, found ')'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH",
       "line 1:40: expected an option name, found end "
       "of input"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = y",
       "line 1:45: expected an option value (a string, number, boolean or map), found 'y'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x 1", "line 1:43: expected '=', found '1'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = 1 y = 2",
       "line 1:47: expected AND or ';', found 'y'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = {'a' 1}", "line 1:50: expected ':', found '1'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = {'a': 1 'b': 2}",
       "line 1:53: expected ',' or '}', found string 'b'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = {a: 1}",
       "line 1:46: expected a map key, found 'a'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH x = {'a': b}",
       "line 1:51: expected a map value, found 'b'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH CLUSTERING BY (a)",
       "line 1:52: expected ORDER, found reserved keyword 'by'"},
      {"CREATE TABLE t (a int PRIMARY KEY) WITH COMPACT",
       "line 1:48: expected STORAGE, found "
       "end of input"},
      {"CREATE KEYSPACE k", "line 1:18: expected WITH, found end of input"},
      {"CREATE KEYSPACE IF EXISTS k WITH r = 1", "line 1:20: expected NOT, found 'exists'"},
      {"DROP TABLE IF NOT EXISTS t", "line 1:15: expected EXISTS, found reserved keyword 'not'"},
      {"DROP TABLE t extra", "line 1:14: expected ';', found 'extra'"},
      {"CREATE FOO",
       "line 1:8: expected KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, "
       "FUNCTION or AGGREGATE, found 'foo'"},
      {"DROP",
       "line 1:5: expected KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION or "
       "AGGREGATE, found end of input"},
      {"ALTER VIEW v",
       "line 1:7: expected KEYSPACE, TABLE, TYPE or MATERIALIZED VIEW, found "
       "reserved keyword 'view'"},
      {"ALTER TABLE t FOO", "line 1:15: expected ADD, DROP, RENAME, WITH or ALTER, found 'foo'"},
      {"ALTER TABLE t RENAME a b", "line 1:24: expected TO, found 'b'"},
      {"ALTER TABLE t ADD a int PRIMARY KEY",
       "line 1:25: expected ';', found reserved keyword "
       "'primary'"},
      {"CREATE TYPE a ()", "line 1:16: expected field name, found ')'"},
      {"CREATE MATERIALIZED v AS SELECT", "line 1:21: expected VIEW, found 'v'"},
      {"CREATE OR FUNCTION f", "line 1:11: expected REPLACE, found 'function'"},
      {"CREATE OR REPLACE TABLE t",
       "line 1:19: expected FUNCTION or AGGREGATE, found reserved "
       "keyword 'table'"},
      {"CREATE FUNCTION f RETURNS int", "line 1:19: expected '(', found 'returns'"},
      {"USE", "line 1:4: expected keyspace name, found end of input"},
      {"42;", "line 1:1: expected a statement, found '42'"},
      {"(", "line 1:1: expected a statement, found '('"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    Status status = FirstError(c.cql);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK(status.message() == c.message);
  }
}

TEST_CASE("a reserved keyword cannot be an unquoted name, but may be a quoted one",
          "[parser][errors]") {
  CHECK(ErrorMessage("CREATE TABLE t (from int PRIMARY KEY)") ==
        "line 1:17: expected column name, found reserved keyword 'from'");
  CHECK(ErrorMessage("CREATE TABLE select (a int PRIMARY KEY)") ==
        "line 1:14: expected table name, found reserved keyword 'select'");
  CHECK(ErrorMessage("CREATE KEYSPACE table WITH r = 1") ==
        "line 1:17: expected keyspace name, found reserved keyword 'table'");
  CHECK(ErrorMessage("CREATE TYPE t (a int, to text)") ==
        "line 1:23: expected field name, found reserved keyword 'to'");
  CHECK(Outline("CREATE TABLE \"select\" (\"from\" int PRIMARY KEY)") == Lines{"CreateTable"});
}

TEST_CASE("error positions count lines and columns across a multi-line script",
          "[parser][errors]") {
  const char* script =
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'};\n"
      "\n"
      "CREATE TABLE ks.t (\n"
      "    id int PRIMARY KEY,\n"
      "    /* a comment */ value tetx<int>\n"
      ");\n";
  CHECK(Outline(script) == Lines{"CreateKeyspace",
                                 "error: line 5:31: expected ',' or ')', "
                                 "found '<'"});
}

TEST_CASE("a token's column is counted in bytes, after multi-byte characters", "[parser][errors]") {
  // 'é' is two bytes in UTF-8, so the column after it is one more than a
  // character count would say.
  CHECK(ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH c = '\xc3\xa9' x") ==
        "line 1:50: expected AND or ';', found 'x'");
}

// ------------------------------------------------------- not DDL, custom

TEST_CASE(
    "statements that are neither DDL nor INSERT/UPDATE/DELETE/BATCH/SELECT are refused as not "
    "supported",
    "[parser][errors]") {
  struct Case {
    const char* cql;
    const char* message;
  };
  const Case cases[] = {
      {"GRANT SELECT ON ks.t TO r",
       "line 1:1: unsupported statement GRANT: cellfs has no roles or permissions"},
      {"SELECT * FROM t GROUP BY k", "line 1:17: GROUP BY is not supported by cellfs"},
      {"CREATE ROLE r",
       "line 1:1: unsupported statement CREATE ROLE: cellfs has no roles or permissions"},
      {"create user u",
       "line 1:1: unsupported statement CREATE USER: cellfs has no roles or permissions"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    Status status = FirstError(c.cql);
    CHECK(status.code() == StatusCode::kNotSupported);
    CHECK(status.message() == c.message);
  }
}

TEST_CASE("a custom type given as a class-name string is refused clearly", "[parser][errors]") {
  Status status = FirstError(
      "CREATE TABLE t (k int PRIMARY KEY, v 'org.apache.cassandra.db.marshal.UTF8Type')");
  CHECK(status.code() == StatusCode::kNotSupported);
  CHECK(status.message() ==
        "line 1:38: unsupported custom type 'org.apache.cassandra.db.marshal.UTF8Type': use a "
        "native, collection or user type");
  CHECK(ErrorMessage("CREATE TABLE t (k int PRIMARY KEY, v list<'x.Y'>)") ==
        "line 1:43: unsupported custom type 'x.Y': use a native, collection or user type");
}

// --------------------------------------------------------------- duplicates

TEST_CASE("a repeated option is an error naming it, at the repetition", "[parser][errors]") {
  CHECK(ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH x = 1 AND X = 2") ==
        "line 1:51: duplicate option 'x'");
  CHECK(ErrorMessage("CREATE KEYSPACE k WITH replication = {} AND \"REPLICATION\" = {}") ==
        "line 1:45: duplicate option 'replication'");
  CHECK(ErrorMessage("ALTER TABLE t WITH comment = 'a' AND comment = 'b'") ==
        "line 1:38: duplicate option 'comment'");
  CHECK(
      ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH CLUSTERING ORDER BY (a) AND CLUSTERING "
                   "ORDER BY (a)") == "line 1:69: duplicate option CLUSTERING ORDER BY");
  CHECK(ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH COMPACT STORAGE AND COMPACT "
                     "STORAGE") == "line 1:61: duplicate option COMPACT STORAGE");
}

TEST_CASE("a repeated map key in an option is an error", "[parser][errors]") {
  CHECK(ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH x = {'a': 1, 'a': 2}") ==
        "line 1:54: duplicate map key 'a'");
}

TEST_CASE("a second PRIMARY KEY clause is an error pointing at both", "[parser][errors]") {
  CHECK(ErrorMessage("CREATE TABLE t (a int, PRIMARY KEY (a), PRIMARY KEY (a))") ==
        "line 1:41: duplicate PRIMARY KEY clause (the first is at line 1:24)");
}

// ------------------------------------------------------------ lexical errors

TEST_CASE("lexical errors are reported with the lexer's message", "[parser][errors]") {
  SECTION("unterminated string") {
    CHECK(ErrorMessage("CREATE TABLE t (a int PRIMARY KEY) WITH comment = 'abc; DROP TABLE x;") ==
          "line 1:51: unterminated string literal");
  }
  SECTION("unterminated quoted identifier") {
    CHECK(ErrorMessage("DROP TABLE \"abc;\nDROP TABLE x;") ==
          "line 1:12: unterminated quoted identifier");
  }
  SECTION("unterminated comment") {
    CHECK(ErrorMessage("DROP TABLE t /* never closed; DROP TABLE x;") ==
          "line 1:14: unterminated /* comment");
  }
  SECTION("unterminated $$ body") {
    CHECK(ErrorMessage("CREATE FUNCTION f () AS $$ return 1;") ==
          "line 1:25: unterminated $$ string literal");
  }
  SECTION("stray character") {
    CHECK(ErrorMessage("DROP TABLE # x") == "line 1:12: unexpected character '#'");
  }
  SECTION("empty quoted identifier") {
    CHECK(ErrorMessage("create table t (a \"\" )") == "line 1:19: empty quoted identifier");
  }
  SECTION("inside a statement that is otherwise skipped") {
    CHECK(ErrorMessage("CREATE INDEX i ON t (v) # ;") == "line 1:25: unexpected character '#'");
  }
}

TEST_CASE("an unterminated literal swallows the rest of the input", "[parser][errors]") {
  CHECK(Outline("USE a; DROP TABLE 'x; USE b; USE c;") ==
        Lines{"UseKeyspace", "error: line 1:19: unterminated string literal"});
  CHECK(Outline("USE a; DROP TABLE t /* x; USE b;") ==
        Lines{"UseKeyspace", "error: line 1:21: unterminated /* comment"});
}

TEST_CASE("a quoted name in an error message is shown quoted, as written", "[parser][errors]") {
  CHECK(ErrorMessage("USE a \"b\"") == "line 1:7: expected ';', found \"b\"");
  CHECK(ErrorMessage("USE a \"Say \"\"hi\"\"\"") ==
        "line 1:7: expected ';', found \"Say \"\"hi\"\"\"");
}

TEST_CASE("long literals are shortened in error messages", "[parser][errors]") {
  const std::string long_text(200, 'z');
  CHECK(ErrorMessage("DROP TABLE '" + long_text + "'") ==
        "line 1:12: expected table name, found string '" + std::string(40, 'z') + "...'");
}

// ---------------------------------------------------------------- recovery

TEST_CASE("after an error the parser resumes after the next ';'", "[parser][errors]") {
  SECTION("a refused statement with a ';' inside a string") {
    CHECK(Outline("SELECT * FROM t WHERE a = ';' GROUP BY a; DROP TABLE x") ==
          Lines{"error: line 1:31: GROUP BY is not supported by cellfs", "DropTable"});
  }
  SECTION("an error found at the ';' does not swallow the next statement") {
    CHECK(Outline("CREATE TABLE; CREATE KEYSPACE k WITH r = 1;") ==
          Lines{"error: line 1:13: expected table name, found ';'", "CreateKeyspace"});
  }
  SECTION("several errors in a row, each reported once") {
    CHECK(Outline("DROP x; USE; ALTER TABLE t FOO BAR; USE ok; CREATE TABLE t (a) ; DROP TYPE y") ==
          Lines{"error: line 1:6: expected KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, "
                "FUNCTION or AGGREGATE, found 'x'",
                "error: line 1:12: expected keyspace name, found ';'",
                "error: line 1:28: expected ADD, DROP, RENAME, WITH or ALTER, found 'foo'",
                "UseKeyspace", "error: line 1:62: expected a type, found ')'", "DropType"});
  }
  SECTION("a stray byte, then the next statement") {
    CHECK(Outline("DROP TABLE # x; USE k") ==
          Lines{"error: line 1:12: unexpected character '#'", "UseKeyspace"});
  }
  SECTION("an error in the last statement, without ';'") {
    CHECK(Outline("USE a; USE") ==
          Lines{"UseKeyspace", "error: line 1:11: expected keyspace name, found end of input"});
  }
}

TEST_CASE("a failed Next leaves the caller's statement untouched", "[parser][errors]") {
  CqlParser parser("USE a; DROP TABLE ;");
  Statement statement;
  bool done = false;
  REQUIRE(parser.Next(&statement, &done).ok());
  CHECK_FALSE(parser.Next(&statement, &done).ok());
  CHECK(KindOf(statement) == "UseKeyspace");
  CHECK(statement.text == "USE a");
}

TEST_CASE("type nesting deeper than the limit is an error, not a stack overflow",
          "[parser][errors]") {
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "list<";
  deep += "int";
  for (int i = 0; i < 100000; ++i) deep += ">";
  const std::string cql = "CREATE TABLE t (k int PRIMARY KEY, v " + deep + "); USE k";
  const Lines outline = Outline(cql);
  REQUIRE(outline.size() == 2);
  CHECK(outline[0] == "error: line 1:198: type nested more than 32 levels deep");
  CHECK(outline[1] == "UseKeyspace");
  std::string ok_depth = "int";
  for (int i = 0; i < 32; ++i) ok_depth = "frozen<" + ok_depth + ">";
  CHECK(Outline("CREATE TABLE t (k int PRIMARY KEY, v list<" + ok_depth + ">)").size() == 1);
}

// Property: whatever the input, Next terminates, makes progress, and every
// error message starts with a position.
TEST_CASE("random token soup never hangs, crashes or reports an error without a position",
          "[parser][errors]") {
  const std::vector<std::string> pool = {"CREATE",
                                         "TABLE",
                                         "KEYSPACE",
                                         "TYPE",
                                         "DROP",
                                         "ALTER",
                                         "ADD",
                                         "WITH",
                                         "AND",
                                         "PRIMARY",
                                         "KEY",
                                         "STATIC",
                                         "IF",
                                         "NOT",
                                         "EXISTS",
                                         "frozen",
                                         "list",
                                         "map",
                                         "set",
                                         "tuple",
                                         "int",
                                         "t",
                                         "ks",
                                         "\"Q\"",
                                         "(",
                                         ")",
                                         "<",
                                         ">",
                                         ",",
                                         ";",
                                         ".",
                                         "=",
                                         "{",
                                         "}",
                                         ":",
                                         "'s'",
                                         "1",
                                         "-2.5",
                                         "true",
                                         "CLUSTERING",
                                         "ORDER",
                                         "BY",
                                         "DESC",
                                         "COMPACT",
                                         "STORAGE",
                                         "RENAME",
                                         "TO",
                                         "USE",
                                         "FUNCTION",
                                         "INDEX",
                                         "$$b;$$",
                                         "/*c*/",
                                         "--c\n",
                                         "'",
                                         "\"",
                                         "/*",
                                         "#",
                                         "SELECT",
                                         "00000000-0000-0000-0000-000000000000"};
  std::mt19937 rng(7);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::string script;
    const size_t count = rng() % 40;
    for (size_t i = 0; i < count; ++i) {
      script += pool[rng() % pool.size()];
      script += rng() % 4 == 0 ? "\n" : " ";
    }
    INFO(script);
    size_t semicolons = 0;
    for (char c : script) semicolons += c == ';' ? 1 : 0;
    CqlParser parser(script);
    size_t calls = 0;
    while (true) {
      Statement statement;
      bool done = false;
      Status status = parser.Next(&statement, &done);
      ++calls;
      REQUIRE(calls <= semicolons + 2);
      if (!status.ok()) {
        CHECK(status.message().rfind("line ", 0) == 0);
        continue;
      }
      if (done) break;
      CHECK_FALSE(statement.text.empty());
      CHECK(script.compare(statement.position.offset, statement.text.size(), statement.text) == 0);
    }
  }
}

// ------------------------------------------------- CompleteStatementsLength

TEST_CASE("CompleteStatementsLength ends after the last top-level ';'", "[parser][stream]") {
  CHECK(CqlParser::CompleteStatementsLength("") == 0);
  CHECK(CqlParser::CompleteStatementsLength("DROP TABLE t") == 0);
  CHECK(CqlParser::CompleteStatementsLength("DROP TABLE t;") == 13);
  CHECK(CqlParser::CompleteStatementsLength("USE a; USE b; USE c") == 13);
  CHECK(CqlParser::CompleteStatementsLength(";;") == 2);
  CHECK(CqlParser::CompleteStatementsLength("USE a;  \n") == 6);
}

TEST_CASE("CompleteStatementsLength ignores ';' inside strings, names and comments",
          "[parser][stream]") {
  CHECK(CqlParser::CompleteStatementsLength("USE a; WITH c = 'x;y'") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; WITH c = 'it'';s'") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; USE \"x;y\"") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; AS $$ x; $$") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; -- x;\nUSE b") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; // x;\nUSE b") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; /* x; */ USE b") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; /* x; */ USE b;") == 22);
}

TEST_CASE("CompleteStatementsLength stops before an unterminated string or comment",
          "[parser][stream]") {
  CHECK(CqlParser::CompleteStatementsLength("USE a; WITH c = 'x; y; z;") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; USE \"x;") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; /* x; y;") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; AS $$ x;") == 6);
  CHECK(CqlParser::CompleteStatementsLength("USE a; -- x;") == 6);
}

TEST_CASE("CompleteStatementsLength is not stopped by a stray byte", "[parser][stream]") {
  CHECK(CqlParser::CompleteStatementsLength("USE # a; USE b;") == 15);
}

// Property: a script fed in random chunks, each time parsing only the
// complete prefix and keeping the rest, yields the same statements as
// parsing it whole.
TEST_CASE("streaming through CompleteStatementsLength matches parsing whole", "[parser][stream]") {
  const std::string script =
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'x': ';'};\n"
      "USE \"k;s\"; -- comment; with semicolons\n"
      "/* block; comment */ CREATE TABLE t (a int PRIMARY KEY, \"b;\" text) WITH c = 'it''s;';\n"
      "CREATE FUNCTION f (a int) RETURNS int LANGUAGE java AS $$ return a; $$;\n"
      "SELECT ';' FROM t; // trailing; comment\n"
      "DROP TABLE t;";
  const Lines whole = Outline(script);
  REQUIRE(whole.size() == 6);
  std::mt19937 rng(42);
  for (int iteration = 0; iteration < 300; ++iteration) {
    Lines streamed;
    std::string pending;
    size_t fed = 0;
    while (fed < script.size()) {
      const size_t chunk = 1 + rng() % 12;
      pending += script.substr(fed, chunk);
      fed += chunk;
      const size_t complete = CqlParser::CompleteStatementsLength(pending);
      for (const std::string& line : Outline(std::string_view(pending).substr(0, complete))) {
        streamed.push_back(line);
      }
      pending.erase(0, complete);
    }
    for (const std::string& line : Outline(pending)) streamed.push_back(line);
    // Error positions differ between chunks, so compare kinds and messages
    // without their positions.
    auto strip = [](Lines lines) {
      for (std::string& line : lines) {
        if (line.rfind("error: line ", 0) == 0) line = "error:" + line.substr(line.find(": ", 7));
      }
      return lines;
    };
    CHECK(strip(streamed) == strip(whole));
  }
}

// ------------------------------------------------------------ schema files

std::string ReadSchemaFile(const std::string& name) {
  std::ifstream in(std::string(CELLFS_TEST_DATA_DIR) + "/cql/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::map<std::string, int> Tally(const Lines& outline) {
  std::map<std::string, int> tally;
  for (const std::string& kind : outline) ++tally[kind];
  return tally;
}

TEST_CASE("the real schema files parse end to end without a syntax error", "[parser][files]") {
  using Counts = std::map<std::string, int>;
  SECTION("hotel_tdg.cql") {
    CHECK(Tally(Outline(ReadSchemaFile("hotel_tdg.cql"))) ==
          Counts{{"CreateKeyspace", 1}, {"CreateType", 1}, {"CreateTable", 5}});
  }
  SECTION("reservation_tdg.cql") {
    CHECK(Tally(Outline(ReadSchemaFile("reservation_tdg.cql"))) ==
          Counts{{"CreateKeyspace", 1}, {"CreateType", 1}, {"CreateTable", 3}, {"CreateView", 1}});
  }
  SECTION("killrvideo_ds220_physical.cql") {
    CHECK(Tally(Outline(ReadSchemaFile("killrvideo_ds220_physical.cql"))) ==
          Counts{{"DropKeyspace", 1},
                 {"CreateKeyspace", 1},
                 {"UseKeyspace", 1},
                 {"CreateType", 1},
                 {"CreateTable", 11}});
  }
  SECTION("killrvideo_pmcfadin_sample.cql") {
    CHECK(Tally(Outline(ReadSchemaFile("killrvideo_pmcfadin_sample.cql"))) ==
          Counts{{"DropKeyspace", 1},
                 {"CreateKeyspace", 1},
                 {"UseKeyspace", 1},
                 {"CreateType", 1},
                 {"CreateTable", 15},
                 {"CreateIndex", 5},
                 {"CreateView", 1},
                 {"CreateRoutine", 1}});
  }
  SECTION("killrvideo_reference_schema.cql") {
    CHECK(Tally(Outline(ReadSchemaFile("killrvideo_reference_schema.cql"))) ==
          Counts{{"CreateTable", 14}});
  }
}

TEST_CASE("schema file details come through: static columns, DESC order, frozen UDTs",
          "[parser][files]") {
  const std::string script = ReadSchemaFile("killrvideo_ds220_physical.cql");
  CqlParser parser(script);
  std::map<std::string, CreateTable> tables;
  while (true) {
    Statement statement;
    bool done = false;
    REQUIRE(parser.Next(&statement, &done).ok());
    if (done) break;
    if (auto* table = std::get_if<CreateTable>(&statement.body)) {
      tables[table->table.name] = *table;
    }
  }
  const CreateTable& comments = tables.at("comments_by_video");
  CHECK(testing::Join(comments.partition_key) == "video_id");
  CHECK(testing::Join(comments.clustering) == "posted_timestamp,user_id");
  REQUIRE(comments.clustering_order.size() == 2);
  CHECK(comments.clustering_order[0].descending);
  CHECK_FALSE(comments.clustering_order[1].descending);
  int statics = 0;
  for (const ColumnExpr& column : comments.columns) statics += column.is_static ? 1 : 0;
  CHECK(statics == 4);
  const CreateTable& videos = tables.at("videos");
  CHECK(testing::RenderType(videos.columns[9].type) == "frozen<encoding_type>");
  CHECK(testing::RenderType(videos.columns[11].type) == "map<int, blob>");
  CHECK(testing::Join(tables.at("video_interactions_by_user_video").partition_key) ==
        "user_id,video_id");
}

// Property: a parsed statement's text is itself a statement that parses to
// the same kind, so DESCRIBE-like round trips and error replays can use it.
TEST_CASE("every statement's text from the schema files parses again on its own",
          "[parser][files]") {
  for (const char* name : {"hotel_tdg.cql", "reservation_tdg.cql", "killrvideo_ds220_physical.cql",
                           "killrvideo_pmcfadin_sample.cql", "killrvideo_reference_schema.cql"}) {
    const std::string script = ReadSchemaFile(name);
    CqlParser parser(script);
    int count = 0;
    while (true) {
      Statement statement;
      bool done = false;
      REQUIRE(parser.Next(&statement, &done).ok());
      if (done) break;
      ++count;
      INFO(statement.text);
      CHECK(Outline(statement.text) == Lines{KindOf(statement)});
      CHECK(script.compare(statement.position.offset, statement.text.size(), statement.text) == 0);
    }
    CHECK(count > 0);
  }
}

}  // namespace
}  // namespace cellfs
