// Store: an engine with the sweeper tests' tables (ks.t, ks.c), helpers
// that write, read and render them, and raw access to the keys underneath.
// Shared by sweeper_test.cc and buried_rows_test.cc.
#pragma once

#include <leveldb/db.h>
#include <leveldb/iterator.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/store/internal/storage_keys.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::sweeper_testing {

using testing::TestEngine;

inline constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";
constexpr int64_t kSecond = 1'000'000;

inline std::string Int(int32_t n) {
  const auto u = static_cast<uint32_t>(n);
  return {static_cast<char>(u >> 24), static_cast<char>((u >> 16) & 0xFF),
          static_cast<char>((u >> 8) & 0xFF), static_cast<char>(u & 0xFF)};
}

inline int64_t Bigint(std::string_view bytes) {
  REQUIRE(bytes.size() == 8);
  uint64_t u = 0;
  for (char c : bytes) u = (u << 8) | static_cast<unsigned char>(c);
  return static_cast<int64_t>(u);
}

inline size_t CountPrefix(const std::vector<std::string>& keys, std::string_view prefix) {
  return static_cast<size_t>(std::count_if(
      keys.begin(), keys.end(), [&](const std::string& k) { return k.starts_with(prefix); }));
}

// An engine holding ks.t (text partition key, int clustering, a static
// column and two regular ones) with the given gc_grace_seconds, and ks.c
// (a counter table).
class Store {
 public:
  explicit Store(int gc_grace) {
    db.Ddl(std::string(kKeyspace) +
           "CREATE TABLE ks.t (pk text, ck int, s text static, v text, w text,"
           " PRIMARY KEY (pk, ck)) WITH gc_grace_seconds = " +
           std::to_string(gc_grace) +
           ";"
           "CREATE TABLE ks.c (pk text, ck int, n counter, PRIMARY KEY (pk, ck));");
    Refresh();
  }
  // TestEngine destroys its Env before its Engine; close the Engine first.
  ~Store() { db.Close(); }
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  void Refresh() {
    t = db.Table("ks", "t");
    c = db.Table("ks", "c");
  }

  size_t Col(const TableHandle& table, const std::string& name) const {
    for (size_t i = 0; i < table->def.columns.size(); ++i) {
      if (table->def.columns[i].name == name) return i;
    }
    FAIL("no column " << name);
    return 0;
  }

  // Applies one mutation built by `build`; REQUIREs that every step works.
  void Apply(const std::function<Status(Mutation*)>& build) {
    Mutation m = db.engine->NewMutation();
    Status built = build(&m);
    INFO(built.ToString());
    REQUIRE(built.ok());
    Status applied = db.engine->Apply(std::move(m));
    INFO(applied.ToString());
    REQUIRE(applied.ok());
  }

  // INSERT INTO t (pk, ck, v) VALUES (...) [USING TTL ttl] [USING TIMESTAMP ts].
  void Insert(const std::string& pk, int32_t ck, const std::string& v, WriteAttributes a = {}) {
    Apply([&](Mutation* m) {
      std::vector<ColumnValue> cells{{Col(t, "v"), v}};
      return m->Insert(t, std::vector<std::string>{pk}, std::vector<std::string>{Int(ck)}, cells,
                       a);
    });
  }

  // UPDATE t SET column = value WHERE ... (static columns: ck ignored).
  void Set(const std::string& pk, int32_t ck, const std::string& column, const std::string& value,
           WriteAttributes a = {}) {
    Apply([&](Mutation* m) {
      std::vector<ColumnValue> cells{{Col(t, column), value}};
      std::vector<std::string> clustering;
      if (column != "s") clustering.push_back(Int(ck));
      return m->Update(t, std::vector<std::string>{pk}, clustering, cells, a);
    });
  }

  void AddToCounter(const std::string& pk, int32_t ck, int64_t delta) {
    Apply([&](Mutation* m) {
      return m->AddToCounter(c, std::vector<std::string>{pk}, std::vector<std::string>{Int(ck)},
                             Col(c, "n"), delta);
    });
  }

  // The live content of one row of t, rendered; "-" when it is not live.
  std::string Row(const std::string& pk, int32_t ck) {
    auto row = db.engine->NewReadView().GetRow(t, std::vector<std::string>{pk},
                                               std::vector<std::string>{Int(ck)});
    REQUIRE(row.ok());
    return row.value() ? Render(*t, **row) : "-";
  }

  // The counter of c's row, or nullopt when the row is not live.
  std::optional<int64_t> Counter(const std::string& pk, int32_t ck) {
    auto row = db.engine->NewReadView().GetRow(c, std::vector<std::string>{pk},
                                               std::vector<std::string>{Int(ck)});
    REQUIRE(row.ok());
    if (!row.value()) return std::nullopt;
    REQUIRE((*row)->cells.size() == 1);
    return Bigint((*row)->cells[0].cell.value);
  }

  // Everything a reader sees of t: every live partition, its static cells
  // and its live rows, with write times and TTLs.
  std::string Dump() {
    ReadView view = db.engine->NewReadView();
    std::string out;
    auto partitions = view.NewPartitionIterator(t);
    for (; partitions->Valid(); partitions->Next()) {
      std::vector<std::string> pk;
      REQUIRE(partitions->DecodePartitionKey(&pk).ok());
      out += pk[0] + " {" + Render(*t, partitions->static_row()) + "}\n";
      auto rows = view.NewRowIterator(t, pk);
      REQUIRE(rows.ok());
      for (; (*rows)->Valid(); (*rows)->Next()) {
        std::vector<std::string> ck;
        REQUIRE((*rows)->DecodeClustering(&ck).ok());
        out += "  " + FormatLiteral(*t->column(1).type, ck[0]) + " " + Render(*t, (*rows)->row()) +
               "\n";
      }
      REQUIRE((*rows)->status().ok());
    }
    REQUIRE(partitions->status().ok());
    return out;
  }

  SweepStats Sweep() {
    SweepStats stats;
    Status swept = db.engine->Sweep(&stats);
    INFO(swept.ToString());
    REQUIRE(swept.ok());
    return stats;
  }

  // Calls `use` with the store's LevelDB, the engine closed meanwhile and
  // opened again after (the fold queue, in memory, starts empty).
  template <typename Use>
  void WithRawStore(const Use& use) {
    db.Close();
    leveldb::Options options;
    options.env = db.env();
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(options, "/db", &raw).ok());
    {
      std::unique_ptr<leveldb::DB> owned(raw);
      use(owned.get());
    }
    db.Reopen();
    Refresh();
  }

  // Every key in the store.
  std::vector<std::string> RawKeys() {
    std::vector<std::string> keys;
    WithRawStore([&](leveldb::DB* raw) {
      std::unique_ptr<leveldb::Iterator> it(raw->NewIterator(leveldb::ReadOptions()));
      for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
      REQUIRE(it->status().ok());
    });
    return keys;
  }

  // Stores `key` with an empty value behind the engine's back.
  void RawPut(const std::string& key) {
    WithRawStore([&](leveldb::DB* raw) {
      REQUIRE(raw->Put(leveldb::WriteOptions(), key, leveldb::Slice()).ok());
    });
  }

  std::string TablePrefix(const TableHandle& table) const {
    std::string prefix;
    storage::AppendTablePrefix(table->id, &prefix);
    return prefix;
  }

  std::string PartitionPrefix(const std::string& pk) const {
    storage::PartitionKey key;
    std::vector<std::string> values{pk};
    REQUIRE(storage::EncodePartitionKey(*t, values, &key).ok());
    std::string prefix;
    storage::AppendPartitionPrefix(t->id, key, &prefix);
    return prefix;
  }

  std::string RowPrefix(const std::string& pk, int32_t ck) const {
    std::string prefix = PartitionPrefix(pk);
    storage::AppendEntryKind(storage::EntryKind::kRow, &prefix);
    std::vector<std::string> values{Int(ck)};
    REQUIRE(storage::EncodeClustering(*t, values, false, &prefix).ok());
    return prefix;
  }

  // Where the sweeper buries the row (buried_reader.h): the same key in the
  // table's buried space.
  std::string BuriedRowPrefix(const std::string& pk, int32_t ck) const {
    std::string prefix = RowPrefix(pk, ck);
    prefix[0] = storage::kBuriedTag;
    return prefix;
  }

  std::string KindPrefix(const std::string& pk, storage::EntryKind kind) const {
    std::string prefix = PartitionPrefix(pk);
    storage::AppendEntryKind(kind, &prefix);
    return prefix;
  }

  static std::string Render(const TableSchema& table, const RowFragment& row) {
    std::string out = row.marker ? "+" : "";
    if (row.marker && row.marker->ttl != 0) out += "ttl" + std::to_string(row.marker->ttl);
    for (const RowCell& cell : row.cells) {
      const auto index = table.ColumnIndexById(cell.column_id);
      REQUIRE(index.has_value());
      const ColumnDef& column = table.column(*index);
      out += " " + column.name + "=" + FormatLiteral(*column.type, cell.cell.value) + "@" +
             std::to_string(cell.cell.write_time);
      if (cell.cell.ttl != 0) out += "/ttl" + std::to_string(cell.cell.ttl);
    }
    return out;
  }

  TestEngine db;
  TableHandle t;
  TableHandle c;
};

inline WriteAttributes Ttl(int64_t seconds) { return {std::nullopt, seconds}; }
inline WriteAttributes At(int64_t timestamp) { return {timestamp, std::nullopt}; }

}  // namespace cellfs::sweeper_testing
