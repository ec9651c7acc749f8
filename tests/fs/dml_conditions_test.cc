// Tests for conditional statements (fs/cql/dml_conditions.h) through the
// @cql session: when IF NOT EXISTS, IF EXISTS and column conditions hold by
// Cassandra's rules (nulls, elements, fields, IN, static rows), what the
// "[applied]" result shows as cqlsh prints it, that a condition that fails
// writes nothing, the refusals in Cassandra's words, and that conditional
// updates of one partition from many threads are linearisable.
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fs/formats/cql_session.h"
#include "tests/fs/dml_test_db.h"

namespace cellfs::fs {
namespace {

using testing::Db;

// n of row (1, 'x') of ks.t, read with a SELECT in a session of its own
// (thread-safe: no test assertion inside).
int ReadN(Engine* engine) {
  CqlSession session(engine);
  (void)session.Write("SELECT n FROM ks.t WHERE p = 1 AND c = 'x';");
  const std::string out = session.transcript();
  const size_t end = out.rfind("\n\n(1 rows)");
  const size_t start = out.rfind(' ', end);
  if (end == std::string::npos || start == std::string::npos) return -1;
  return std::stoi(out.substr(start + 1, end - start - 1));
}

// What @cql prints for an applied conditional statement.
const std::string kApplied =
    "OUTPUT 4\n"
    "\n"
    " [applied]\n"
    "-----------\n"
    "      True\n";
// ... and for one whose row does not exist (no current values to show).
const std::string kNotApplied =
    "OUTPUT 4\n"
    "\n"
    " [applied]\n"
    "-----------\n"
    "     False\n";

TEST_CASE("IF NOT EXISTS inserts once; then shows the row it found", "[dml][lwt]") {
  Db db;
  CHECK(db.Run("INSERT INTO t (p, c, v, n) VALUES (1, 'x', 'a', 7) IF NOT EXISTS;") == kApplied);
  // Every column in SELECT * order (keys, static, regular by name); the
  // static column is not read by a statement that does not write it.
  CHECK(db.Run("UPDATE t SET st = 'S' WHERE p = 1;"
               "INSERT INTO t (p, c, v) VALUES (1, 'x', 'b') IF NOT EXISTS;") ==
        "OK UPDATE ks.t\n"
        "OUTPUT 4\n"
        "\n"
        " [applied] | p | c | st   | a    | l    | m    | n | s    | v\n"
        "-----------+---+---+------+------+------+------+---+------+---\n"
        "     False | 1 | x | null | null | null | null | 7 | null | a\n");
  CHECK(db.Json("t") ==
        "{\"p\": 1, \"c\": \"x\", \"st\": \"S\", \"a\": null, \"l\": null, \"m\": null, "
        "\"n\": 7, \"s\": null, \"v\": \"a\"}\n");
  // A statement writing the static row reads it too.
  CHECK(db.Run("INSERT INTO t (p, c, st) VALUES (1, 'x', 'T') IF NOT EXISTS;") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | p | c | st | a    | l    | m    | n | s    | v\n"
        "-----------+---+---+----+------+------+------+---+------+---\n"
        "     False | 1 | x |  S | null | null | null | 7 | null | a\n");
  // A deleted row no longer exists.
  CHECK(db.Run("DELETE FROM t WHERE p = 1 AND c = 'x';"
               "INSERT INTO t (p, c, v) VALUES (1, 'x', 'c') IF NOT EXISTS;") ==
        "OK DELETE ks.t\n" + kApplied);
}

TEST_CASE("IF EXISTS applies only to a live row", "[dml][lwt]") {
  Db db;
  CHECK(db.Run("UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS;") == kNotApplied);
  CHECK(db.Json("t").empty());
  CHECK(db.Run("INSERT INTO t (p, c) VALUES (1, 'x');"
               "UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS;") ==
        "OK INSERT ks.t\n" + kApplied);
  CHECK(db.Run("DELETE FROM t WHERE p = 1 AND c = 'x' IF EXISTS;") == kApplied);
  CHECK(db.Run("DELETE FROM t WHERE p = 1 AND c = 'x' IF EXISTS;") == kNotApplied);
  CHECK(db.Json("t").empty());
  // A row kept alive by an expiring cell alone stops existing with it.
  CHECK(db.Run("UPDATE t USING TTL 1 SET v = 'a' WHERE p = 2 AND c = 'y';") == "OK UPDATE ks.t\n");
  db.test().clock.AdvanceSeconds(2);
  CHECK(db.Run("UPDATE t SET n = 1 WHERE p = 2 AND c = 'y' IF EXISTS;") == kNotApplied);
}

TEST_CASE("column conditions: null, comparisons, IN and !=", "[dml][lwt]") {
  Db db;
  // An absent cell is null: `IF v = null` holds, a comparison does not.
  CHECK(db.Run("UPDATE t SET n = 1 WHERE p = 1 AND c = 'x' IF v = null;") == kApplied);
  CHECK(db.Run("UPDATE t SET n = 2 WHERE p = 1 AND c = 'x' IF v > 'a';") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | v\n"
        "-----------+------\n"
        "     False | null\n");
  CHECK(db.Run("UPDATE t SET v = 'b' WHERE p = 1 AND c = 'x' IF n = 1 AND v != 'b';") == kApplied);
  // Integers compare as numbers, text as bytes.
  CHECK(db.Run("UPDATE t SET n = 10 WHERE p = 1 AND c = 'x' IF n < 2 AND v >= 'a';") == kApplied);
  CHECK(db.Run("UPDATE t SET n = 11 WHERE p = 1 AND c = 'x' IF n < 9;") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | n\n"
        "-----------+----\n"
        "     False | 10\n");
  CHECK(db.Run("UPDATE t SET n = 12 WHERE p = 1 AND c = 'x' IF n IN (3, 10, null);") == kApplied);
  // Failed conditions show their columns in the order written, once each.
  CHECK(db.Run("UPDATE t SET n = 13 WHERE p = 1 AND c = 'x' IF v = 'b' AND n = 1 AND v != 'z';") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | v | n\n"
        "-----------+---+----\n"
        "     False | b | 12\n");
  CHECK(db.Json("t") ==
        "{\"p\": 1, \"c\": \"x\", \"st\": null, \"a\": null, \"l\": null, \"m\": null, "
        "\"n\": 12, \"s\": null, \"v\": \"b\"}\n");
  // The row does not exist: conditions fail and no values are shown.
  CHECK(db.Run("UPDATE t SET n = 1 WHERE p = 9 AND c = 'x' IF n = 1;") == kNotApplied);
}

TEST_CASE("conditions on elements, fields and whole collections", "[dml][lwt]") {
  Db db;
  db.Run(
      "INSERT INTO t (p, c, l, m, s, a) VALUES (1, 'x', [5, 6], {'k': 1}, {'b', 'a'}, "
      "{street: 'Main', city: 'Oslo'});");
  CHECK(db.Run("UPDATE t SET n = 1 WHERE p = 1 AND c = 'x' IF m['k'] = 1 AND l[1] = 6 AND "
               "a.city = 'Oslo' AND s = {'a', 'b'};") == kApplied);
  // A missing key or index is null.
  CHECK(db.Run("UPDATE t SET n = 2 WHERE p = 1 AND c = 'x' IF m['z'] = null AND l[7] = null;") ==
        kApplied);
  CHECK(db.Run("UPDATE t SET n = 3 WHERE p = 1 AND c = 'x' IF m['k'] > 1;") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | m\n"
        "-----------+----------\n"
        "     False | {'k': 1}\n");
  // An empty non-frozen collection is null.
  CHECK(db.Run("UPDATE t SET n = 4 WHERE p = 2 AND c = 'x' IF l = [];") == kApplied);
  // List order compares element by element.
  CHECK(db.Run("UPDATE t SET n = 5 WHERE p = 1 AND c = 'x' IF l < [5, 7];") == kApplied);
}

TEST_CASE("in a table without clustering columns the partition is the row", "[dml][lwt]") {
  Db db;
  REQUIRE(db.Run("CREATE TABLE u (e text PRIMARY KEY, pw text);"
                 "INSERT INTO u (e, pw) VALUES ('w', 'andy');") ==
          "OK CREATE TABLE ks.u\nOK INSERT ks.u\n");
  CHECK(db.Run("DELETE FROM u WHERE e = 'w' IF pw = 'bo';") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | pw\n"
        "-----------+------\n"
        "     False | andy\n");
  CHECK(db.Run("DELETE FROM u WHERE e = 'w' IF pw = 'andy';") == kApplied);
  CHECK(db.Run("DELETE FROM u WHERE e = 'w' IF EXISTS;") == kNotApplied);
  CHECK(db.Run("INSERT INTO u (e) VALUES ('w'); DELETE FROM u WHERE e = 'w' IF EXISTS;") ==
        "OK INSERT ks.u\n" + kApplied);
  CHECK(db.Json("u").empty());
}

TEST_CASE("static conditions read the static row", "[dml][lwt]") {
  Db db;
  CHECK(db.Run("UPDATE t SET st = 'a' WHERE p = 1 IF st = null;") == kApplied);
  CHECK(db.Run("UPDATE t SET st = 'b' WHERE p = 1 IF st = null;") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | st\n"
        "-----------+----\n"
        "     False |  a\n");
  // A static condition beside a row's: each reads its own row.
  CHECK(db.Run("UPDATE t SET v = 'v' WHERE p = 1 AND c = 'x' IF st = 'a' AND v = null;") ==
        kApplied);
  CHECK(db.Run("INSERT INTO t (p, st) VALUES (1, 'z') IF NOT EXISTS;") ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | p | c | st | a    | l    | m    | n    | s    | v\n"
        "-----------+---+---+----+------+------+------+------+------+------\n"
        "     False | 1 | x |  a | null | null | null | null | null | null\n");
}

TEST_CASE("a conditional batch applies all of its statements or none", "[dml][lwt]") {
  Db db;
  const std::string batch =
      "BEGIN BATCH\n"
      "  INSERT INTO t (p, c, v) VALUES (1, 'x', 'a') IF NOT EXISTS;\n"
      "  INSERT INTO t (p, c, v) VALUES (1, 'y', 'b');\n"
      "  UPDATE t SET st = 's' WHERE p = 1;\n"
      "APPLY BATCH;";
  CHECK(db.Run(batch) == kApplied);
  CHECK(db.Run("UPDATE t SET v = 'changed' WHERE p = 1 AND c = 'y';") == "OK UPDATE ks.t\n");
  CHECK(db.Run(batch) ==
        "OUTPUT 4\n"
        "\n"
        " [applied] | p | c | st | a    | l    | m    | n    | s    | v\n"
        "-----------+---+---+----+------+------+------+------+------+---\n"
        "     False | 1 | x |  s | null | null | null | null | null | a\n");
  CHECK(db.Json("t").find("changed") != std::string::npos);  // the batch wrote nothing
  // Column conditions on two rows: the result shows the primary key first.
  CHECK(db.Run("BEGIN BATCH\n"
               "  UPDATE t SET n = 1 WHERE p = 1 AND c = 'y' IF v = 'b';\n"
               "  UPDATE t SET n = 1 WHERE p = 1 AND c = 'x' IF v = 'a';\n"
               "APPLY BATCH;") ==
        "OUTPUT 5\n"
        "\n"
        " [applied] | p | c | v\n"
        "-----------+---+---+---------\n"
        "     False | 1 | x |       a\n"
        "     False | 1 | y | changed\n");
}

TEST_CASE("conditional statements are refused as Cassandra refuses them", "[dml][lwt][errors]") {
  Db db;
  struct Case {
    const char* cql;
    const char* message;
  };
  const Case cases[] = {
      {"UPDATE c SET hits = hits + 1 WHERE p = 1 AND c = 1 IF EXISTS;",
       "line 1:52: Conditional updates are not supported on counter tables"},
      {"UPDATE t USING TIMESTAMP 5 SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS;",
       "line 1:16: Cannot provide custom timestamp for conditional updates"},
      {"BEGIN BATCH USING TIMESTAMP 5 UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS; "
       "APPLY BATCH;",
       "line 1:19: Cannot provide custom timestamp for conditional BATCH"},
      {"BEGIN BATCH UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS; "
       "UPDATE t SET v = 'a' WHERE p = 2 AND c = 'x'; APPLY BATCH;",
       "line 1:69: Batch with conditions cannot span multiple partitions"},
      {"BEGIN BATCH UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS; "
       "UPDATE r SET v = 1 WHERE p = 1 AND c1 = 1 AND c2 = 1; APPLY BATCH;",
       "line 1:69: Batch with conditions cannot span multiple tables"},
      {"BEGIN BATCH UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF EXISTS; "
       "INSERT INTO t (p, c) VALUES (1, 'x') IF NOT EXISTS; APPLY BATCH;",
       "line 1:106: Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row"},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF c = 'x';",
       "line 1:49: PRIMARY KEY column 'c' cannot have IF conditions"},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF s['a'] = 1;",
       "line 1:49: Invalid element access syntax for set column s"},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF v['a'] = 1;",
       "line 1:49: Invalid element access syntax for non-collection column v"},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF a.zip = 1;",
       "line 1:49: Unknown field zip for column a"},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF v < null;",
       "line 1:51: Invalid comparison with null for operator \"<\""},
      {"UPDATE t SET v = 'a' WHERE p = 1 AND c = 'x' IF nosuch = 1;",
       "line 1:49: Undefined column name nosuch in table ks.t"},
      {"UPDATE t SET st = 'a' WHERE p = 1 IF v = 'a';",
       "line 1:38: Some clustering keys are missing: c"},
      {"DELETE FROM t WHERE p = 1 IF v = 'a';",
       "line 1:30: DELETE statements must restrict all PRIMARY KEY columns with equality relations "
       "in order to use IF condition on non static columns"},
      {"DELETE FROM t WHERE p = 1 IF EXISTS;",
       "line 1:27: IF EXISTS on a partition or range deletion is not supported by cellfs"},
  };
  for (const Case& c : cases) {
    INFO(c.cql);
    CHECK(db.Run(c.cql) == "ERROR " + std::string(c.message) + "\n");
  }
  CHECK(db.Json("t").empty());
  CHECK(db.Json("r").empty());
}

TEST_CASE("conditional updates of one partition from many threads are linearisable", "[dml][lwt]") {
  Db db;
  REQUIRE(db.Run("INSERT INTO t (p, c, n) VALUES (1, 'x', 0);") == "OK INSERT ks.t\n");
  // Each thread reads n and moves it on by one only if nobody did in
  // between: with the partition lock, every applied step is one increment.
  constexpr size_t kThreads = 4;
  constexpr int kTries = 150;
  std::vector<int> applied(kThreads, 0);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < kTries; ++k) {
        const int n = ReadN(db.test().engine.get());
        CqlSession session(db.test().engine.get());
        (void)session.Write("UPDATE ks.t SET n = " + std::to_string(n + 1) +
                            " WHERE p = 1 AND c = 'x' IF n = " + std::to_string(n) + ";");
        if (session.transcript().find("True") != std::string::npos) ++applied[i];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  int total = 0;
  for (int count : applied) total += count;
  CHECK(ReadN(db.test().engine.get()) == total);
  CHECK(total > 0);
}

}  // namespace
}  // namespace cellfs::fs
