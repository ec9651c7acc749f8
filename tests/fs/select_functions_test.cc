// Tests for SELECT's native functions and casts (fs/cql/select_functions.h):
// Java's float and double text, the values of casts and time functions as
// Cassandra 4.x computes them (the figures of its CastFctsTest and
// TimeFctsTest), the headers cqlsh shows for them, and the refusals.
#include "fs/cql/select_functions.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::TestEngine;

std::string FloatBytes(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  std::string out(4, '\0');
  for (int i = 3; i >= 0; --i, bits >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(bits);
  return out;
}

std::string DoubleBytes(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, bits >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(bits);
  return out;
}

TEST_CASE("float and double print as Java's toString prints them", "[select][functions]") {
  CHECK(JavaFloatingText(TypeKind::kFloat, FloatBytes(5.2f)) == "5.2");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(5.2f)) == "5.199999809265137");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(1.0)) == "1.0");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(100.0)) == "100.0");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(0.001)) == "0.001");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(1e-4)) == "1.0E-4");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(1234567.5)) == "1234567.5");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(1e7)) == "1.0E7");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(-12345678.9)) == "-1.23456789E7");
  CHECK(JavaFloatingText(TypeKind::kFloat, FloatBytes(1e10f)) == "1.0E10");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(-0.0)) == "-0.0");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(0.0)) == "0.0");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(-1.0 / 0.0)) == "-Infinity");
  CHECK(JavaFloatingText(TypeKind::kFloat, FloatBytes(0.0f / 0.0f)) == "NaN");
}

// The transcript of `script` run after the schema, in a session of its own.
std::string Run(TestEngine& db, const std::string& script) {
  CqlSession session(db.engine.get());
  (void)session.Write(script);
  (void)session.Finish();
  return session.transcript();
}

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "CREATE TABLE ks.n (a tinyint PRIMARY KEY, b smallint, c int, d bigint, e float, f double, "
    "g decimal, h varint, i int);\n"
    "INSERT INTO ks.n (a, b, c, d, e, f, g, h) VALUES (1, 2, 3, 4, 5.2, 6.3, 6.3, 4);\n"
    "CREATE TABLE ks.t (a timeuuid PRIMARY KEY, b timestamp, c date, d time);\n"
    "INSERT INTO ks.t (a, b, c, d) VALUES (maxTimeuuid('2015-05-21 11:03:02.123+0000'), "
    "'2015-05-21 11:03:02+0000', '2015-05-21', '11:03:02');\n";

TEST_CASE("casts convert as Cassandra's CastFcts do", "[select][functions]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  CHECK(Run(db,
            "SELECT CAST(a AS int), CAST(b AS tinyint), CAST(e AS int), CAST(f AS tinyint), "
            "CAST(i AS int) FROM ks.n;") ==
        "OUTPUT 6\n"
        "\n"
        " cast(a as int) | cast(b as tinyint) | cast(e as int) | cast(f as tinyint) | cast(i as "
        "int)\n"
        "----------------+--------------------+----------------+--------------------+--------------"
        "--\n"
        "              1 |                  2 |              5 |                  6 |           "
        "null\n"
        "\n"
        "(1 rows)\n");
  // To text: Java's toString of the value; a float widened to double shows
  // its binary value, as in Cassandra.
  CHECK(Run(db,
            "SELECT CAST(e AS text), CAST(g AS text), CAST(CAST(e AS double) AS text) AS w, "
            "CAST(CAST(c AS double) AS text) AS x, CAST(c AS decimal), CAST(d AS varint) "
            "FROM ks.n;") ==
        "OUTPUT 6\n"
        "\n"
        " cast(e as text) | cast(g as text) | w                 | x   | cast(c as decimal) | "
        "cast(d as varint)\n"
        "-----------------+-----------------+-------------------+-----+--------------------+-"
        "------------------\n"
        "             5.2 |             6.3 | 5.199999809265137 | 3.0 |                  3 |     "
        "            4\n"
        "\n"
        "(1 rows)\n");
  CHECK(Run(db,
            "SELECT CAST(a AS timestamp), CAST(b AS date), CAST(b AS text), CAST(c AS text), "
            "CAST(d AS text) FROM ks.t;") ==
        "OUTPUT 6\n"
        "\n"
        " cast(a as timestamp)            | cast(b as date) | cast(b as text)          | "
        "cast(c as text) | cast(d as text)\n"
        "---------------------------------+-----------------+--------------------------+------"
        "-----------+--------------------\n"
        " 2015-05-21 11:03:02.123000+0000 |      2015-05-21 | 2015-05-21T11:03:02.000Z |      "
        "2015-05-21 | 11:03:02.000000000\n"
        "\n"
        "(1 rows)\n");
  CHECK(Run(db, "SELECT CAST(c AS boolean) FROM ks.n;") ==
        "ERROR line 1:1: c cannot be cast to boolean\n");
  CHECK(Run(db, "SELECT CAST(g AS int) FROM ks.n;") ==
        "ERROR line 1:1: CAST from decimal to int is not supported by cellfs yet\n");
}

TEST_CASE("time and blob functions compute Cassandra's values", "[select][functions]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  CHECK(Run(db,
            "SELECT toDate(a), toUnixTimestamp(b), unixTimestampOf(a), toUnixTimestamp(c), "
            "toDate(b) FROM ks.t;") ==
        "OUTPUT 6\n"
        "\n"
        " system.todate(a) | system.tounixtimestamp(b) | system.unixtimestampof(a) | "
        "system.tounixtimestamp(c) | system.todate(b)\n"
        "------------------+---------------------------+---------------------------+-------------"
        "--------------+------------------\n"
        "       2015-05-21 |             1432206182000 |             1432206182123 |             "
        "1432166400000 |       2015-05-21\n"
        "\n"
        "(1 rows)\n");
  CHECK(Run(db, "SELECT toTimestamp(c), dateOf(a) FROM ks.t;") ==
        "OUTPUT 6\n"
        "\n"
        " system.totimestamp(c)           | system.dateof(a)\n"
        "---------------------------------+---------------------------------\n"
        " 2015-05-21 00:00:00.000000+0000 | 2015-05-21 11:03:02.123000+0000\n"
        "\n"
        "(1 rows)\n");
  // minTimeuuid of a constant: the smallest timeuuid of that millisecond.
  CHECK(Run(db, "SELECT minTimeuuid('2015-05-21 11:03:02.123+0000') AS m FROM ks.t;") ==
        "OUTPUT 6\n"
        "\n"
        " m\n"
        "--------------------------------------\n"
        " f2cf7bb0-ffa8-11e4-8080-808080808080\n"
        "\n"
        "(1 rows)\n");
  CHECK(Run(db, "SELECT intAsBlob(c), blobAsInt(intAsBlob(c)) AS back FROM ks.n;") ==
        "OUTPUT 6\n"
        "\n"
        " system.intasblob(c) | back\n"
        "---------------------+------\n"
        "          0x00000003 |    3\n"
        "\n"
        "(1 rows)\n");
  // A function's refusal met while reading ends the result.
  CHECK(Run(db, "SELECT blobAsInt(0x0102) FROM ks.n;") ==
        "ERROR In call to function system.blobasint, value 0x0102 is not a valid binary "
        "representation for type int\n");
  // now() and toTimestamp(now()) are today's.
  const std::string now = Run(db, "SELECT toDate(now()) FROM ks.t;");
  CHECK(now.find("system.todate(system.now())") != std::string::npos);
  CHECK(now.find(" 20") != std::string::npos);
}

TEST_CASE("function calls are refused in Cassandra's words", "[select][functions][errors]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  CHECK(Run(db, "SELECT toDate(c) FROM ks.n;") ==
        "ERROR line 1:1: Invalid call to function todate, none of its type signatures match "
        "(known type signatures: system.todate : (timeuuid) -> date, system.todate : "
        "(timestamp) -> date)\n");
  CHECK(Run(db, "SELECT dateOf(c) FROM ks.n;") ==
        "ERROR line 1:1: Type error: c cannot be passed as argument 0 of function system.dateof "
        "of type timeuuid\n");
  CHECK(Run(db, "SELECT dateOf(c, c) FROM ks.n;") ==
        "ERROR line 1:1: Invalid number of arguments in call to function system.dateof: 1 "
        "required but 2 provided\n");
  CHECK(Run(db, "SELECT foo(c) FROM ks.n;") == "ERROR line 1:1: Unknown function 'foo'\n");
  CHECK(Run(db, "SELECT intAsBlob(d) FROM ks.n;") ==
        "ERROR line 1:1: Type error: d cannot be passed as argument 0 of function "
        "system.intasblob of type int\n");
}

}  // namespace
}  // namespace cellfs::fs
