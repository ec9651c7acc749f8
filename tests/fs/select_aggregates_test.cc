// Tests for SELECT's native aggregates (fs/cql/select_aggregates.h,
// numeric_aggregates.h, select_aggregation.h): count(c), min, max, sum and
// avg as Cassandra 4.x/5.0's AggregateFcts computes them, checked against
// figures computed here from the inserted values, printed as cqlsh prints
// them; aggregates mixed with columns and functions, JSON, and refusals.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "fs/cql/select_functions.h"
#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::TestEngine;

std::string Run(TestEngine& db, const std::string& script) {
  CqlSession session(db.engine.get());
  (void)session.Write(script);
  (void)session.Finish();
  return session.transcript();
}

// The inserted values of ks.n's integer columns, rows c = 1..4 (nullopt:
// null), for the model below.
using Column = std::vector<std::optional<int64_t>>;
const Column kTinyint = {100, 100, -7, std::nullopt};
const Column kSmallint = {30000, 30000, std::nullopt, std::nullopt};
const Column kInt = {2147483647, 1, 5, std::nullopt};
const Column kBigint = {1, 2, -8, std::nullopt};

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "CREATE TABLE ks.n (k int, c int, ti tinyint, si smallint, i int, bi bigint, vi varint, "
    "f float, d double, de decimal, t text, ts timestamp, u uuid, l list<int>, "
    "PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC);\n"
    "INSERT INTO ks.n (k, c, ti, si, i, bi, vi, f, d, de, t, ts, u) VALUES (1, 1, 100, 30000, "
    "2147483647, 1, 1000000000000000000000000000000, 1.5, 0.1, 1.5, 'pear', "
    "'2020-01-02 00:00:00+0000', 00000000-0000-4000-8000-000000000002) USING TIMESTAMP 1000;\n"
    "INSERT INTO ks.n (k, c, ti, si, i, bi, vi, f, d, de, t, ts, u) VALUES (1, 2, 100, 30000, 1, "
    "2, 1000000000000000000000000000001, 2.25, 0.2, 2.25, 'apple', '2021-06-01 12:00:00+0000', "
    "00000000-0000-4000-8000-000000000001) USING TIMESTAMP 3000 AND TTL 500;\n"
    "INSERT INTO ks.n (k, c, ti, i, bi, vi, d, t, ts, u) VALUES (1, 3, -7, 5, -8, -2, 0.3, "
    "'zebra', '2019-12-31 23:59:59+0000', 00000000-0000-4000-8000-000000000003) "
    "USING TIMESTAMP 2000 AND TTL 100;\n"
    "INSERT INTO ks.n (k, c) VALUES (1, 4) USING TIMESTAMP 1500;\n";

// The model: Cassandra's sum wraps at the type's width; avg divides the
// exact sum by the count of non-null values, truncated, then narrows.
int64_t Count(const Column& column) {
  int64_t n = 0;
  for (const auto& v : column) n += v.has_value();
  return n;
}
int64_t Wrap(int64_t value, int bits) {
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t low = static_cast<uint64_t>(value) & mask;
  if (bits < 64 && (low >> (bits - 1)) != 0) low |= ~mask;  // sign-extended
  return static_cast<int64_t>(low);
}
int64_t Sum(const Column& column, int bits) {
  int64_t sum = 0;
  for (const auto& v : column) sum = Wrap(sum + v.value_or(0), bits);
  return sum;
}
int64_t Avg(const Column& column, int bits) {
  int64_t exact = 0;  // fits: the values are small enough
  for (const auto& v : column) exact += v.value_or(0);
  return Count(column) == 0 ? 0 : Wrap(exact / Count(column), bits);
}
std::string N(int64_t v) { return std::to_string(v); }

std::string DoubleBytes(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, bits >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(bits);
  return out;
}

TEST_CASE("the integer aggregates wrap and divide as Java's int arithmetic does",
          "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  // The figures below, from the model.
  CHECK(N(Count(kInt)) == "3");
  CHECK(N(Sum(kTinyint, 8)) == "-63");       // 193 wraps
  CHECK(N(Avg(kTinyint, 8)) == "64");        // 193 / 3
  CHECK(N(Sum(kSmallint, 16)) == "-5536");   // 60000 wraps
  CHECK(N(Avg(kSmallint, 16)) == "30000");   // the exact sum, then divided
  CHECK(N(Sum(kInt, 32)) == "-2147483643");  // 2147483653 wraps
  CHECK(N(Avg(kInt, 32)) == "715827884");    // 2147483653 / 3
  CHECK(N(Avg(kBigint, 64)) == "-1");        // -5 / 3 truncates toward zero
  CHECK(N(Sum(kBigint, 64)) == "-5");
  CHECK(Run(db,
            "SELECT count(i), sum(ti), avg(ti), sum(si), avg(si), sum(i), avg(i), sum(bi), "
            "avg(bi) FROM ks.n WHERE k = 1;") ==
        "OUTPUT 6\n"
        "\n"
        " system.count(i) | system.sum(ti) | system.avg(ti) | system.sum(si) | system.avg(si) | "
        "system.sum(i) | system.avg(i) | system.sum(bi) | system.avg(bi)\n"
        "-----------------+----------------+----------------+----------------+----------------+--"
        "-------------+---------------+----------------+----------------\n"
        "               3 |            -63 |             64 |          -5536 |          30000 | "
        "  -2147483643 |     715827884 |             -5 |             -1\n"
        "\n"
        "(1 rows)\n");
  // avg of bigints past the long range: Cassandra's BigInteger fallback.
  // (2^63 - 1) * 2 + 1 = 2^64 - 1; / 3 = 6148914691236517205; the sum wraps to -1.
  REQUIRE(Run(db,
              "INSERT INTO ks.n (k, c, bi) VALUES (2, 1, 9223372036854775807);\n"
              "INSERT INTO ks.n (k, c, bi) VALUES (2, 2, 9223372036854775807);\n"
              "INSERT INTO ks.n (k, c, bi) VALUES (2, 3, 1);\n")
              .find("ERROR") == std::string::npos);
  CHECK(Run(db, "SELECT sum(bi), avg(bi) FROM ks.n WHERE k = 2;") ==
        "OUTPUT 6\n"
        "\n"
        " system.sum(bi) | system.avg(bi)\n"
        "----------------+---------------------\n"
        "             -1 | 6148914691236517205\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("varint, decimal, float and double aggregates are Cassandra's", "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  // varint: exact; avg truncated (10^30 * 2 - 1) / 3.
  // decimal: sum 1.5 + 2.25 = 3.75; avg is the running mean over the rows
  // in clustering order (c DESC: 2.25 first): 2.25, then
  // 2.25 + (1.5 - 2.25) / 2 with the quotient at scale 2, HALF_EVEN:
  // -0.375 -> -0.38, so 1.87 (not 1.875).
  CHECK(Run(db, "SELECT sum(vi), avg(vi), sum(de), avg(de) FROM ks.n WHERE k = 1;") ==
        "OUTPUT 6\n"
        "\n"
        " system.sum(vi)                  | system.avg(vi)                 | system.sum(de) | "
        "system.avg(de)\n"
        "---------------------------------+--------------------------------+----------------+---"
        "-------------\n"
        " 1999999999999999999999999999999 | 666666666666666666666666666666 |           3.75 |   "
        "        1.87\n"
        "\n"
        "(1 rows)\n");
  // The other order: 1.5, then 1.5 + 0.375 -> 0.38, so 1.88.
  REQUIRE(Run(db,
              "INSERT INTO ks.n (k, c, de) VALUES (4, 2, 1.5);\n"
              "INSERT INTO ks.n (k, c, de) VALUES (4, 1, 2.25);\n")
              .find("ERROR") == std::string::npos);
  CHECK(Run(db, "SELECT avg(de) FROM ks.n WHERE k = 4;") ==
        "OUTPUT 6\n"
        "\n"
        " system.avg(de)\n"
        "----------------\n"
        "           1.88\n"
        "\n"
        "(1 rows)\n");
  // float: the sum of 1.5 and 2.25 in double, narrowed; avg 3.75 / 2.
  // double: Kahan's sum of 0.1, 0.2 and 0.3 is the double nearest their
  // exact sum, 0.6 (a plain double sum gives 0.6000000000000001); avg is
  // that divided by 3 in double.
  const double exact =
      static_cast<double>(static_cast<long double>(0.1) + static_cast<long double>(0.2) +
                          static_cast<long double>(0.3));
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(exact)) == "0.6");
  CHECK(JavaFloatingText(TypeKind::kDouble, DoubleBytes(exact / 3)) == "0.19999999999999998");
  CHECK(
      Run(db,
          "SELECT sum(f), avg(f), cast(sum(d) as text), cast(avg(d) as text) FROM ks.n WHERE "
          "k = 1;") ==
      "OUTPUT 6\n"
      "\n"
      " system.sum(f) | system.avg(f) | cast(system.sum(d) as text) | cast(system.avg(d) as "
      "text)\n"
      "---------------+---------------+-----------------------------+-------------------------"
      "----\n"
      "          3.75 |         1.875 |                         0.6 |         0.19999999999999998\n"
      "\n"
      "(1 rows)\n");
}

TEST_CASE("a double avg past the double range divides Java's decimal text exactly",
          "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  // Read in clustering order (c DESC): 1e308, 1e308, -1e308. The second
  // overflows the double sum, so Cassandra sums BigDecimal.valueOf of each:
  // 1.0E308 + 1.0E308 - 1.0E308 = 1.0E308, unscaled 10 at scale -307, and
  // divides by 3 at that scale, HALF_EVEN: 3 at scale -307, 3.0E307 (not
  // 3.333E307). The Kahan sum is NaN there; the plain sum's infinity wins.
  REQUIRE(Run(db,
              "INSERT INTO ks.n (k, c, d) VALUES (3, 3, 1e308);\n"
              "INSERT INTO ks.n (k, c, d) VALUES (3, 2, 1e308);\n"
              "INSERT INTO ks.n (k, c, d) VALUES (3, 1, -1e308);\n")
              .find("ERROR") == std::string::npos);
  CHECK(Run(db,
            "SELECT cast(avg(d) as text) AS a, cast(sum(d) as text) AS s FROM ks.n WHERE "
            "k = 3;") ==
        "OUTPUT 6\n"
        "\n"
        " a       | s\n"
        "---------+----------\n"
        " 3.0E307 | Infinity\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("counters aggregate as bigints", "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  const Column hits = {5, -3, 10};
  REQUIRE(Run(db,
              "CREATE TABLE ks.cn (k int, c int, v counter, PRIMARY KEY (k, c));\n"
              "UPDATE ks.cn SET v = v + 5 WHERE k = 1 AND c = 1;\n"
              "UPDATE ks.cn SET v = v - 3 WHERE k = 1 AND c = 2;\n"
              "UPDATE ks.cn SET v = v + 10 WHERE k = 1 AND c = 3;\n")
              .find("ERROR") == std::string::npos);
  CHECK(N(Sum(hits, 64)) == "12");
  CHECK(N(Avg(hits, 64)) == "4");
  CHECK(Run(db, "SELECT sum(v), avg(v), min(v), max(v), count(v) FROM ks.cn;") ==
        "OUTPUT 6\n"
        "\n"
        " system.sum(v) | system.avg(v) | system.min(v) | system.max(v) | system.count(v)\n"
        "---------------+---------------+---------------+---------------+-----------------\n"
        "            12 |             4 |            -3 |            10 |               3\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("aggregates over no rows are 0 or null, and nulls are skipped", "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  CHECK(Run(db,
            "SELECT count(*), count(i), min(i), max(t), sum(i), avg(de), sum(vi), k FROM ks.n "
            "WHERE k = 9;") ==
        "OUTPUT 6\n"
        "\n"
        " count | system.count(i) | system.min(i) | system.max(t) | system.sum(i) | "
        "system.avg(de) | system.sum(vi) | k\n"
        "-------+-----------------+---------------+---------------+---------------+-------------"
        "---+----------------+------\n"
        "     0 |               0 |          null |          null |             0 |              "
        "0 |              0 | null\n"
        "\n"
        "(1 rows)\n");
  // Row c = 4 holds no value: count(*) counts it, count(c) and the rest skip it.
  CHECK(Run(db, "SELECT count(*), count(si), count(f), count(k) FROM ks.n;") ==
        "OUTPUT 6\n"
        "\n"
        " count | system.count(si) | system.count(f) | system.count(k)\n"
        "-------+------------------+-----------------+-----------------\n"
        "     4 |                2 |               2 |               4\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("min and max follow each type's CQL order", "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  // c is a DESC clustering column: max is still the largest value.
  CHECK(Run(db,
            "SELECT min(c), max(c), min(t), max(t), min(ts), max(ts), min(u), max(u), min(i), "
            "max(ti) FROM ks.n WHERE k = 1;") ==
        "OUTPUT 6\n"
        "\n"
        " system.min(c) | system.max(c) | system.min(t) | system.max(t) | system.min(ts)        "
        "          | system.max(ts)                  | system.min(u)                        | "
        "system.max(u)                        | system.min(i) | system.max(ti)\n"
        "---------------+---------------+---------------+---------------+------------------------"
        "---------+---------------------------------+--------------------------------------+----"
        "----------------------------------+---------------+----------------\n"
        "             1 |             4 |         apple |         zebra | 2019-12-31 "
        "23:59:59.000000+0000 | 2021-06-01 12:00:00.000000+0000 | "
        "00000000-0000-4000-8000-000000000001 | 00000000-0000-4000-8000-000000000003 |        "
        "     1 |            100\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("aggregates mix with columns, functions, writetime, ttl, aliases and JSON",
          "[select][aggregates]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  // The plain columns show the first row read: c DESC, so c = 4.
  CHECK(Run(db,
            "SELECT k, c, max(i) AS top, count(*) AS n, max(writetime(i)), min(ttl(i)), "
            "count(ttl(i)), cast(max(t) as ascii) FROM ks.n WHERE k = 1;") ==
        "OUTPUT 6\n"
        "\n"
        " k | c | top        | n | system.max(writetime(i)) | system.min(ttl(i)) | "
        "system.count(ttl(i)) | cast(system.max(t) as ascii)\n"
        "---+---+------------+---+--------------------------+--------------------+-------------"
        "---------+------------------------------\n"
        " 1 | 4 | 2147483647 | 4 |                     3000 |                100 |             "
        "       2 |                        zebra\n"
        "\n"
        "(1 rows)\n");
  CHECK(Run(db, "SELECT JSON count(i), max(t), avg(de) AS mean, k FROM ks.n WHERE k = 1;") ==
        "OUTPUT 1\n"
        "{\"system.count(i)\": 3, \"system.max(t)\": \"zebra\", \"mean\": 1.87, \"k\": 1}\n");
  // LIMIT bounds the result (one row), not the rows aggregated: all four
  // rows count, and 2147483647 + 1 + 5 wraps as a Java int.
  CHECK(Run(db, "SELECT count(*), sum(i) FROM ks.n WHERE k = 1 LIMIT 2;") ==
        "OUTPUT 6\n"
        "\n"
        " count | system.sum(i)\n"
        "-------+---------------\n"
        "     4 |   -2147483643\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("aggregates are refused in Cassandra's words", "[select][aggregates][errors]") {
  TestEngine db;
  REQUIRE(Run(db, kSchema).find("ERROR") == std::string::npos);
  CHECK(Run(db, "SELECT sum(t) FROM ks.n;") ==
        "ERROR line 1:1: Invalid call to function sum, none of its type signatures match (known "
        "type signatures: system.sum : (tinyint) -> tinyint, system.sum : (smallint) -> smallint, "
        "system.sum : (int) -> int, system.sum : (bigint) -> bigint, system.sum : (float) -> "
        "float, system.sum : (double) -> double, system.sum : (decimal) -> decimal, system.sum : "
        "(varint) -> varint, system.sum : (counter) -> counter)\n");
  CHECK(Run(db, "SELECT avg(ts) FROM ks.n;")
            .starts_with("ERROR line 1:1: Invalid call to function avg, none of its type "
                         "signatures match (known "
                         "type signatures: system.avg : (tinyint) -> tinyint, "));
  CHECK(Run(db, "SELECT max(sum(i)) FROM ks.n;") ==
        "ERROR line 1:1: aggregate functions cannot be used as arguments of aggregate functions\n");
  CHECK(Run(db, "SELECT max(i, t) FROM ks.n;")
            .starts_with("ERROR line 1:1: Invalid call to function max, none of its type "
                         "signatures match (known type signatures: system.max : (ascii) -> "
                         "ascii, system.max : (bigint) -> bigint, "));
  CHECK(Run(db, "SELECT max(i) FROM ks.n PER PARTITION LIMIT 1;") ==
        "ERROR line 1:1: PER PARTITION LIMIT is not allowed with aggregate queries.\n");
  CHECK(Run(db, "SELECT 1 FROM ks.n;") ==
        "ERROR line 1:1: Cannot infer type for term 1 in selection clause (try using a cast to "
        "force a type)\n");
  CHECK(Run(db, "SELECT count(l) FROM ks.n;") ==
        "ERROR line 1:1: the aggregate count() of a list<int> value is not supported by cellfs "
        "yet\n");
}

}  // namespace
}  // namespace cellfs::fs
