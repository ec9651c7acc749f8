// Tests for fs/formats/cql_session.h: a DDL script streamed through @cql writes runs
// the same however it is chunked, with a transcript whose error positions
// count from the start of the script.
#include "fs/formats/cql_session.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/describe.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::TestEngine;

constexpr char kKeyspace[] =
    "CREATE KEYSPACE demo WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n";

// Every kind of line the transcript has, with ';' inside comments, strings
// and a function body, and a last statement without ';'.
constexpr char kScript[] =
    "-- demo schema; this ';' ends nothing\n"
    "CREATE KEYSPACE demo WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "USE demo;\n"
    "CREATE TYPE addr (street text, city text);\n"
    "CREATE TABLE logs (id int, at timestamp, msg text, PRIMARY KEY (id, at))\n"
    "  WITH comment = 'a;b' AND CLUSTERING ORDER BY (at DESC);\n"
    "/* block; comment */ CREATE TABLE broken (id int PRIMARY KEY, v nosuch);\n"
    "ALTER TABLE logs ADD home frozen<addr>;\n"
    "CREATE TABLE IF NOT EXISTS logs (id int PRIMARY KEY);\n"
    "DROP TABLE IF EXISTS gone;\n"
    "CREATE FUNCTION f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java "
    "AS $$ return a; $$;\n"
    "CREATE INDEX ON logs (msg);\n"
    "CREATE TABLE \"Quoted\" (k int PRIMARY KEY)\n";

// "line L:C" of the first occurrence of `needle` in `script`.
std::string PositionOf(std::string_view script, std::string_view needle) {
  const size_t at = script.find(needle);
  REQUIRE(at != std::string_view::npos);
  const std::string_view before = script.substr(0, at);
  const size_t last_newline = before.rfind('\n');
  const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
  const size_t column = last_newline == std::string_view::npos ? at + 1 : at - last_newline;
  return "line " + std::to_string(line) + ":" + std::to_string(column);
}

// The transcript and resulting schema of `script` written in the given
// chunks (cut at `cuts`, ascending) and then finished, on a fresh engine.
struct Outcome {
  std::string transcript;
  std::string schema;
};

Outcome RunChunked(std::string_view script, const std::vector<size_t>& cuts) {
  TestEngine db;
  CqlSession session(db.engine.get());
  size_t start = 0;
  for (size_t cut : cuts) {
    (void)session.Write(script.substr(start, cut - start));
    start = cut;
  }
  (void)session.Write(script.substr(start));
  (void)session.Finish();
  return {session.transcript(), CqlSession::DescribeSchema(*db.engine)};
}

TEST_CASE("a script's transcript names each statement's outcome", "[cql_session]") {
  const Outcome whole = RunChunked(kScript, {});
  CHECK(whole.transcript ==
        "OK CREATE KEYSPACE demo\n"
        "OK USE demo\n"
        "OK CREATE TYPE demo.addr\n"
        "OK CREATE TABLE demo.logs\n"
        "ERROR line 7:65: unknown type demo.nosuch\n"
        "OK ALTER TABLE demo.logs\n"
        "OK no change (IF NOT EXISTS)\n"
        "OK no change (IF EXISTS)\n"
        "OK CREATE FUNCTION demo.f\n"
        "OK CREATE INDEX demo.logs\n"
        "OK CREATE TABLE demo.\"Quoted\"\n");
  CHECK(PositionOf(kScript, "nosuch") == "line 7:65");
  CHECK(whole.schema.find("CREATE TABLE demo.logs") != std::string::npos);
  CHECK(whole.schema.find("home frozen<addr>") != std::string::npos);
  CHECK(whole.schema.find("broken") == std::string::npos);
}

TEST_CASE("a script cut into two chunks at any byte runs as if written whole", "[cql_session]") {
  const std::string_view script = kScript;
  const Outcome whole = RunChunked(script, {});
  for (size_t cut = 0; cut <= script.size(); ++cut) {
    INFO("cut at byte " << cut);
    const Outcome chunked = RunChunked(script, {cut});
    CHECK(chunked.transcript == whole.transcript);
    CHECK(chunked.schema == whole.schema);
  }
}

TEST_CASE("a script written a byte at a time, or in random chunks, runs as if written whole",
          "[cql_session]") {
  const std::string_view script = kScript;
  const Outcome whole = RunChunked(script, {});
  SECTION("one byte per write") {
    std::vector<size_t> cuts;
    for (size_t i = 1; i < script.size(); ++i) cuts.push_back(i);
    const Outcome chunked = RunChunked(script, cuts);
    CHECK(chunked.transcript == whole.transcript);
    CHECK(chunked.schema == whole.schema);
  }
  SECTION("random chunk sizes") {
    std::mt19937 random(20240611);
    for (int round = 0; round < 40; ++round) {
      std::vector<size_t> cuts;
      for (size_t at = random() % 40; at < script.size(); at += 1 + random() % 40) {
        cuts.push_back(at);
      }
      INFO("round " << round);
      const Outcome chunked = RunChunked(script, cuts);
      CHECK(chunked.transcript == whole.transcript);
      CHECK(chunked.schema == whole.schema);
    }
  }
}

// Statement ends next to everything that can hide a ';': doubled quotes,
// '$' inside $$ strings, comment markers split from their second byte, a
// '-' or '/' just before the ';', and a quoted name holding one.
constexpr char kTricky[] =
    "CREATE KEYSPACE demo WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1}/**/;"
    "CREATE TABLE demo.a (k int PRIMARY KEY) WITH comment = 'it'';s ''';--;\n"
    "CREATE TABLE demo.b (\"x;\"\"y\" int PRIMARY KEY)//;\n;"
    "CREATE FUNCTION demo.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java "
    "AS $$ $;$ $$;"
    "CREATE TABLE demo.d (k int PRIMARY KEY) WITH comment = $$$$ /* ; * / **/;"
    "CREATE TABLE demo.e (k int PRIMARY KEY) WITH default_time_to_live = 1-;"
    "CREATE TABLE demo.g (k int PRIMARY KEY)/;"
    "CREATE TABLE demo.h (k int PRIMARY KEY) WITH comment = '$$';"
    "CREATE TABLE demo.i (k int PRIMARY KEY);";

TEST_CASE("statement ends hidden by strings and comments are found however the script is cut",
          "[cql_session]") {
  const std::string_view script = kTricky;
  const Outcome whole = RunChunked(script, {});
  INFO(whole.transcript);
  CHECK(whole.transcript ==
        "OK CREATE KEYSPACE demo\n"
        "OK CREATE TABLE demo.a\n"
        "OK CREATE TABLE demo.b\n"
        "OK CREATE FUNCTION demo.f\n"
        "OK CREATE TABLE demo.d\n"
        "ERROR line 3:241: expected AND or ';', found '-'\n"
        "ERROR line 3:282: expected ';', found '/'\n"
        "OK CREATE TABLE demo.h\n"
        "OK CREATE TABLE demo.i\n");
  for (size_t cut = 0; cut <= script.size(); ++cut) {
    INFO("cut at byte " << cut);
    const Outcome chunked = RunChunked(script, {cut});
    CHECK(chunked.transcript == whole.transcript);
  }
  std::vector<size_t> bytes;
  for (size_t i = 1; i < script.size(); ++i) bytes.push_back(i);
  CHECK(RunChunked(script, bytes).transcript == whole.transcript);
}

TEST_CASE("a long statement in small writes is scanned once, not once per write", "[cql_session]") {
  // Scanning all that is pending on every write took 9.6 s for 10 MiB in
  // 64 KiB writes; each write scans only its own bytes now. Counted, not
  // timed: the scan examines each written byte once.
  const std::string script = std::string(kKeyspace) +
                             "CREATE TABLE demo.t (k int PRIMARY KEY) WITH comment = '" +
                             std::string(8 << 20, 'c') + "';\n";
  TestEngine db;
  CqlSession session(db.engine.get());
  constexpr size_t kChunk = 16 << 10;
  for (size_t at = 0; at < script.size(); at += kChunk) {
    REQUIRE(session.Write(std::string_view(script).substr(at, kChunk)).ok());
  }
  CHECK(session.transcript() == "OK CREATE KEYSPACE demo\nOK CREATE TABLE demo.t\n");
  CHECK(session.bytes_scanned() == script.size());
}

TEST_CASE("WriteAt skips bytes the writer sends again after a short count, and only those",
          "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  const std::string first = std::string(kKeyspace) + "CREATE TABLE demo.a (k int PRIMARY KEY);";
  const std::string failing = "CREATE TABLE demo.b (k nosuch PRIMARY KEY); CREATE TABLE demo.c";
  const std::string rest = " (k int PRIMARY KEY);";
  REQUIRE(session.WriteAt(0, first).ok());
  REQUIRE_FALSE(session.WriteAt(first.size(), failing).ok());
  const std::string after_failure = session.transcript();
  REQUIRE(after_failure == "OK CREATE KEYSPACE demo\nOK CREATE TABLE demo.a\nERROR " +
                               PositionOf(first + failing, "nosuch") +
                               ": unknown type demo.nosuch\n");
  SECTION("the rest sent again from the failed piece's offset") {
    CHECK(session.WriteAt(first.size(), failing + rest).ok());
    CHECK(session.transcript() == after_failure + "OK CREATE TABLE demo.c\n");
  }
  SECTION("sent again in pieces cut elsewhere") {
    CHECK(session.WriteAt(first.size(), failing.substr(0, 10)).ok());
    CHECK(session.WriteAt(first.size() + 10, failing.substr(10) + rest).ok());
    CHECK(session.transcript() == after_failure + "OK CREATE TABLE demo.c\n");
  }
  SECTION("other text at the offset of a write that failed as a whole is new") {
    // write(2) of a failed request leaves the file offset where it was.
    CHECK(session.WriteAt(first.size(), rest + "CREATE TABLE demo.d (k int PRIMARY KEY);").ok());
    CHECK(session.transcript() ==
          after_failure + "OK CREATE TABLE demo.c\nOK CREATE TABLE demo.d\n");
  }
  SECTION("the same bytes at another offset are new text") {
    CHECK_FALSE(session.WriteAt(0, rest + failing).ok());
    CHECK_THAT(session.transcript(), Catch::Matchers::StartsWith(
                                         after_failure + "OK CREATE TABLE demo.c\nERROR line 2:") &&
                                         Catch::Matchers::EndsWith(": unknown type demo.nosuch\n"));
  }
}

TEST_CASE("error positions count from the start of the script, not of the chunk", "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  SECTION("a syntax error on line 3, in the second chunk") {
    const std::string first = std::string(kKeyspace) + "USE demo;\n";
    const std::string second = "  CREATE TABLE t (k int PRIMARY KEY, v);\n";
    REQUIRE(session.Write(first).ok());
    CHECK_FALSE(session.Write(second).ok());
    CHECK(session.transcript() ==
          "OK CREATE KEYSPACE demo\nOK USE demo\n"
          "ERROR line 3:39: expected a type, found ')'\n");
    CHECK(PositionOf(first + second, ");") == "line 3:39");
  }
  SECTION("a chunk that starts mid-line keeps counting that line's columns") {
    const std::string first = std::string(kKeyspace) + "USE demo; CREATE TABLE t (k int";
    const std::string second = " PRIMARY KEY, v nosuch); CREATE TABLE demo (k int PRIMARY KEY);";
    REQUIRE(session.Write(first).ok());
    CHECK_FALSE(session.Write(second).ok());
    CHECK(session.transcript() ==
          "OK CREATE KEYSPACE demo\nOK USE demo\n"
          "ERROR line 2:48: unknown type demo.nosuch\n"
          "OK CREATE TABLE demo.demo\n");
    CHECK(PositionOf(first + second, "nosuch") == "line 2:48");
  }
  SECTION("a catalog error without a position of its own is at its statement") {
    REQUIRE(session.Write(kKeyspace).ok());
    REQUIRE(session.Write("\n\n   ").ok());
    CHECK_FALSE(session.Write(kKeyspace).ok());
    CHECK(session.transcript() ==
          "OK CREATE KEYSPACE demo\n"
          "ERROR line 4:4: keyspace demo already exists\n");
  }
}

TEST_CASE("Write fails exactly when a statement of that chunk failed, naming the first",
          "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  CHECK_FALSE(session.written());
  REQUIRE(session.Write(kKeyspace).ok());
  CHECK(session.written());

  Status failed = session.Write("USE nowhere; DROP TABLE demo.none; USE demo;");
  CHECK(failed.code() == StatusCode::kInvalidArgument);
  CHECK(failed.message() == "line 2:1: keyspace nowhere does not exist");
  CHECK(session.transcript() ==
        "OK CREATE KEYSPACE demo\n"
        "ERROR line 2:1: keyspace nowhere does not exist\n"
        "ERROR line 2:14: table demo.none does not exist\n"
        "OK USE demo\n");

  SECTION("a chunk that only completes earlier text can fail too") {
    REQUIRE(session.Write("SELECT * FROM").ok());
    Status select = session.Write(" t; CREATE TABLE t (k int PRIMARY KEY);");
    CHECK(select.message() == "line 2:59: unconfigured table t");
    CHECK(session.Write("DROP TABLE t;").ok());
  }
  SECTION("a chunk with no complete statement succeeds and runs nothing") {
    const std::string before = session.transcript();
    CHECK(session.Write("CREATE TABLE u (k int PRIMARY KEY) -- not ended;").ok());
    CHECK(session.transcript() == before);
  }
}

TEST_CASE("Finish runs a final statement without ';', once", "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  REQUIRE(session.Write(kKeyspace).ok());
  SECTION("an unterminated statement runs") {
    REQUIRE(session.Write("CREATE TABLE demo.t (k int PRIMARY KEY)\n").ok());
    CHECK(session.Finish().ok());
    CHECK(session.transcript() == "OK CREATE KEYSPACE demo\nOK CREATE TABLE demo.t\n");
    CHECK(db.engine->FindTable("demo", "t").ok());
    CHECK(session.Finish().ok());
    CHECK(session.transcript() == "OK CREATE KEYSPACE demo\nOK CREATE TABLE demo.t\n");
  }
  SECTION("a failing one fails Finish, at its script position") {
    REQUIRE(session.Write("\nDROP TABLE").ok());
    Status finished = session.Finish();
    CHECK(finished.code() == StatusCode::kInvalidArgument);
    CHECK(finished.message() == "line 3:11: expected table name, found end of input");
  }
  SECTION("white space and comments are not a statement") {
    REQUIRE(session.Write("  -- done\n /* really */ ;; \n").ok());
    CHECK(session.Finish().ok());
    CHECK(session.transcript() == "OK CREATE KEYSPACE demo\n");
  }
  SECTION("an unterminated comment is an error at its start") {
    REQUIRE(session.Write("/* never closed").ok());
    CHECK_FALSE(session.Finish().ok());
    CHECK(session.transcript() ==
          "OK CREATE KEYSPACE demo\nERROR line 2:1: unterminated /* comment\n");
  }
}

TEST_CASE("USE holds for later writes of the same session only", "[cql_session]") {
  TestEngine db;
  {
    CqlSession session(db.engine.get());
    REQUIRE(session.Write(kKeyspace).ok());
    REQUIRE(session.Write("USE demo;").ok());
    CHECK(session.Write("CREATE TABLE t (k int PRIMARY KEY);").ok());
    CHECK(session.transcript() == "OK CREATE KEYSPACE demo\nOK USE demo\nOK CREATE TABLE demo.t\n");
  }
  CqlSession fresh(db.engine.get());
  CHECK_FALSE(fresh.Write("DROP TABLE t;").ok());
  CHECK(fresh.transcript() ==
        "ERROR line 1:12: no keyspace has been specified for t: USE a keyspace, or write "
        "keyspace.t\n");
  CHECK(db.engine->FindTable("demo", "t").ok());
}

TEST_CASE("each statement kind has its summary", "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  REQUIRE(session.Write(kKeyspace).ok());
  const std::string script =
      "ALTER KEYSPACE demo WITH durable_writes = false;"
      "CREATE TYPE demo.point (x int, y int);"
      "CREATE TABLE demo.t (k int PRIMARY KEY, p frozen<point>);"
      "ALTER TABLE demo.t ADD IF NOT EXISTS p frozen<point>;"
      "ALTER TABLE IF EXISTS demo.none ADD v int;"
      "CREATE AGGREGATE demo.agg(int) SFUNC s STYPE int;"
      "CREATE KEYSPACE IF NOT EXISTS demo WITH replication = "
      "{'class': 'SimpleStrategy', 'replication_factor': 1};"
      "DROP TABLE demo.t; DROP TYPE demo.point; DROP TYPE IF EXISTS demo.point;"
      "DROP KEYSPACE demo; DROP KEYSPACE IF EXISTS demo;";
  REQUIRE(session.Write(script).ok());
  CHECK(session.transcript() ==
        "OK CREATE KEYSPACE demo\n"
        "OK ALTER KEYSPACE demo\n"
        "OK CREATE TYPE demo.point\n"
        "OK CREATE TABLE demo.t\n"
        "OK ALTER TABLE demo.t\n"
        "OK no change (IF EXISTS)\n"
        "OK CREATE AGGREGATE demo.agg\n"
        "OK no change (IF NOT EXISTS)\n"
        "OK DROP TABLE demo.t\n"
        "OK DROP TYPE demo.point\n"
        "OK no change (IF EXISTS)\n"
        "OK DROP KEYSPACE demo\n"
        "OK no change (IF EXISTS)\n");
}

TEST_CASE("statements cellfs does not implement are errors that do not stop the script",
          "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  REQUIRE(session.Write(kKeyspace).ok());
  Status status = session.Write(
      "CREATE TRIGGER tr ON demo.t USING 'org.example.Trigger';\n"
      "  DROP INDEX demo.i;\n"
      "GRANT SELECT ON demo.t TO bob;\n"
      "CREATE TABLE demo.t (k int PRIMARY KEY);\n");
  CHECK(status.message() == "line 2:1: CREATE TRIGGER is not supported by cellfs");
  CHECK(session.transcript() ==
        "OK CREATE KEYSPACE demo\n"
        "ERROR line 2:1: CREATE TRIGGER is not supported by cellfs\n"
        "ERROR line 3:3: Index 'demo.i' doesn't exist'\n"
        "ERROR line 4:1: unsupported statement GRANT: cellfs has no roles or permissions\n"
        "OK CREATE TABLE demo.t\n");
}

TEST_CASE("DESCRIBE puts its text in an OUTPUT block; TRUNCATE and DROP FUNCTION have summaries",
          "[cql_session]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  REQUIRE(session.Write(kKeyspace).ok());
  Status status = session.Write(
      "USE demo; CREATE TABLE t (k int PRIMARY KEY);\n"
      "DESCRIBE TABLES;\n"
      "DESC TABLE t;\n"
      "DESCRIBE TABLE nope;\n"
      "TRUNCATE t;\n"
      "CREATE FUNCTION f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS "
      "'return a;';\n"
      "DESCRIBE FUNCTIONS;\n"
      "DROP FUNCTION f; DROP FUNCTION IF EXISTS f;\n"
      "DESCRIBE AGGREGATES;\n");
  CHECK(status.message() == "line 5:1: Table 'nope' not found in keyspace 'demo'");
  const std::string table = DescribeTable(*db.engine->catalog()->FindTable("demo", "t"));
  const size_t table_lines = static_cast<size_t>(std::count(table.begin(), table.end(), '\n'));
  CHECK(session.transcript() ==
        "OK CREATE KEYSPACE demo\n"
        "OK USE demo\n"
        "OK CREATE TABLE demo.t\n"
        "OUTPUT 3\n"
        "\n"
        "t\n"
        "\n"
        "OUTPUT " +
            std::to_string(table_lines + 1) + "\n\n" + table +
            "ERROR line 5:1: Table 'nope' not found in keyspace 'demo'\n"
            "OK TRUNCATE demo.t\n"
            "OK CREATE FUNCTION demo.f\n"
            "OUTPUT 3\n"
            "\n"
            "f(int)\n"
            "\n"
            "OK DROP FUNCTION demo.f\n"
            "OK no change (IF EXISTS)\n"
            "OUTPUT 0\n");
}

TEST_CASE("DescribeSchema prints every keyspace by name, blank-line separated", "[cql_session]") {
  TestEngine db;
  CHECK(CqlSession::DescribeSchema(*db.engine).empty());
  db.Ddl(
      "CREATE KEYSPACE zeta WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};"
      "CREATE TABLE zeta.t (k int PRIMARY KEY, v text);"
      "CREATE KEYSPACE alpha WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 3};"
      "CREATE TYPE alpha.pair (a int, b int);");
  const auto catalog = db.engine->catalog();
  const std::string expected = DescribeKeyspace(*catalog->FindKeyspace("alpha")) + "\n" +
                               DescribeKeyspace(*catalog->FindKeyspace("zeta"));
  CHECK(CqlSession::DescribeSchema(*db.engine) == expected);
  CHECK(expected.find("CREATE TYPE alpha.pair") < expected.find("CREATE KEYSPACE zeta"));
  CHECK(expected.find(";\n\nCREATE KEYSPACE zeta") != std::string::npos);

  // The description replays into an equal schema.
  TestEngine copy;
  CqlSession replay(copy.engine.get());
  CHECK(replay.Write(expected).ok());
  CHECK(CqlSession::DescribeSchema(*copy.engine) == expected);
}

}  // namespace
}  // namespace cellfs::fs
