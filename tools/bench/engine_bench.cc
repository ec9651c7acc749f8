// Benchmark of the storage engine beside raw LevelDB writing and reading the
// very same entries (same keys, same encoded values), in the same run:
// single-cell upserts, batched upserts, slice latency at the far end of
// partitions of 1k, 100k and 1M rows, and partition scan rate.
// Usage: engine_bench [DIR] [repetitions]. Figures: docs/BENCHMARKS.md.
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/cql/key_codec.h"
#include "engine/engine.h"
#include "engine/store/token.h"
#include "tools/bench/bench_util.h"

namespace cellfs {
namespace {

namespace fs = std::filesystem;
using bench::BigEndian;
using bench::Check;
using bench::Clock;
using bench::Median;
using bench::Seconds;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.t (pk text, ck bigint, a text, b bigint, c double, PRIMARY KEY (pk, ck));";

// One benchmark row: the values of the five columns.
struct Row {
  std::string pk, ck, a, b, c;
};

Row MakeRow(const std::string& pk, uint64_t i) {
  return {pk, BigEndian(i, 8), "payload-" + std::to_string((i * 2654435761u) % 1000000000u),
          BigEndian(i * 7, 8), BigEndian(0x3FF0000000000000ull + i, 8)};
}

// An engine on a fresh directory with the benchmark table.
struct EngineUnderTest {
  std::unique_ptr<Engine> engine;
  TableHandle table;

  explicit EngineUnderTest(const fs::path& dir) {
    fs::remove_all(dir);
    EngineOptions options;
    options.background_sweeper = false;
    engine = std::move(Engine::Open(dir.string(), options)).value();
    CqlParser parser(kSchema);
    std::string keyspace;
    for (bool done = false;;) {
      Statement statement;
      Check(parser.Next(&statement, &done), "parse");
      if (done) break;
      Check(engine->Execute(statement, &keyspace), "ddl");
    }
    table = engine->FindTable("ks", "t").value();
  }
};

// Raw LevelDB with the engine's options, writing the engine's entries.
struct RawUnderTest {
  std::unique_ptr<leveldb::Cache> cache{leveldb::NewLRUCache(64u << 20)};
  std::unique_ptr<const leveldb::FilterPolicy> bloom{leveldb::NewBloomFilterPolicy(10)};
  std::unique_ptr<leveldb::DB> db;

  explicit RawUnderTest(const fs::path& dir) {
    fs::remove_all(dir);
    leveldb::Options options;
    options.create_if_missing = true;
    options.block_cache = cache.get();
    options.filter_policy = bloom.get();
    options.write_buffer_size = 32u << 20;
    options.max_file_size = 8u << 20;
    leveldb::DB* raw = nullptr;
    if (!leveldb::DB::Open(options, dir.string(), &raw).ok()) std::exit(1);
    db.reset(raw);
  }
};

// The entry the engine stores for `row` written with `cells` (docs/FORMAT.md
// "Storage layout"), rebuilt from public codecs so the peer writes the same
// bytes.
void EngineEntry(const TableSchema& table, const Row& row, bool all_cells, int64_t write_time,
                 uint64_t sequence, std::string* key, std::string* value) {
  key->assign("D");
  key->append(BigEndian(table.id, 4));
  EncodeToken(ComputeToken(row.pk), key);
  EncodeKeyComponent(*table.def.columns[0].type, row.pk, SortOrder::kAsc, key);
  key->push_back(0x03);
  EncodeKeyComponent(*table.def.columns[1].type, row.ck, SortOrder::kAsc, key);
  key->append(BigEndian(sequence, 8));
  RowFragment fragment;
  if (all_cells) {
    fragment.marker = RowMarker{write_time, 0, 0};
    fragment.cells = {{table.column_ids[2], Cell::Live(write_time, row.a)},
                      {table.column_ids[3], Cell::Live(write_time, row.b)},
                      {table.column_ids[4], Cell::Live(write_time, row.c)}};
  } else {
    fragment.cells = {{table.column_ids[2], Cell::Live(write_time, row.a)}};
  }
  std::sort(fragment.cells.begin(), fragment.cells.end(),
            [](const RowCell& x, const RowCell& y) { return x.column_id < y.column_id; });
  value->clear();
  EncodeRowFragment(fragment, value);
}

// Column indexes of a, b, c in the canonical order (keys, then by name).
const size_t kA = 2, kB = 3, kC = 4;

// One write's arguments, built before the clock starts, as the peer's
// entries are: both sides are timed from data in memory.
struct Input {
  std::string pk[1];
  std::string ck[1];
  std::vector<ColumnValue> cells;
};

// Rows of partition `pk`, or of 1000 partitions when `pk` is empty.
std::vector<Input> Inputs(const std::string& pk, size_t n, bool all_cells) {
  std::vector<Input> inputs(n);
  for (size_t i = 0; i < n; ++i) {
    Row row = MakeRow(pk.empty() ? "sensor-" + std::to_string(i % 1000) : pk, i);
    inputs[i].pk[0] = row.pk;
    inputs[i].ck[0] = row.ck;
    inputs[i].cells.push_back({kA, row.a});
    if (all_cells) {
      inputs[i].cells.push_back({kB, row.b});
      inputs[i].cells.push_back({kC, row.c});
    }
  }
  return inputs;
}

double EngineSingleUpserts(const fs::path& dir, size_t n) {
  EngineUnderTest e(dir);
  const std::vector<Input> inputs = Inputs("", n, false);
  auto start = Clock::now();
  for (const Input& in : inputs) {
    Mutation m = e.engine->NewMutation();
    Check(m.Update(e.table, in.pk, in.ck, in.cells), "update");
    Check(e.engine->Apply(std::move(m)), "apply");
  }
  return static_cast<double>(n) / Seconds(start);
}

// The engine's entries for the rows the engine benchmarks write, built
// before the clock starts: the peer measures LevelDB alone.
std::vector<std::pair<std::string, std::string>> Entries(const TableSchema& table, size_t n,
                                                         bool all_cells) {
  std::vector<std::pair<std::string, std::string>> entries(n);
  for (size_t i = 0; i < n; ++i) {
    Row row = MakeRow("sensor-" + std::to_string(i % 1000), i);
    EngineEntry(table, row, all_cells, 1'700'000'000'000'000 + static_cast<int64_t>(i), i + 1,
                &entries[i].first, &entries[i].second);
  }
  return entries;
}

double RawSingleUpserts(const fs::path& dir, const TableSchema& table, size_t n) {
  RawUnderTest r(dir);
  auto entries = Entries(table, n, false);
  auto start = Clock::now();
  for (const auto& [key, value] : entries) {
    if (!r.db->Put(leveldb::WriteOptions(), key, value).ok()) std::exit(1);
  }
  return static_cast<double>(n) / Seconds(start);
}

// Inserts `n` rows of partition `pk` (or of 1000 partitions when pk is
// empty) in mutations of `batch` rows.
double EngineBatchedUpserts(EngineUnderTest& e, const std::string& pk, size_t n, size_t batch) {
  const std::vector<Input> inputs = Inputs(pk, n, true);
  auto start = Clock::now();
  for (size_t done = 0; done < n;) {
    Mutation m = e.engine->NewMutation();
    for (size_t j = 0; j < batch && done < n; ++j, ++done) {
      const Input& in = inputs[done];
      Check(m.Insert(e.table, in.pk, in.ck, in.cells), "insert");
    }
    Check(e.engine->Apply(std::move(m)), "apply");
  }
  return static_cast<double>(n) / Seconds(start);
}

double RawBatchedUpserts(const fs::path& dir, const TableSchema& table, size_t n, size_t batch) {
  RawUnderTest r(dir);
  auto entries = Entries(table, n, true);
  auto start = Clock::now();
  for (size_t done = 0; done < n;) {
    leveldb::WriteBatch wb;
    for (size_t j = 0; j < batch && done < n; ++j, ++done) {
      wb.Put(entries[done].first, entries[done].second);
    }
    if (!r.db->Write(leveldb::WriteOptions(), &wb).ok()) std::exit(1);
  }
  return static_cast<double>(n) / Seconds(start);
}

// Median microseconds to read the last 10 rows of partition `pk` of `rows`.
double SliceMicros(Engine& engine, const TableHandle& table, const std::string& pk, size_t rows,
                   int repetitions) {
  std::vector<double> times;
  const std::string pks[] = {pk};
  SliceSpec slice;
  slice.lower = ClusteringBound{{BigEndian(rows - 10, 8)}, true};
  for (int i = 0; i < repetitions; ++i) {
    auto start = Clock::now();
    ReadView view = engine.NewReadView();
    auto it = std::move(view.NewRowIterator(table, pks, slice)).value();
    size_t seen = 0;
    for (; it->Valid(); it->Next()) ++seen;
    times.push_back(Seconds(start) * 1e6);
    if (seen != 10) {
      std::fprintf(stderr, "slice of %s returned %zu rows\n", pk.c_str(), seen);
      std::exit(1);
    }
  }
  return Median(times);
}

double RawSliceMicros(leveldb::DB* db, const std::string& seek_key, int repetitions) {
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    auto start = Clock::now();
    leveldb::ReadOptions options;
    const leveldb::Snapshot* snapshot = db->GetSnapshot();
    options.snapshot = snapshot;
    std::unique_ptr<leveldb::Iterator> it(db->NewIterator(options));
    size_t seen = 0;
    for (it->Seek(seek_key); it->Valid() && seen < 10; it->Next()) ++seen;
    times.push_back(Seconds(start) * 1e6);
    it.reset();
    db->ReleaseSnapshot(snapshot);
  }
  return Median(times);
}

// Medians of both series, then the ratio of each pair (engine over raw,
// repetition i with repetition i: neighbours in time) as median [min-max],
// the figure docs/BENCHMARKS.md records.
void Report(const char* name, const std::vector<double>& engine, const std::vector<double>& raw,
            const char* unit) {
  std::vector<double> ratios;
  for (size_t i = 0; i < engine.size() && i < raw.size(); ++i) ratios.push_back(engine[i] / raw[i]);
  std::printf("%-34s %12.0f %12.0f  %s   ratio %.2f [%.2f-%.2f]\n", name, Median(engine),
              Median(raw), unit, Median(ratios), *std::min_element(ratios.begin(), ratios.end()),
              *std::max_element(ratios.begin(), ratios.end()));
}

int Main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? argv[1] : "/tmp/cellfs-engine-bench";
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 3;
  fs::create_directories(dir);
  const size_t kSingle = 200'000, kBatched = 1'000'000, kBatch = 1000;

  std::printf("%-34s %12s %12s\n", "benchmark (medians)", "engine", "raw leveldb");
  std::printf("(ratio: engine/raw of each repetition's pair, median [min-max])\n");
  std::vector<double> es, rs, eb, rb;
  // The table's shape (ids) for the peer's entries; every engine store made
  // below assigns the same ids.
  const TableHandle shape = EngineUnderTest(dir / "shape").table;
  auto engine_batched = [&] {
    EngineUnderTest e(dir / "e");
    return EngineBatchedUpserts(e, "", kBatched, kBatch);
  };
  for (int i = 0; i < repetitions; ++i) {
    // The peer goes first every other repetition, so neither always runs on
    // a machine warmed (or tired) by the other; each store is closed before
    // the next run starts, so no compaction overlaps it.
    if (i % 2 == 1) rs.push_back(RawSingleUpserts(dir / "r", *shape, kSingle));
    es.push_back(EngineSingleUpserts(dir / "e", kSingle));
    if (i % 2 == 0) rs.push_back(RawSingleUpserts(dir / "r", *shape, kSingle));
    if (i % 2 == 1) rb.push_back(RawBatchedUpserts(dir / "r", *shape, kBatched, kBatch));
    eb.push_back(engine_batched());
    if (i % 2 == 0) rb.push_back(RawBatchedUpserts(dir / "r", *shape, kBatched, kBatch));
  }
  Report("single-cell upserts", es, rs, "rows/s");
  Report("batched upserts (1000/batch, 5 cols)", eb, rb, "rows/s");

  // Partitions of 1k, 100k and 1M rows in one store.
  EngineUnderTest wide(dir / "wide");
  const std::pair<const char*, size_t> partitions[] = {
      {"p1k", 1'000}, {"p100k", 100'000}, {"p1m", 1'000'000}};
  for (auto [pk, rows] : partitions) EngineBatchedUpserts(wide, pk, rows, kBatch);
  double slice_1k = 0;
  for (auto [pk, rows] : partitions) {
    double us = SliceMicros(*wide.engine, wide.table, pk, rows, 2000);
    if (rows == 1'000) slice_1k = us;
    std::printf("slice: last 10 of %-15s %10.1f us   (x%.2f of the 1k slice)\n", pk, us,
                us / slice_1k);
  }

  // Scan the 1M partition: engine iterator vs raw iterator over its entries.
  std::vector<double> scan_engine, scan_raw;
  for (int i = 0; i < repetitions; ++i) {
    auto start = Clock::now();
    const std::string pks[] = {"p1m"};
    auto it = std::move(wide.engine->NewReadView().NewRowIterator(wide.table, pks)).value();
    size_t rows = 0;
    for (; it->Valid(); it->Next()) ++rows;
    scan_engine.push_back(static_cast<double>(rows) / Seconds(start));
  }
  wide.engine.reset();
  {
    // Raw peer: the same store opened directly, iterating the same entries.
    leveldb::DB* raw = nullptr;
    leveldb::Options options;
    if (!leveldb::DB::Open(options, (dir / "wide").string(), &raw).ok()) return 1;
    std::unique_ptr<leveldb::DB> db(raw);
    std::string prefix = "D" + BigEndian(wide.table->id, 4);
    EncodeToken(ComputeToken("p1m"), &prefix);
    EncodeKeyComponent(*wide.table->def.columns[0].type, "p1m", SortOrder::kAsc, &prefix);
    prefix.push_back(0x03);
    for (int i = 0; i < repetitions; ++i) {
      auto start = Clock::now();
      std::unique_ptr<leveldb::Iterator> it(db->NewIterator(leveldb::ReadOptions()));
      size_t rows = 0;
      for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) ++rows;
      scan_raw.push_back(static_cast<double>(rows) / Seconds(start));
    }
    std::string far = prefix;
    EncodeKeyComponent(*wide.table->def.columns[1].type, BigEndian(1'000'000 - 10, 8),
                       SortOrder::kAsc, &far);
    std::printf("raw slice: last 10 of p1m          %10.1f us\n",
                RawSliceMicros(db.get(), far, 2000));
  }
  Report("partition scan (1M rows)", scan_engine, scan_raw, "rows/s");
  fs::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace cellfs

int main(int argc, char** argv) { return cellfs::Main(argc, argv); }
