// Tests for fs/cql/dml_executor.h through the @cql session: each data
// statement's stored result, read back through the engine, against what
// Cassandra's rules give (TTL, timestamps, last write wins, collection
// operations, range deletions, batch atomicity), and the refusals with
// Cassandra's wording and their positions.
#include "fs/cql/dml_executor.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"
#include "tests/fs/dml_test_db.h"

namespace cellfs::fs {
namespace {

using testing::Db;
using testing::kSchema;
using testing::TestEngine;

TEST_CASE("INSERT writes a row marker and cells with USING TTL and TIMESTAMP", "[dml]") {
  Db db;
  CHECK(db.Run("INSERT INTO ks.t (p, c, v) VALUES (1, 'a', 'x') USING TTL 60 AND TIMESTAMP 100;\n"
               "INSERT INTO t (p, c, n) VALUES (1, 'b', 7) USING TIMESTAMP 50;") ==
        "OK INSERT ks.t\nOK INSERT ks.t\n");
  CHECK(db.Stored("t", 1) == "a: marker@100/ttl=60 v='x'@100/ttl=60 | b: marker@50 n=7@50");
}

TEST_CASE("last write wins by timestamp whatever the statement order", "[dml]") {
  Db db;
  db.Run(
      "UPDATE t USING TIMESTAMP 200 SET v = 'new' WHERE p = 1 AND c = 'a';"
      "UPDATE t USING TIMESTAMP 100 SET v = 'old', n = 3 WHERE p = 1 AND c = 'a';"
      "DELETE n FROM t USING TIMESTAMP 99 WHERE p = 1 AND c = 'a';");
  // UPDATE writes no marker; the delete at 99 is older than n's write at 100.
  CHECK(db.Stored("t", 1) == "a: n=3@100 v='new'@200");
}

TEST_CASE("a row written only by UPDATE ... USING TTL vanishes with its cells", "[dml]") {
  Db db;
  db.Run("UPDATE t USING TTL 10 SET v = 'x' WHERE p = 1 AND c = 'a';");
  CHECK(db.Json("t") ==
        "{\"p\": 1, \"c\": \"a\", \"st\": null, \"a\": null, \"l\": null, \"m\": null, "
        "\"n\": null, \"s\": null, \"v\": \"x\"}\n");
  db.test().clock.AdvanceSeconds(11);
  CHECK(db.Json("t").empty());
}

TEST_CASE("collection and UDT operations follow CQL", "[dml]") {
  Db db;
  CHECK(db.Run("INSERT INTO t (p, c, s, l, m, a) VALUES (1, 'a', {'x', 'y'}, [1, 2, 3], "
               "{'k': 1}, {city: 'Oslo'});\n"
               "UPDATE t SET s = s + {'z'}, s = s - {'x'}, l = [0] + l, l = l + [4], "
               "m['j'] = 2, m = m - {'k'}, a.street = 'Main' WHERE p = 1 AND c = 'a';\n"
               "UPDATE t SET l[1] = 10 WHERE p = 1 AND c = 'a';\n"
               "UPDATE t SET l = l - [2] WHERE p = 1 AND c = 'a';\n"
               "DELETE l[0], m['j'] FROM t WHERE p = 1 AND c = 'a';\n") ==
        "OK INSERT ks.t\nOK UPDATE ks.t\nOK UPDATE ks.t\nOK UPDATE ks.t\nOK DELETE ks.t\n");
  // l: [1,2,3] -> [0,1,2,3,4] -> [0,10,2,3,4] -> [0,10,3,4] -> [10,3,4].
  CHECK(db.Json("t") ==
        "{\"p\": 1, \"c\": \"a\", \"st\": null, \"a\": {\"street\": \"Main\", \"city\": "
        "\"Oslo\"}, \"l\": [10, 3, 4], \"m\": null, \"n\": null, \"s\": [\"y\", \"z\"], "
        "\"v\": null}\n");
}

TEST_CASE("counters add and subtract", "[dml]") {
  Db db;
  CHECK(db.Run("UPDATE c SET hits = hits + 5 WHERE p = 1 AND c = 1;"
               "UPDATE c SET hits = hits - 2 WHERE p = 1 AND c = 1;"
               "UPDATE c SET hits = hits -1 WHERE p = 1 AND c = 1;") ==
        "OK UPDATE ks.c\nOK UPDATE ks.c\nOK UPDATE ks.c\n");
  CHECK(db.Json("c") == "{\"p\": 1, \"c\": 1, \"hits\": 2}\n");
}

TEST_CASE("static columns: INSERT and UPDATE of the partition key alone", "[dml]") {
  Db db;
  CHECK(db.Run("INSERT INTO t (p, st) VALUES (1, 'S');"
               "UPDATE t SET st = 'T' WHERE p = 2;") == "OK INSERT ks.t\nOK UPDATE ks.t\n");
  const std::string json = db.Json("t");
  CHECK(json.find("\"p\": 1, \"c\": null") != std::string::npos);
  CHECK(json.find("\"st\": \"S\"") != std::string::npos);
  CHECK(json.find("\"st\": \"T\"") != std::string::npos);
  CHECK(db.Run("DELETE st FROM t WHERE p = 1;") == "OK DELETE ks.t\n");
  CHECK(db.Json("t") ==
        "{\"p\": 2, \"c\": null, \"st\": \"T\", \"a\": null, \"l\": null, \"m\": null, "
        "\"n\": null, \"s\": null, \"v\": null}\n");
  CHECK(db.Run("UPDATE t SET st = 'U' WHERE p = 2 AND c = 'a';") ==
        "ERROR line 1:23: Invalid restrictions on clustering columns since the UPDATE statement "
        "modifies only static columns\n");
}

TEST_CASE("DELETE of a row, a partition, and clustering ranges", "[dml]") {
  Db db;
  std::string rows = "BEGIN UNLOGGED BATCH USING TIMESTAMP 10\n";
  for (int c1 = 1; c1 <= 3; ++c1) {
    for (int c2 = 1; c2 <= 3; ++c2) {
      rows += "INSERT INTO r (p, c1, c2, v) VALUES (1, " + std::to_string(c1) + ", " +
              std::to_string(c2) + ", 0)\n";
    }
  }
  CHECK(db.Run(rows + "APPLY BATCH;") == "OK BATCH (9 statements)\n");
  CHECK(db.Run("DELETE FROM r WHERE p = 1 AND c1 = 1 AND c2 >= 2;"
               "DELETE FROM r WHERE p = 1 AND c1 = 2;"
               "DELETE FROM r WHERE p = 1 AND c1 = 3 AND c2 > 1 AND c2 < 3;"
               "DELETE FROM r WHERE p = 1 AND c1 = 3 AND c2 = 1;") ==
        "OK DELETE ks.r\nOK DELETE ks.r\nOK DELETE ks.r\nOK DELETE ks.r\n");
  CHECK(db.Stored("r", 1) == "1,1: marker@10 v=0@10 | 3,3: marker@10 v=0@10");
  db.Run("DELETE FROM r USING TIMESTAMP 5 WHERE p = 1;");  // older than the rows
  CHECK(db.Stored("r", 1) == "1,1: marker@10 v=0@10 | 3,3: marker@10 v=0@10");
  db.Run("DELETE FROM r WHERE p = 1;");
  CHECK(db.Stored("r", 1).empty());
}

TEST_CASE("INSERT JSON nulls omitted columns unless DEFAULT UNSET", "[dml]") {
  Db db;
  db.Run("INSERT INTO t (p, c, v, n) VALUES (1, 'a', 'x', 5) USING TIMESTAMP 10;");
  CHECK(db.Run("INSERT INTO t JSON '{\"p\": 1, \"c\": \"a\", \"n\": 6}' DEFAULT UNSET;") ==
        "OK INSERT ks.t\n");
  CHECK(db.Json("t").find("\"n\": 6, \"s\": null, \"v\": \"x\"") != std::string::npos);
  CHECK(db.Run("INSERT INTO t JSON '{\"p\": 1, \"c\": \"a\", \"n\": 7}';") == "OK INSERT ks.t\n");
  CHECK(db.Json("t").find("\"n\": 7, \"s\": null, \"v\": null") != std::string::npos);
}

TEST_CASE("IN on key columns writes every combination, each key once", "[dml]") {
  Db db;
  CHECK(db.Run("UPDATE r USING TIMESTAMP 10 SET v = 7 WHERE p IN (2, 1) AND c1 IN (3, 1, 3) "
               "AND c2 = 1;") == "OK UPDATE ks.r\n");
  CHECK(db.Stored("r", 1) == "1,1: v=7@10 | 3,1: v=7@10");
  CHECK(db.Stored("r", 2) == "1,1: v=7@10 | 3,1: v=7@10");
  // A list append under a repeated IN value appends once, as Cassandra's
  // IN is a set.
  CHECK(db.Run("UPDATE t SET l = l + [9] WHERE p IN (1, 1) AND c IN ('a', 'a');") ==
        "OK UPDATE ks.t\n");
  CHECK(db.Json("t").find("\"l\": [9]") != std::string::npos);
  // A range deletion under each IN prefix.
  CHECK(db.Run("DELETE FROM r USING TIMESTAMP 20 WHERE p IN (1, 2) AND c1 IN (3) AND c2 > 0;") ==
        "OK DELETE ks.r\n");
  CHECK(db.Stored("r", 1) == "1,1: v=7@10");
  CHECK(db.Stored("r", 2) == "1,1: v=7@10");
  CHECK(db.Json("r").find("\"c1\": 3") == std::string::npos);
  CHECK(db.Run("DELETE FROM r WHERE p IN ();") == "OK DELETE ks.r\n");
  CHECK(db.Run("DELETE FROM r WHERE p = 1 AND c1 IN (1) AND c1 = 2;") ==
        "ERROR line 1:45: c1 cannot be restricted by more than one relation if it includes a "
        "IN\n");
  CHECK(db.Run("UPDATE t SET v = 'a' WHERE p IN (1, 2) AND c = 'x' IF EXISTS;") ==
        "ERROR line 1:28: IN on the partition key is not supported with conditional updates\n");
  CHECK(db.Run("DELETE FROM t WHERE p = 1 AND c IN ('x') IF v = 'a';") ==
        "ERROR line 1:31: IN on the clustering key columns is not supported with conditional "
        "deletions\n");
}

TEST_CASE("time functions are values: now(), currentTimestamp(), minTimeuuid()", "[dml]") {
  Db db;
  CHECK(db.Run("CREATE TABLE tf (k timeuuid PRIMARY KEY, ts timestamp, d date);"
               "INSERT INTO tf (k, ts) VALUES (minTimeuuid('2015-05-21 11:03:02.123+0000'), "
               "'2015-05-21 11:03:02.123+0000');"
               "INSERT INTO tf (k, ts, d) VALUES (now(), currentTimestamp(), currentDate());") ==
        "OK CREATE TABLE ks.tf\nOK INSERT ks.tf\nOK INSERT ks.tf\n");
  const std::string json = db.Json("tf");
  CHECK(json.find("{\"k\": \"f2cf7bb0-ffa8-11e4-8080-808080808080\", \"d\": null, "
                  "\"ts\": \"2015-05-21 11:03:02.123Z\"}") != std::string::npos);
  CHECK(std::count(json.begin(), json.end(), '\n') == 2);
}

TEST_CASE("a batch spans tables and partitions; a bad statement stores nothing", "[dml]") {
  Db db;
  CHECK(db.Run("BEGIN BATCH\n"
               "  INSERT INTO t (p, c, v) VALUES (1, 'a', 'x');\n"
               "  INSERT INTO r (p, c1, c2, v) VALUES (2, 1, 1, 1);\n"
               "  INSERT INTO t (p, c, v) VALUES (3, 'a', 'y');\n"
               "  UPDATE t SET nosuch = 1 WHERE p = 4 AND c = 'a';\n"
               "APPLY BATCH;") == "ERROR line 5:16: Undefined column name nosuch in table ks.t\n");
  CHECK(db.Json("t").empty());
  CHECK(db.Json("r").empty());
  CHECK(db.Run("BEGIN BATCH USING TIMESTAMP 42\n"
               "  INSERT INTO t (p, c, v) VALUES (1, 'a', 'x')\n"
               "  INSERT INTO r (p, c1, c2, v) VALUES (2, 1, 1, 1) USING TTL 30\n"
               "APPLY BATCH;") == "OK BATCH (2 statements)\n");
  CHECK(db.Stored("t", 1) == "a: marker@42 v='x'@42");
  CHECK(db.Stored("r", 2) == "1,1: marker@42/ttl=30 v=1@42/ttl=30");
}

TEST_CASE("a batch streamed in writes cut at its inner ';' runs once, when whole", "[dml]") {
  TestEngine db;
  CqlSession session(db.engine.get());
  REQUIRE(session.Write(kSchema).ok());
  const std::string before = session.transcript();
  REQUIRE(session.Write("BEGIN BATCH INSERT INTO t (p, c) VALUES (1, 'a');").ok());
  REQUIRE(session.Write(" INSERT INTO t (p, c) VALUES (2, 'b');").ok());
  CHECK(session.transcript() == before);  // nothing ran yet
  REQUIRE(session.Write(" APPLY BATCH; INSERT INTO t (p, c) VALUES (3, 'c');").ok());
  CHECK(session.transcript().substr(before.size()) == "OK BATCH (2 statements)\nOK INSERT ks.t\n");
}

TEST_CASE("refusals use Cassandra's wording at the right position", "[dml][errors]") {
  Db db;
  struct Case {
    const char* cql;
    const char* line;
  };
  const Case cases[] = {
      {"INSERT INTO t (p, v) VALUES (1, 'x')",
       "ERROR line 1:13: Some clustering keys are missing: c"},
      {"INSERT INTO t (c, v) VALUES ('a', 'x')",
       "ERROR line 1:13: Some partition key parts are missing: p"},
      {"UPDATE t SET v = 'x' WHERE p = 1", "ERROR line 1:22: Some clustering keys are missing: c"},
      {"INSERT INTO t (p, c, x) VALUES (1, 'a', 2)",
       "ERROR line 1:22: Undefined column name x in table ks.t"},
      {"INSERT INTO t (p, c, v) VALUES (1, 'a', 5)",
       "ERROR line 1:41: Invalid INTEGER constant (5) for \"v\" of type text"},
      {"INSERT INTO t (p, c, n) VALUES ('1', 'a', 5)",
       "ERROR line 1:33: Invalid STRING constant (1) for \"p\" of type int"},
      {"INSERT INTO t (p, c) VALUES (1)", "ERROR line 1:13: Unmatched column names/values"},
      {"INSERT INTO t JSON '[1]'", "ERROR line 1:20: Could not decode JSON string as a map: '[1]'"},
      {"INSERT INTO c (p, c, hits) VALUES (1, 1, 1)",
       "ERROR line 1:13: INSERT statements are not allowed on counter tables, use UPDATE instead"},
      {"UPDATE c USING TTL 5 SET hits = hits + 1 WHERE p = 1 AND c = 1",
       "ERROR line 1:16: Cannot provide custom TTL for counter updates"},
      {"UPDATE c SET hits = 1 WHERE p = 1 AND c = 1",
       "ERROR line 1:14: Cannot set the value of counter column hits (counters can only be "
       "incremented/decremented, not set)"},
      {"UPDATE t SET n = n + 1 WHERE p = 1 AND c = 'a'",
       "ERROR line 1:14: Invalid operation (n = n + 1) for non counter column n"},
      {"UPDATE t SET p = 2 WHERE p = 1 AND c = 'a'",
       "ERROR line 1:14: PRIMARY KEY part p found in SET part"},
      {"UPDATE t SET v = 'x' WHERE p = 1 AND c > 'a'",
       "ERROR line 1:22: Slice restrictions are not supported on the clustering columns in "
       "UPDATE statements"},
      {"UPDATE t SET l[5] = 1 WHERE p = 1 AND c = 'a'",
       "ERROR line 1:16: List index 5 out of bound, list has size 0"},
      {"DELETE v FROM t WHERE p = 1 AND c > 'a'",
       "ERROR line 1:17: Range deletions are not supported for specific columns"},
      {"DELETE FROM r WHERE p = 1 AND c2 = 1",
       "ERROR line 1:15: PRIMARY KEY column \"c2\" cannot be restricted as preceding column "
       "\"c1\" is not restricted"},
      {"DELETE FROM t WHERE v = 'x'",
       "ERROR line 1:21: Non PRIMARY KEY columns found in where clause: v"},
      {"INSERT INTO t (p, c) VALUES (1, 'a') USING TTL 630720001",
       "ERROR line 1:44: ttl is too large. requested (630720001) maximum (630720000)"},
      {"INSERT INTO nosuch (p) VALUES (1)", "ERROR line 1:13: unconfigured table nosuch"},
      {"BEGIN BATCH UPDATE c SET hits = hits + 1 WHERE p = 1 AND c = 1 APPLY BATCH",
       "ERROR line 1:13: Cannot include a counter statement in a logged batch"},
      {"BEGIN COUNTER BATCH INSERT INTO t (p, c) VALUES (1, 'a') APPLY BATCH",
       "ERROR line 1:21: Cannot include non-counter statement in a counter batch"},
      {"BEGIN UNLOGGED BATCH INSERT INTO t (p, c) VALUES (1, 'a') "
       "UPDATE c SET hits = hits + 1 WHERE p = 1 AND c = 1 APPLY BATCH",
       "ERROR line 1:1: Counter and non-counter mutations cannot exist in the same batch"},
      {"BEGIN BATCH USING TIMESTAMP 1 INSERT INTO t (p, c) VALUES (1, 'a') USING TIMESTAMP 2 "
       "APPLY BATCH",
       "ERROR line 1:31: Timestamp must be set either on BATCH or individual statements"},
      {"BEGIN BATCH USING TTL 1 INSERT INTO t (p, c) VALUES (1, 'a') APPLY BATCH",
       "ERROR line 1:19: Global TTL on the BATCH statement is not supported."},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    CHECK(db.Run(std::string(c.cql) + ";") == std::string(c.line) + "\n");
  }
  CHECK(db.Json("t").empty());
  CHECK(db.Json("c").empty());
}

TEST_CASE("data statements naming a materialized view are refused in Cassandra's words",
          "[dml][errors]") {
  Db db;
  REQUIRE(db.Run("CREATE MATERIALIZED VIEW rv AS SELECT p, c1, c2, v FROM r WHERE v IS NOT NULL "
                 "AND p IS NOT NULL AND c1 IS NOT NULL AND c2 IS NOT NULL "
                 "PRIMARY KEY (v, p, c1, c2);") == "OK CREATE MATERIALIZED VIEW ks.rv\n");
  const char* const cases[] = {
      "INSERT INTO rv (v, p, c1, c2) VALUES (1, 1, 1, 1)",
      "UPDATE rv SET v = 1 WHERE p = 1 AND c1 = 1 AND c2 = 1",
      "DELETE FROM ks.rv WHERE v = 1",
      "BEGIN BATCH INSERT INTO r (p, c1, c2) VALUES (1, 1, 1) "
      "INSERT INTO rv (v, p, c1, c2) VALUES (1, 1, 1, 1) APPLY BATCH",
  };
  for (const char* cql : cases) {
    INFO(cql);
    CHECK_THAT(db.Run(std::string(cql) + ";"),
               Catch::Matches("ERROR line 1:[0-9]+: Cannot directly modify a materialized view\n"));
  }
  CHECK(db.Json("r").empty());
}

TEST_CASE("a key whose name would pass 255 bytes is refused", "[dml][errors]") {
  Db db;
  const std::string line =
      db.Run("INSERT INTO t (p, c) VALUES (1, '" + std::string(300, 'k') + "');");
  CHECK(line.starts_with("ERROR line 1:13: "));
  CHECK(db.Json("t").empty());
}

}  // namespace
}  // namespace cellfs::fs
