// Tests for SELECT's native functions and casts (fs/cql/select_functions.h):
// Java's float and double text, the values of casts and time functions as
// Cassandra 4.x computes them (the figures of its CastFctsTest and
// TimeFctsTest), the headers cqlsh shows for them, and the refusals. The
// casts from and to varint and decimal are worked out by hand from the Java
// conversions Cassandra 5.0's CastFcts.java names (each in a comment).
#include "fs/cql/select_functions.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "fs/cql/exact_number.h"
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
  // BigDecimal.intValue() of 6.3: 6.
  CHECK(Run(db, "SELECT CAST(g AS int) FROM ks.n;") ==
        "OUTPUT 6\n\n cast(g as int)\n----------------\n              6\n\n(1 rows)\n");
}

TEST_CASE("exact numbers convert as Java's BigInteger and BigDecimal", "[select][functions]") {
  Decimal d;
  // BigDecimal.longValue() of 1E+2147483647 (scale -2147483647): 10^n has n
  // factors of 2, so its low 64 bits are 0 -- without computing 10^n.
  d.unscaled.Set(1);
  d.scale = -2147483647;
  CHECK(TruncatedLowBits(d) == 0);
  // 1E-2147483647: below 1, truncated to 0.
  d.scale = 2147483647;
  CHECK(TruncatedLowBits(d) == 0);
  // -123.456 (unscaled -123456, scale 3): toward zero, -123.
  d.unscaled.Set(-123456);
  d.scale = 3;
  CHECK(TruncatedLowBits(d) == -123);
  // 5E+20 = 500000000000000000000; mod 2^64 (18446744073709551616) it is
  // 500000000000000000000 - 27 * 2^64 = 1937910009842106368.
  d.unscaled.Set(5);
  d.scale = -20;
  CHECK(TruncatedLowBits(d) == 1937910009842106368);
  // 2^53 + 3 lies halfway between the doubles 2^53 + 2 and 2^53 + 4: ties
  // to even gives 2^53 + 4 (mpz_get_d's truncation would give 2^53 + 2).
  d.unscaled.Set((int64_t{1} << 53) + 3);
  d.scale = 0;
  CHECK(DoubleOfDecimal(d) == 9007199254740996.0);
  // 2^24 + 3 as float: halfway between 2^24 + 2 and 2^24 + 4, to even: + 4.
  d.unscaled.Set((int64_t{1} << 24) + 3);
  CHECK(FloatOfDecimal(d) == 16777220.0f);
  // 1 + 2^-24 + 2^-60, just above the float midpoint between 1 and
  // 1 + 2^-23: rounded once it is 1 + 2^-23; through double it would be
  // 1 + 2^-24, then a tie to even 1.0f.
  mpz_set_str(d.unscaled.get(), "1000000059604644776257986737988403547205962240695953369140625",
              10);
  d.scale = 60;
  CHECK(FloatOfDecimal(d) == 1.0f + 0x1p-23f);
  // new BigDecimal(Float.toString(0.1f)) is 0.1 (unscaled 1, scale 1);
  // BigDecimal.valueOf(1e300) reads "1.0E300": unscaled 10, scale -299.
  REQUIRE(DecimalOfFloat(0.1f, &d));
  CHECK((mpz_cmp_si(d.unscaled.get(), 1) == 0 && d.scale == 1));
  REQUIRE(DecimalOfDouble(1e300, &d));
  CHECK((mpz_cmp_si(d.unscaled.get(), 10) == 0 && d.scale == -299));
  CHECK_FALSE(DecimalOfFloat(1.0f / 0.0f, &d));
  CHECK_FALSE(DecimalOfDouble(0.0 / 0.0, &d));
}

constexpr char kExactSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "CREATE TABLE ks.x (k int PRIMARY KEY, v varint, d decimal, f float, g double);\n"
    "INSERT INTO ks.x (k, v, d, f, g) VALUES (1, 4294967551, -7.9, 0.1, 1e300);\n"
    "INSERT INTO ks.x (k, v, d, f, g) VALUES (2, -4294967297, 123456789012345678901234.56, "
    "1e10, -0.0);\n"
    "INSERT INTO ks.x (k, v, d, f, g) VALUES (3, "
    "1606938044258990275541962092341162602522202993782792835301376, 1E+400, NaN, -Infinity);\n"
    "INSERT INTO ks.x (k, v, d, f, g) VALUES (4, 9007199254740995, "
    "-18446744073709551617.9, -2.5, NaN);\n";

TEST_CASE("casts from and to varint and decimal follow Java's conversions", "[select][functions]") {
  TestEngine db;
  REQUIRE(Run(db, kExactSchema).find("ERROR") == std::string::npos);
  // varint 4294967551 = 2^32 + 255: BigInteger.intValue() keeps the low 32
  // bits, 255; byteValue() = (byte) 255 = -1; shortValue() 255; longValue()
  // all of it. decimal -7.9: BigDecimal.intValue() truncates toward zero,
  // -7; BigInteger.valueOf(longValue()) -7. float 0.1 to decimal:
  // new BigDecimal(Float.toString(0.1f)) = 0.1. double 1e300 to varint:
  // (long) 1e300 saturates at Long.MAX_VALUE; to decimal
  // BigDecimal.valueOf: "1.0E300", which cqlsh (Python's Decimal) prints
  // 1.0E+300.
  CHECK(Run(db,
            "SELECT CAST(v AS int) AS vi, CAST(v AS tinyint) AS vt, CAST(v AS smallint) AS vs, "
            "CAST(v AS bigint) AS vb, CAST(d AS int) AS di, CAST(d AS varint) AS dv, "
            "CAST(f AS decimal) AS fd, CAST(g AS varint) AS gv, CAST(g AS decimal) AS gd "
            "FROM ks.x WHERE k = 1;") ==
        "OUTPUT 6\n"
        "\n"
        " vi  | vt | vs  | vb         | di | dv | fd  | gv                  | gd\n"
        "-----+----+-----+------------+----+----+-----+---------------------+----------\n"
        " 255 | -1 | 255 | 4294967551 | -7 | -7 | 0.1 | 9223372036854775807 | 1.0E+300\n"
        "\n"
        "(1 rows)\n");
  // varint -4294967297 = -(2^32 + 1): low 32 bits 0xFFFFFFFF, int -1, tinyint
  // -1; to decimal exact. decimal 123456789012345678901234.56: truncated
  // 123456789012345678901234 = 6693 * 2^64 - 7269072992350064654, so
  // longValue() -7269072992350064654 (also the varint), intValue() its low
  // 32 bits 1821814770, shortValue() -20494; doubleValue() 1.2345678901234569E23
  // (cqlsh: 1.2346e+23). float 1e10 to decimal: "1.0E10", cqlsh 1.0E+10.
  // double -0.0 to decimal: "-0.0" reads as 0.0 (BigDecimal has no -0).
  CHECK(Run(db,
            "SELECT CAST(v AS int) AS vi, CAST(v AS tinyint) AS vt, CAST(v AS decimal) AS vd, "
            "CAST(d AS bigint) AS db, CAST(d AS varint) AS dv, CAST(d AS int) AS di, "
            "CAST(d AS smallint) AS ds, CAST(d AS double) AS dd, CAST(f AS decimal) AS fd, "
            "CAST(g AS decimal) AS gd FROM ks.x WHERE k = 2;") ==
        "OUTPUT 6\n"
        "\n"
        " vi | vt | vd          | db                   | dv                   | di         | ds    "
        " | dd         | fd      | gd\n"
        "----+----+-------------+----------------------+----------------------+------------+-------"
        "-+------------+---------+-----\n"
        " -1 | -1 | -4294967297 | -7269072992350064654 | -7269072992350064654 | 1821814770 | "
        "-20494 | 1.2346e+23 | 1.0E+10 | 0.0\n"
        "\n"
        "(1 rows)\n");
  // varint 2^200: to float past Float.MAX_VALUE, Infinity; to double
  // 1.6069380442589903E60 (cqlsh 1.6069e+60); int: its low 32 bits are 0.
  // decimal 1E+400: doubleValue() Infinity, longValue() 0 (10^400 has 400
  // factors of 2). float NaN to varint: (long) NaN = 0; to int 0. double
  // -Infinity to varint: Long.MIN_VALUE.
  CHECK(Run(db,
            "SELECT CAST(v AS float) AS vf, CAST(v AS double) AS vd, CAST(v AS int) AS vi, "
            "CAST(d AS double) AS dd, CAST(d AS float) AS df, CAST(d AS bigint) AS db, "
            "CAST(f AS varint) AS fv, CAST(f AS int) AS fi, CAST(g AS varint) AS gv "
            "FROM ks.x WHERE k = 3;") ==
        "OUTPUT 6\n"
        "\n"
        " vf       | vd         | vi | dd       | df       | db | fv | fi | gv\n"
        "----------+------------+----+----------+----------+----+----+----+----------------------\n"
        " Infinity | 1.6069e+60 |  0 | Infinity | Infinity |  0 |  0 |  0 | -9223372036854775808\n"
        "\n"
        "(1 rows)\n");
  // varint 2^53 + 3 to double: halfway, ties to even 2^53 + 4, whose
  // Double.toString is 9.007199254740996E15. decimal -18446744073709551617.9
  // truncated is -(2^64 + 1), whose low 64 bits are all ones: -1. float
  // -2.5 to varint: (long) -2.5 = -2; to decimal "-2.5".
  CHECK(Run(db,
            "SELECT CAST(CAST(v AS double) AS text) AS vd, CAST(d AS varint) AS dv, "
            "CAST(d AS bigint) AS db, CAST(f AS varint) AS fv, CAST(f AS decimal) AS fd "
            "FROM ks.x WHERE k = 4;") ==
        "OUTPUT 6\n"
        "\n"
        " vd                   | dv | db | fv | fd\n"
        "----------------------+----+----+----+------\n"
        " 9.007199254740996E15 | -1 | -1 | -2 | -2.5\n"
        "\n"
        "(1 rows)\n");
  // NaN and the infinities to decimal: Java's BigDecimal refuses them
  // (NumberFormatException); cellfs words it as its other function errors.
  CHECK(Run(db, "SELECT CAST(f AS decimal) FROM ks.x WHERE k = 3;") ==
        "ERROR In call to function system.castasdecimal, value NaN cannot be converted to "
        "decimal\n");
  CHECK(Run(db, "SELECT CAST(g AS decimal) FROM ks.x WHERE k = 3;") ==
        "ERROR In call to function system.castasdecimal, value -Infinity cannot be converted to "
        "decimal\n");
  // Counter is no target of any cast.
  CHECK(Run(db, "SELECT CAST(v AS counter) FROM ks.x;") ==
        "ERROR line 1:1: v cannot be cast to counter\n");
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
