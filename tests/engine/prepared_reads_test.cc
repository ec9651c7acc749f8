// The straight read paths (PartitionRef, GetCell, ReadPartition, a partition
// iterator's first row, NarrowSlice) against the general reads they
// shortcut. GetRow, GetStaticRow and NewRowIterator are held to Cassandra's
// rules by engine_read_test and the engine model test; here every shortcut
// must answer exactly as they do, over random writes, deletions and TTLs.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/store/partition_ref.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::IntValue;
using Key = std::vector<std::string>;

constexpr char kSchema[] = R"(
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.wide (p int, c int, s int STATIC, v int, w text, PRIMARY KEY (p, c))
  WITH CLUSTERING ORDER BY (c DESC);
CREATE TABLE ks.kv (k int PRIMARY KEY, v int, w text);
CREATE TABLE ks.grid (p int, x int, y int, v int, PRIMARY KEY (p, x, y))
  WITH CLUSTERING ORDER BY (x ASC, y DESC);
)";

struct Fixture : testing::TestEngine {
  Fixture() { Ddl(kSchema); }
  ~Fixture() { Close(); }
};

size_t ColumnIndex(const TableSchema& table, const std::string& name) {
  for (size_t i = 0; i < table.def.columns.size(); ++i) {
    if (table.column(i).name == name) return i;
  }
  FAIL("no column " << name);
  return 0;
}

void Apply(Engine& engine, Mutation&& mutation, const Status& built) {
  INFO(built.ToString());
  REQUIRE(built.ok());
  const Status applied = engine.Apply(std::move(mutation));
  INFO(applied.ToString());
  REQUIRE(applied.ok());
}

// One random write, deletion or TTL'd write to `table` over partitions
// 0..3 and rows 0..5 (`clustered`: whether the table has rows).
void RandomWrite(Engine& engine, const TableHandle& table, bool clustered, std::mt19937& rng) {
  const Key pk{IntValue(static_cast<int32_t>(rng() % 4))};
  const Key ck = clustered ? Key{IntValue(static_cast<int32_t>(rng() % 6))} : Key{};
  WriteAttributes attributes;
  if (rng() % 3 == 0) attributes.ttl = 1 + static_cast<int64_t>(rng() % 5);
  Mutation m = engine.NewMutation();
  Status s;
  const size_t v = ColumnIndex(*table, "v");
  const size_t w = ColumnIndex(*table, "w");
  switch (rng() % 8) {
    case 0:
    case 1: {
      std::vector<ColumnValue> cells{{v, IntValue(static_cast<int32_t>(rng() % 100))}};
      if (rng() % 2 == 0) cells.push_back({w, std::string(1 + rng() % 3, 'a')});
      s = m.Update(table, pk, ck, cells, attributes);
      break;
    }
    case 2:
      s = m.Insert(table, pk, ck, {}, attributes);  // a row marker
      break;
    case 3: {
      const size_t column = rng() % 2 == 0 ? v : w;
      s = m.DeleteCells(table, pk, ck, std::span<const size_t>(&column, 1));
      break;
    }
    case 4:
      s = m.DeleteRow(table, pk, ck);
      break;
    case 5:
      if (rng() % 3 == 0) {
        s = m.DeletePartition(table, pk);
      } else if (clustered) {
        SliceSpec range;
        range.lower = ClusteringBound{{IntValue(static_cast<int32_t>(rng() % 6))}, true};
        s = m.DeleteRange(table, pk, range);
      } else {
        s = m.DeleteRow(table, pk, ck);
      }
      break;
    default:
      if (clustered) {
        ColumnValue cell{ColumnIndex(*table, "s"), IntValue(static_cast<int32_t>(rng() % 9))};
        s = m.Update(table, pk, {}, std::span<const ColumnValue>(&cell, 1), attributes);
      } else {
        ColumnValue cell{v, IntValue(7)};
        s = m.Update(table, pk, ck, std::span<const ColumnValue>(&cell, 1), attributes);
      }
      break;
  }
  Apply(engine, std::move(m), s);
}

std::optional<RowCell> ViaRow(const ReadView& view, const TableHandle& table, const Key& pk,
                              const Key& ck, uint32_t column_id, bool is_static) {
  auto row = is_static ? view.GetStaticRow(table, pk) : view.GetRow(table, pk, ck);
  REQUIRE(row.ok());
  if (!row.value()) return std::nullopt;
  const RowCell* cell = row.value()->FindCell(column_id);
  return cell ? std::optional<RowCell>(*cell) : std::nullopt;
}

std::vector<std::string> Listed(RowIterator& rows) {
  std::vector<std::string> out;
  for (; rows.Valid(); rows.Next()) {
    out.emplace_back(rows.clustering_key());
    out.back() += "|" + std::to_string(rows.row().cells.size()) + (rows.row().marker ? "m" : "");
  }
  REQUIRE(rows.status().ok());
  return out;
}

TEST_CASE("GetCell and ReadPartition answer as GetRow, GetStaticRow and NewRowIterator do",
          "[prepared_reads]") {
  Fixture db;
  const TableHandle wide = db.Table("ks", "wide");
  const TableHandle kv = db.Table("ks", "kv");
  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u, 5u));
  size_t live_cells = 0, dead_cells = 0, slices = 0;
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 6; ++i) {
      RandomWrite(*db.engine, wide, true, rng);
      RandomWrite(*db.engine, kv, false, rng);
    }
    if (rng() % 3 == 0) db.clock.AdvanceSeconds(static_cast<int64_t>(rng() % 4));
    const ReadView view = db.engine->NewReadView();
    for (int32_t p = 0; p < 4; ++p) {
      const Key pk{IntValue(p)};
      for (const TableHandle* table : {&wide, &kv}) {
        const bool clustered = (*table)->clustering_count() > 0;
        auto ref = PartitionRef::Make(**table, pk);
        REQUIRE(ref.ok());
        auto token = view.Token(*table, pk);
        REQUIRE(token.ok());
        CHECK(ref.value().token() == token.value());
        auto live_by_ref = view.IsPartitionLive(*table, ref.value());
        auto live = view.IsPartitionLive(*table, pk);
        REQUIRE((live_by_ref.ok() && live.ok()));
        CHECK(live_by_ref.value() == live.value());
        for (int32_t c = 0; c < (clustered ? 6 : 1); ++c) {
          const Key ck = clustered ? Key{IntValue(c)} : Key{};
          for (size_t i = 0; i < (*table)->def.columns.size(); ++i) {
            const ColumnDef& column = (*table)->column(i);
            if (column.kind != ColumnKind::kRegular && column.kind != ColumnKind::kStatic) {
              continue;
            }
            const uint32_t id = (*table)->column_ids[i];
            const bool is_static = column.kind == ColumnKind::kStatic;
            auto got = view.GetCell(*table, ref.value(), ck, id);
            REQUIRE(got.ok());
            const auto expected = ViaRow(view, *table, pk, ck, id, is_static);
            INFO("p=" << p << " c=" << c << " column " << column.name);
            CHECK(got.value() == expected);
            (expected ? live_cells : dead_cells)++;
          }
          auto row = view.GetRow(*table, ref.value(), ck);
          REQUIRE(row.ok());
          CHECK(row.value() == view.GetRow(*table, pk, ck).value());
        }
        // The partition's static row and a random slice of its rows.
        SliceSpec slice;
        if (clustered && rng() % 2 == 0) {
          slice.lower =
              ClusteringBound{{IntValue(static_cast<int32_t>(rng() % 6))}, rng() % 2 == 0};
        }
        if (clustered && rng() % 2 == 0) {
          slice.upper =
              ClusteringBound{{IntValue(static_cast<int32_t>(rng() % 6))}, rng() % 2 == 0};
        }
        slice.reverse = rng() % 2 == 0;
        slice.limit = rng() % 3;
        auto read = view.ReadPartition(*table, ref.value(), slice);
        REQUIRE(read.ok());
        auto statics = view.GetStaticRow(*table, pk);
        REQUIRE(statics.ok());
        CHECK(read.value().static_row == statics.value());
        auto rows = view.NewRowIterator(*table, pk, slice);
        REQUIRE(rows.ok());
        CHECK(Listed(*read.value().rows) == Listed(**rows));
        ++slices;
      }
    }
  }
  // The random writes reached both outcomes often enough to mean something.
  CHECK(live_cells > 200);
  CHECK(dead_cells > 200);
  CHECK(slices == 40 * 4 * 2);
}

TEST_CASE("A partition iterator's first row is the row GetRow reads in a table without rows",
          "[prepared_reads]") {
  Fixture db;
  const TableHandle kv = db.Table("ks", "kv");
  const TableHandle wide = db.Table("ks", "wide");
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    for (int i = 0; i < 8; ++i) {
      RandomWrite(*db.engine, kv, false, rng);
      RandomWrite(*db.engine, wide, true, rng);
    }
    if (rng() % 2 == 0) db.clock.AdvanceSeconds(static_cast<int64_t>(rng() % 3));
    const ReadView view = db.engine->NewReadView();
    size_t listed = 0;
    for (auto it = view.NewPartitionIterator(kv); it->Valid(); it->Next()) {
      Key pk;
      REQUIRE(it->DecodePartitionKey(&pk).ok());
      auto row = view.GetRow(kv, pk, {});
      REQUIRE(row.ok());
      REQUIRE(row.value());  // a listed partition of such a table is its live row
      REQUIRE(it->first_row() != nullptr);
      CHECK(*it->first_row() == *row.value());
      auto ref = PartitionRef::Make(*kv, pk);
      REQUIRE(ref.ok());
      CHECK(ref.value().position() == it->position());
      ++listed;
    }
    // With static cells a partition may be live without a row read.
    for (auto it = view.NewPartitionIterator(wide); it->Valid(); it->Next()) {
      if (it->first_row() != nullptr) continue;
      CHECK_FALSE(it->static_row().cells.empty());
    }
    CHECK(listed <= 4);
  }
}

TEST_CASE("Reads refuse a PartitionRef of another table and GetCell an unknown column",
          "[prepared_reads]") {
  Fixture db;
  const TableHandle wide = db.Table("ks", "wide");
  const TableHandle kv = db.Table("ks", "kv");
  const Key pk{IntValue(1)};
  auto ref = PartitionRef::Make(*kv, pk);
  REQUIRE(ref.ok());
  const ReadView view = db.engine->NewReadView();
  CHECK(view.GetRow(wide, ref.value(), Key{IntValue(1)}).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK(view.ReadPartition(wide, ref.value()).status().code() == StatusCode::kInvalidArgument);
  CHECK(view.GetCell(kv, ref.value(), {}, 999).status().code() == StatusCode::kInvalidArgument);
  CHECK(PartitionRef::Make(*kv, Key{"abc"}).status().code() == StatusCode::kInvalidArgument);
  CHECK(PartitionRef::Make(*kv, Key{}).status().code() == StatusCode::kInvalidArgument);
}

// ---- NarrowSlice against brute force: a row passes the narrowed slice
// exactly when it passes both bounds (CQL's AND), over every row of a grid.

bool Passes(const std::vector<int32_t>& row, const ClusteringBound& bound, bool lower) {
  for (size_t i = 0; i < bound.prefix.size(); ++i) {
    const int32_t b = testing::IntOf(bound.prefix[i]);
    if (row[i] != b) return lower ? row[i] > b : row[i] < b;
  }
  return bound.inclusive;  // equal on the bound's columns
}

ClusteringBound RandomBound(std::mt19937& rng) {
  ClusteringBound bound;
  const size_t n = 1 + rng() % 2;
  for (size_t i = 0; i < n; ++i) bound.prefix.push_back(IntValue(static_cast<int32_t>(rng() % 4)));
  bound.inclusive = rng() % 2 == 0;
  return bound;
}

TEST_CASE("NarrowSlice keeps the bound that admits exactly the rows both admit",
          "[prepared_reads]") {
  Fixture db;
  const TableHandle grid = db.Table("ks", "grid");  // x ASC, y DESC: DESC must not matter
  std::mt19937 rng(7);
  size_t checked = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const bool lower = rng() % 2 == 0;
    const ClusteringBound a = RandomBound(rng);
    const ClusteringBound b = RandomBound(rng);
    SliceSpec slice;
    NarrowSlice(*grid, a, lower, &slice);
    NarrowSlice(*grid, b, lower, &slice);
    const std::optional<ClusteringBound>& kept = lower ? slice.lower : slice.upper;
    REQUIRE(kept);
    CHECK_FALSE((lower ? slice.upper : slice.lower));
    for (int32_t x = -1; x <= 4; ++x) {
      for (int32_t y = -1; y <= 4; ++y) {
        const std::vector<int32_t> row{x, y};
        INFO("trial " << trial << " row " << x << "," << y);
        CHECK(Passes(row, *kept, lower) == (Passes(row, a, lower) && Passes(row, b, lower)));
        ++checked;
      }
    }
  }
  CHECK(checked == 2000 * 36);
}

}  // namespace
}  // namespace cellfs
