// Tests for fs/formats/table_stats.h: counts and logical bytes, histogram
// percentiles, the widest partitions, wide-partition warnings, ring spreads
// and skew, liveness (statics, TTL), and the text and JSON renderings.
#include "fs/formats/table_stats.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "engine/store/mutation.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::Value;
using Key = std::vector<std::string>;

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.t (k text, c int, s text STATIC, v text, PRIMARY KEY (k, c));
CREATE TABLE ks.wide (k int, c int, PRIMARY KEY (k, c));
)";

struct Db : testing::TestEngine {
  Db() { Ddl(kSchema); }
  TableHandle t() { return Table("ks", "t"); }
  TableHandle wide() { return Table("ks", "wide"); }
};

std::string Int32(uint32_t v) {
  std::string out(4, '\0');
  for (size_t i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (24 - 8 * i));
  return out;
}

size_t Col(const TableHandle& table, const std::string& name) {
  const ColumnDef* column = table->def.FindColumn(name);
  REQUIRE(column != nullptr);
  return static_cast<size_t>(column - table->def.columns.data());
}

ColumnValue Set(const TableHandle& table, const std::string& name, const std::string& literal) {
  const size_t column = Col(table, name);
  return {column, Value(*table->column(column).type, literal)};
}

void Write(Engine& engine, const std::function<Status(Mutation&)>& op) {
  Mutation mutation = engine.NewMutation();
  const Status built = op(mutation);
  INFO(built.ToString());
  REQUIRE(built.ok());
  const Status applied = engine.Apply(std::move(mutation));
  INFO(applied.ToString());
  REQUIRE(applied.ok());
}

// Marker-only rows c = first..last-1 in ks.wide partition k, in batches.
void WriteWideRows(Db& db, uint32_t k, uint32_t first, uint32_t last) {
  const TableHandle wide = db.wide();
  const Key pk = {Int32(k)};
  for (uint32_t start = first; start < last; start += 1000) {
    Write(*db.engine, [&](Mutation& m) {
      for (uint32_t c = start; c < std::min(last, start + 1000); ++c) {
        const Key ck = {Int32(c)};
        if (Status s = m.Insert(wide, pk, ck, {}); !s.ok()) return s;
      }
      return Status::Ok();
    });
  }
}

TableStats Stats(Db& db, const TableHandle& table, size_t widest_count = 10) {
  TableStats stats;
  const Status computed = ComputeTableStats(db.engine->NewReadView(), table, widest_count, &stats);
  INFO(computed.ToString());
  REQUIRE(computed.ok());
  return stats;
}

std::vector<std::string> Names(const TableStats& stats) {
  std::vector<std::string> names;
  for (const PartitionSize& p : stats.widest) names.push_back(p.name);
  return names;
}

// The node owning `token` on a ring of `nodes`, by counting the slice
// boundaries ceil(i * 2^64 / nodes) at or below the token's offset.
size_t ExpectedNode(int64_t token, int nodes) {
  const uint64_t offset = static_cast<uint64_t>(token) - static_cast<uint64_t>(INT64_MIN);
  const uint64_t n = static_cast<uint64_t>(nodes);
  const uint64_t q = UINT64_MAX / n, r = UINT64_MAX % n + 1;  // 2^64 = q*n + r
  size_t node = 0;
  for (uint64_t i = 1; i < n; ++i) {
    const uint64_t boundary = i * q + (i * r + n - 1) / n;
    if (offset >= boundary) ++node;
  }
  return node;
}

TEST_CASE("counts partitions, live rows, cells and logical bytes of a table", "[table_stats]") {
  Db db;
  const TableHandle t = db.t();
  Write(*db.engine, [&](Mutation& m) {
    const Key a = {Value(*t->column(0).type, "a")}, bb = {Value(*t->column(0).type, "bb")};
    const Key c1 = {Int32(1)}, c2 = {Int32(2)}, c3 = {Int32(3)};
    Status s = m.Insert(t, a, c1, std::vector{Set(t, "v", "xy"), Set(t, "s", "hello")});
    if (s.ok()) s = m.Insert(t, a, c2, {});
    if (s.ok()) s = m.Insert(t, bb, c3, std::vector{Set(t, "v", "z")});
    return s;
  });
  const TableStats stats = Stats(db, t);
  CHECK(stats.keyspace == "ks");
  CHECK(stats.table == "t");
  CHECK(stats.partitions == 2);
  CHECK(stats.rows == 3);
  CHECK(stats.cells == 3);  // s and v in 'a', v in 'bb'
  // 'a': key 1 + static 5 + rows (4 + 2) + 4 = 16; 'bb': key 2 + 4 + 1 = 7.
  CHECK(stats.bytes == 23);
  REQUIRE(stats.widest.size() == 2);
  CHECK(stats.widest[0].name == "a");
  CHECK(stats.widest[0].rows == 2);
  CHECK(stats.widest[0].bytes == 16);
  CHECK(stats.widest[1].name == "bb");
  CHECK(stats.widest[1].bytes == 7);
  auto token = db.engine->NewReadView().Token(t, Key{Value(*t->column(0).type, "a")});
  REQUIRE(token.ok());
  CHECK(stats.widest[0].token == token.value());
  CHECK(stats.rows_per_partition.min == 1);
  CHECK(stats.rows_per_partition.max == 2);
  CHECK(stats.bytes_per_partition.max == 16);
  CHECK(stats.warnings.empty());
  CHECK(stats.wide_partitions == 0);
}

TEST_CASE("percentiles are the upper bounds of 20% buckets, with min and max exact",
          "[table_stats]") {
  Db db;
  for (uint32_t k = 1; k <= 100; ++k) WriteWideRows(db, k, 0, k);  // partition k has k rows
  const TableStats stats = Stats(db, db.wide());
  CHECK(stats.partitions == 100);
  CHECK(stats.rows == 5050);
  const Percentiles& rows = stats.rows_per_partition;
  CHECK(rows.p50 == 50);   // the 50th value, 50, is a bucket bound
  CHECK(rows.p75 == 86);   // 75 falls in (72, 86]
  CHECK(rows.p95 == 100);  // in (86, 103], never reported above the exact max
  CHECK(rows.p99 == 100);
  CHECK(rows.min == 1);
  CHECK(rows.max == 100);
  CHECK(rows.mean == Approx(50.5));  // exact: 5050 / 100
  // Bytes: 4 for the key plus 4 per row: 8, 12, ..., 404.
  const Percentiles& bytes = stats.bytes_per_partition;
  CHECK(bytes.p50 == 215);  // 204 falls in (179, 215]
  CHECK(bytes.p75 == 310);  // 304 falls in (258, 310]
  CHECK(bytes.min == 8);
  CHECK(bytes.max == 404);
  CHECK(bytes.mean == Approx(206.0));  // (8 + 404) / 2
  CHECK(stats.bytes == 4 * 100 + 4 * 5050);
}

TEST_CASE("percentiles bound the exact rank values from above within 20%", "[table_stats]") {
  Db db;
  std::mt19937 random(7);
  std::vector<uint64_t> sizes;
  for (uint32_t k = 0; k < 60; ++k) {
    const uint32_t rows = static_cast<uint32_t>(random() % 150);
    if (rows != 0) WriteWideRows(db, k, 0, rows);
    if (rows != 0) sizes.push_back(rows);
  }
  std::sort(sizes.begin(), sizes.end());
  const Percentiles p = Stats(db, db.wide()).rows_per_partition;
  CHECK(p.min == sizes.front());
  CHECK(p.max == sizes.back());
  const std::vector<std::pair<uint64_t, uint64_t>> checks = {
      {50, p.p50}, {75, p.p75}, {95, p.p95}, {98, p.p98}, {99, p.p99}};
  for (const auto& [percent, reported] : checks) {
    const size_t rank = (sizes.size() * percent + 99) / 100;  // 1-based
    const uint64_t exact = sizes[rank - 1];
    INFO(percent << "%: exact " << exact << ", reported " << reported);
    CHECK(reported >= exact);
    CHECK(reported <= std::max<uint64_t>(exact + 1, exact * 6 / 5 + 1));
    CHECK(reported <= p.max);
  }
  CHECK(p.min <= p.p50);
  CHECK(p.p50 <= p.p75);
  CHECK(p.p75 <= p.p95);
  CHECK(p.p95 <= p.p98);
  CHECK(p.p98 <= p.p99);
}

TEST_CASE("the widest partitions come by rows then bytes, at most as many as asked",
          "[table_stats]") {
  Db db;
  const TableHandle t = db.t();
  const auto write = [&](const std::string& k, uint32_t rows, const std::string& v) {
    Write(*db.engine, [&](Mutation& m) {
      for (uint32_t c = 0; c < rows; ++c) {
        const Key pk = {Value(*t->column(0).type, k)}, ck = {Int32(c)};
        if (Status s = m.Insert(t, pk, ck, std::vector{Set(t, "v", v)}); !s.ok()) {
          return s;
        }
      }
      return Status::Ok();
    });
  };
  write("three", 3, "x");
  write("five", 5, "x");
  write("five_heavy", 5, "xxxxxxxx");
  write("one", 1, "x");
  write("two", 2, "x");
  SECTION("the top three") {
    CHECK(Names(Stats(db, t, 3)) == std::vector<std::string>{"five_heavy", "five", "three"});
  }
  SECTION("more asked than there are") {
    CHECK(Names(Stats(db, t, 10)) ==
          std::vector<std::string>{"five_heavy", "five", "three", "two", "one"});
  }
  SECTION("none asked") { CHECK(Stats(db, t, 0).widest.empty()); }
}

TEST_CASE("only partitions over 100000 rows are warned about", "[table_stats]") {
  Db db;
  WriteWideRows(db, 7, 0, 100'000);
  WriteWideRows(db, 8, 0, 10);
  TableStats at_limit = Stats(db, db.wide());
  CHECK(at_limit.rows == 100'010);
  CHECK(at_limit.wide_partitions == 0);
  CHECK(at_limit.warnings.empty());
  CHECK_THAT(FormatStatsText(at_limit), Catch::Contains("Warnings: none"));

  WriteWideRows(db, 7, 100'000, 100'001);
  const TableStats over = Stats(db, db.wide());
  CHECK(over.wide_partitions == 1);
  REQUIRE(over.warnings.size() == 1);
  CHECK(over.warnings[0] == "partition '7' has 100001 rows, over the guidance of 100000");
  CHECK(over.rows_per_partition.max == 100'001);
  CHECK_THAT(FormatStatsText(over), Catch::Contains("  " + over.warnings[0] + "\n"));
}

TEST_CASE("rings split partitions and bytes by equal token slices, skew = max/mean",
          "[table_stats]") {
  Db db;
  SECTION("every partition lands on the node owning its token") {
    for (uint32_t k = 0; k < 200; ++k) WriteWideRows(db, k, 0, k % 7 + 1);
    const TableStats stats = Stats(db, db.wide(), 1000);
    REQUIRE(stats.widest.size() == 200);
    REQUIRE(stats.rings.size() == 3);
    for (const RingSpread& ring : stats.rings) {
      INFO(ring.nodes << " nodes");
      REQUIRE(ring.partitions.size() == static_cast<size_t>(ring.nodes));
      REQUIRE(ring.bytes.size() == static_cast<size_t>(ring.nodes));
      std::vector<uint64_t> partitions(ring.partitions.size()), bytes(ring.bytes.size());
      for (const PartitionSize& p : stats.widest) {
        ++partitions[ExpectedNode(p.token, ring.nodes)];
        bytes[ExpectedNode(p.token, ring.nodes)] += p.bytes;
      }
      CHECK(ring.partitions == partitions);
      CHECK(ring.bytes == bytes);
      const uint64_t most = *std::max_element(partitions.begin(), partitions.end());
      CHECK(ring.partition_skew == Approx(static_cast<double>(most) * ring.nodes / 200.0));
      const uint64_t heaviest = *std::max_element(bytes.begin(), bytes.end());
      CHECK(ring.byte_skew ==
            Approx(static_cast<double>(heaviest) * ring.nodes / static_cast<double>(stats.bytes)));
      CHECK(ring.partition_skew >= 1.0);
    }
    CHECK(stats.rings[0].nodes == 3);
    CHECK(stats.rings[1].nodes == 6);
    CHECK(stats.rings[2].nodes == 12);
  }
  SECTION("one partition is all on one node: skew = the node count") {
    WriteWideRows(db, 1, 0, 3);
    for (const RingSpread& ring : Stats(db, db.wide()).rings) {
      CHECK(ring.partition_skew == Approx(ring.nodes));
      CHECK(ring.byte_skew == Approx(ring.nodes));
    }
  }
}

TEST_CASE("the slice arithmetic puts the token space's ends on the first and last nodes",
          "[table_stats]") {
  // ExpectedNode is the test's oracle: check it on known tokens first.
  CHECK(ExpectedNode(INT64_MIN + 1, 3) == 0);
  CHECK(ExpectedNode(INT64_MAX, 3) == 2);
  CHECK(ExpectedNode(-1, 2) == 0);
  CHECK(ExpectedNode(0, 2) == 1);
  // 2^64 / 3 = 6148914691236517205.33: the second slice starts 1/3 past INT64_MIN.
  CHECK(ExpectedNode(INT64_MIN + 6148914691236517205, 3) == 0);
  CHECK(ExpectedNode(INT64_MIN + 6148914691236517206, 3) == 1);
}

TEST_CASE("an empty table gives zeros everywhere", "[table_stats]") {
  Db db;
  const TableStats stats = Stats(db, db.t());
  CHECK(stats.partitions == 0);
  CHECK(stats.rows == 0);
  CHECK(stats.cells == 0);
  CHECK(stats.bytes == 0);
  CHECK(stats.rows_per_partition.p50 == 0);
  CHECK(stats.rows_per_partition.max == 0);
  CHECK(stats.bytes_per_partition.p99 == 0);
  CHECK(stats.widest.empty());
  REQUIRE(stats.rings.size() == 3);
  for (const RingSpread& ring : stats.rings) {
    CHECK(ring.partitions == std::vector<uint64_t>(static_cast<size_t>(ring.nodes), 0));
    CHECK(ring.partition_skew == 0);
    CHECK(ring.byte_skew == 0);
  }
  const std::string text = FormatStatsText(stats);
  CHECK_THAT(text, Catch::Contains("Partitions: 0  Rows: 0  Cells: 0  Bytes: 0"));
  CHECK_THAT(text, Catch::Contains("Warnings: none"));
  CHECK(nlohmann::json::parse(FormatStatsJson(stats))["partitions"] == 0);
}

TEST_CASE("a partition of static cells only counts with no rows", "[table_stats]") {
  Db db;
  const TableHandle t = db.t();
  Write(*db.engine, [&](Mutation& m) {
    const Key pk = {Value(*t->column(0).type, "solo")};
    return m.Update(t, pk, Key{}, std::vector{Set(t, "s", "abc")});
  });
  const TableStats stats = Stats(db, t);
  CHECK(stats.partitions == 1);
  CHECK(stats.rows == 0);
  CHECK(stats.cells == 1);
  CHECK(stats.bytes == 4 + 3);
  CHECK(stats.rows_per_partition.max == 0);
  CHECK(stats.rows_per_partition.p50 == 0);
  CHECK(stats.bytes_per_partition.min == 7);
  REQUIRE(stats.widest.size() == 1);
  CHECK(stats.widest[0].name == "solo");
  CHECK(stats.widest[0].rows == 0);
}

TEST_CASE("expired rows and cells are not counted", "[table_stats]") {
  Db db;
  const TableHandle t = db.t();
  const Key gone = {Value(*t->column(0).type, "gone")};
  const Key kept = {Value(*t->column(0).type, "kept")};
  const Key c1 = {Int32(1)}, c2 = {Int32(2)};
  Write(*db.engine, [&](Mutation& m) {
    WriteAttributes ttl;
    ttl.ttl = 10;
    Status s = m.Insert(t, gone, c1, std::vector{Set(t, "v", "x")}, ttl);
    if (s.ok()) s = m.Insert(t, kept, c1, std::vector{Set(t, "v", "y")});
    if (s.ok()) s = m.Insert(t, kept, c2, {}, ttl);
    if (s.ok()) s = m.Update(t, kept, Key{}, std::vector{Set(t, "s", "tmp")}, ttl);
    return s;
  });
  const TableStats before = Stats(db, t);
  CHECK(before.partitions == 2);
  CHECK(before.rows == 3);
  CHECK(before.cells == 3);
  db.clock.AdvanceSeconds(11);
  const TableStats after = Stats(db, t);
  CHECK(after.partitions == 1);
  CHECK(after.rows == 1);
  CHECK(after.cells == 1);
  CHECK(after.bytes == 4 + 4 + 1);  // 'kept', c = 1, 'y'
  CHECK(Names(after) == std::vector<std::string>{"kept"});
}

TEST_CASE("rows the sweeper buried still count as the tombstones a read scans", "[table_stats]") {
  Db db;
  WriteWideRows(db, 1, 0, 1200);
  const TableHandle wide = db.wide();
  db.clock.AdvanceSeconds(1);
  Write(*db.engine, [&](Mutation& m) {
    for (uint32_t c = 0; c < 1100; ++c) {
      if (Status s = m.DeleteRow(wide, Key{Int32(1)}, Key{Int32(c)}); !s.ok()) return s;
    }
    return Status::Ok();
  });
  const TableStats before = Stats(db, wide);  // also hands the dead rows to the sweeper
  CHECK(before.rows == 100);
  CHECK(before.tombstones == 1100);
  REQUIRE(before.warnings.size() == 1);
  SweepStats swept;
  REQUIRE(db.engine->Sweep(&swept).ok());
  REQUIRE(swept.rows_buried == 1100);
  const TableStats after = Stats(db, wide);
  CHECK(after.rows == 100);
  CHECK(after.tombstones == 1100);
  CHECK(after.warnings == before.warnings);
  // A late write into a buried row is merged, and its tombstone counted once.
  Write(*db.engine, [&](Mutation& m) {
    WriteAttributes older;
    older.timestamp = 1;
    return m.Insert(wide, Key{Int32(1)}, Key{Int32(5)}, {}, older);
  });
  CHECK(Stats(db, wide).tombstones == 1100);
}

TEST_CASE("the text report lays out the summary, percentiles, widest and rings", "[table_stats]") {
  Db db;
  for (uint32_t k = 1; k <= 3; ++k) WriteWideRows(db, k, 0, k);
  const TableStats stats = Stats(db, db.wide());
  const std::string text = FormatStatsText(stats);
  CHECK(text.substr(0, text.find("Widest")) ==
        "Table: ks.wide\n"
        "Partitions: 3  Rows: 6  Cells: 0  Bytes: 36  Tombstones: 0  Expiring cells: 0\n"
        "\n"
        "Percentile  Rows/partition  Bytes/partition  Tombstones/partition  Expiring "
        "cells/partition\n"
        "50%         2               12               0                     0\n"
        "75%         3               16               0                     0\n"
        "95%         3               16               0                     0\n"
        "98%         3               16               0                     0\n"
        "99%         3               16               0                     0\n"
        "Min         1               8                0                     0\n"
        "Max         3               16               0                     0\n"
        "Mean        2.00            12.00            0.00                  0.00\n"
        "\n");
  CHECK_THAT(text, Catch::Contains("Widest partitions (by rows):\n  Partition  Rows  Bytes  Token\n"
                                   "  '3'        3     16     " +
                                   std::to_string(stats.widest[0].token) + "\n"));
  CHECK_THAT(text, Catch::Contains("Token spread (partitions / bytes per node, skew = max/mean):\n"
                                   "  3 nodes:  "));
  CHECK_THAT(text, Catch::Contains("  12 nodes:  "));
  CHECK_THAT(text, Catch::EndsWith("Warnings: none\n"));
}

TEST_CASE("the JSON report has the documented keys and values", "[table_stats]") {
  Db db;
  WriteWideRows(db, 1, 0, 4);
  WriteWideRows(db, 2, 0, 2);
  const TableStats stats = Stats(db, db.wide(), 1);
  const std::string text = FormatStatsJson(stats);
  REQUIRE(!text.empty());
  CHECK(text.back() == '\n');
  const nlohmann::json json = nlohmann::json::parse(text);
  for (const char* key :
       {"keyspace", "table", "partitions", "rows", "cells", "bytes", "rows_per_partition",
        "bytes_per_partition", "widest", "rings", "wide_partitions", "warnings"}) {
    INFO(key);
    CHECK(json.contains(key));
  }
  CHECK(json["keyspace"] == "ks");
  CHECK(json["table"] == "wide");
  CHECK(json["partitions"] == 2);
  CHECK(json["rows"] == 6);
  CHECK(json["bytes"] == 4 + 16 + 4 + 8);
  for (const char* key : {"p50", "p75", "p95", "p98", "p99", "min", "max", "mean"}) {
    INFO(key);
    CHECK(json["rows_per_partition"].contains(key));
    CHECK(json["bytes_per_partition"].contains(key));
  }
  CHECK(json["rows_per_partition"]["max"] == 4);
  CHECK(json["rows_per_partition"]["mean"] == 3.0);
  CHECK(json["rows_per_partition"]["min"] == 2);
  REQUIRE(json["widest"].size() == 1);
  CHECK(json["widest"][0]["name"] == "1");
  CHECK(json["widest"][0]["rows"] == 4);
  CHECK(json["widest"][0]["bytes"] == 20);
  CHECK(json["widest"][0]["token"] == stats.widest[0].token);
  REQUIRE(json["rings"].size() == 3);
  CHECK(json["rings"][1]["nodes"] == 6);
  CHECK(json["rings"][1]["partitions"].size() == 6);
  CHECK(json["rings"][1]["bytes"].size() == 6);
  CHECK(json["rings"][1]["partition_skew"].is_number());
  CHECK(json["rings"][1]["byte_skew"] == Approx(stats.rings[1].byte_skew));
  CHECK(json["wide_partitions"] == 0);
  CHECK(json["warnings"].is_array());
}

}  // namespace
}  // namespace cellfs::fs

namespace cellfs::fs {
namespace {

TEST_CASE("each index reports its distinct values, live matches and widest value",
          "[table_stats][index]") {
  Db db;
  db.Ddl("CREATE INDEX by_v ON ks.t (v); CREATE INDEX by_s ON ks.t (s);");
  const TableHandle t = db.t();
  // v: "a" on 3 rows, "b" on 1, then one "a" overwritten by "c" (its stale
  // entry must not count); s: one value per partition.
  for (int c = 0; c < 4; ++c) {
    Write(*db.engine, [&](Mutation& m) {
      const Key pk = {c < 2 ? "p" : "q"};
      const Key ck = {Int32(static_cast<uint32_t>(c))};
      const ColumnValue cells[] = {Set(t, "v", c == 3 ? "b" : "a"), Set(t, "s", pk[0] + "s")};
      return m.Insert(t, pk, ck, cells);
    });
  }
  Write(*db.engine, [&](Mutation& m) {
    const Key pk = {"p"};
    const Key ck = {Int32(0)};
    const ColumnValue cells[] = {Set(t, "v", "c")};
    return m.Update(t, pk, ck, cells);
  });
  const TableStats stats = Stats(db, db.t());
  REQUIRE(stats.indexes.size() == 2);
  const IndexStats& v = stats.indexes[0];
  CHECK(v.name == "by_v");
  CHECK(v.built);
  CHECK(v.values == 3);   // a, b, c
  CHECK(v.matches == 4);  // a twice, b, c
  CHECK(v.widest_value == "a");
  CHECK(v.widest_matches == 2);
  CHECK(!v.high_cardinality);
  const IndexStats& s = stats.indexes[1];
  CHECK(s.values == 2);   // 'ps', 'qs'
  CHECK(s.matches == 2);  // one partition each
  const std::string text = FormatStatsText(stats);
  CHECK_THAT(text, Catch::Contains("by_v (v): 3 values / 4 matches, widest a with 2"));
  const auto json = nlohmann::json::parse(FormatStatsJson(stats));
  CHECK(json["indexes"][0]["widest_value"] == "a");
}

TEST_CASE("an index with about one match per value is flagged high-cardinality",
          "[table_stats][index]") {
  Db db;
  db.Ddl("CREATE INDEX by_c ON ks.wide (c);");
  WriteWideRows(db, 1, 0, kHighCardinalityMatches);
  const TableStats stats = Stats(db, db.wide());
  REQUIRE(stats.indexes.size() == 1);
  CHECK(stats.indexes[0].values == kHighCardinalityMatches);
  CHECK(stats.indexes[0].high_cardinality);
  CHECK_THAT(FormatStatsText(stats), Catch::Contains("a high-cardinality index"));
}

}  // namespace
}  // namespace cellfs::fs

namespace cellfs::fs {
namespace {

TEST_CASE("each partition's tombstones (what a read of it scans) and expiring cells are counted",
          "[table_stats]") {
  Db db;
  const TableHandle t = db.t();
  auto key = [&](const char* k) { return Key{Value(*t->column(0).type, k)}; };
  const size_t v = Col(t, "v");
  // 'a': 1500 rows; v deleted in 1200 of them, one row deleted, one range
  // deleted: 1200 + 1 + 1 tombstones, over the warning's 1000.
  for (uint32_t start = 0; start < 1500; start += 500) {
    Write(*db.engine, [&](Mutation& m) {
      for (uint32_t c = start; c < start + 500; ++c) {
        if (Status s = m.Insert(t, key("a"), Key{Int32(c)}, std::vector{Set(t, "v", "x")});
            !s.ok()) {
          return s;
        }
      }
      return Status::Ok();
    });
  }
  Write(*db.engine, [&](Mutation& m) {
    for (uint32_t c = 0; c < 1200; ++c) {
      if (Status s = m.DeleteCells(t, key("a"), Key{Int32(c)}, std::vector{v}); !s.ok()) return s;
    }
    if (Status s = m.DeleteRow(t, key("a"), Key{Int32(1499)}); !s.ok()) return s;
    SliceSpec range;
    range.lower = ClusteringBound{{Int32(1490)}, true};
    range.upper = ClusteringBound{{Int32(1495)}, false};
    return m.DeleteRange(t, key("a"), range);
  });
  // 'b': three rows whose v expires in an hour, and one whose v expired.
  WriteAttributes hour;
  hour.ttl = 3600;
  WriteAttributes second;
  second.ttl = 1;
  Write(*db.engine, [&](Mutation& m) {
    for (uint32_t c = 0; c < 3; ++c) {
      if (Status s = m.Update(t, key("b"), Key{Int32(c)}, std::vector{Set(t, "v", "y")}, hour);
          !s.ok()) {
        return s;
      }
    }
    if (Status s = m.Insert(t, key("b"), Key{Int32(9)}, {}); !s.ok()) return s;
    return m.Update(t, key("b"), Key{Int32(9)}, std::vector{Set(t, "v", "gone")}, second);
  });
  db.clock.AdvanceSeconds(2);

  const TableStats stats = Stats(db, t);
  CHECK(stats.partitions == 2);
  CHECK(stats.tombstones == 1202 + 1);
  CHECK(stats.expiring_cells == 3);
  CHECK(stats.tombstones_per_partition.max == 1202);
  CHECK(stats.tombstones_per_partition.min == 1);  // 'b': its expired v
  CHECK(stats.tombstones_per_partition.mean == Approx(601.5));
  CHECK(stats.expiring_per_partition.max == 3);
  CHECK(stats.expiring_per_partition.min == 0);
  CHECK(stats.wide_partitions == 0);
  CHECK(stats.tombstone_partitions == 1);
  REQUIRE(stats.warnings.size() == 1);
  CHECK(stats.warnings[0] ==
        "partition 'a' holds 1202 tombstones, which a read of it scans (Cassandra warns over "
        "1000 and refuses the read over 100000)");
  const std::string text = FormatStatsText(stats);
  CHECK_THAT(text, Catch::Contains("  Tombstones: 1203  Expiring cells: 3\n"));
  CHECK_THAT(text, Catch::Contains("\nWarnings: 1 partition over 1000 tombstones\n  " +
                                   stats.warnings[0] + "\n"));
  const nlohmann::json json = nlohmann::json::parse(FormatStatsJson(stats));
  CHECK(json["tombstones"] == 1203);
  CHECK(json["expiring_cells"] == 3);
  CHECK(json["tombstones_per_partition"]["max"] == 1202);
  CHECK(json["expiring_per_partition"]["max"] == 3);
  CHECK(json["tombstone_partitions"] == 1);
}

}  // namespace
}  // namespace cellfs::fs
