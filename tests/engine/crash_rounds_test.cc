// Crash rounds: simulated OS crashes at random moments while 1-3 threads
// write under a random commit mode; after each the store must open, hold
// every write whose durability was acknowledged, and scan without error.
#include <leveldb/helpers/memenv.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/cql/cql_parser.h"
#include "engine/engine.h"
#include "engine/store/table_scan.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/fault_env.h"

namespace cellfs {
namespace {

using testing::IntOf;
using testing::IntValue;
using testing::RunCql;

using testing::FaultEnv;
using testing::TailLoss;

constexpr const char* kKeyspace =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";
constexpr const char* kTable = "CREATE TABLE ks.kv (k int PRIMARY KEY, v text);";
constexpr size_t kValueColumn = 1;  // v's index in the table's columns

// Sanitizers make every round several times slower.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kDefaultRounds = 40;
#else
constexpr int kDefaultRounds = 200;
#endif

const char* ModeName(CommitMode mode) {
  switch (mode) {
    case CommitMode::kPeriodic:
      return "periodic";
    case CommitMode::kGroup:
      return "group";
    case CommitMode::kBatch:
      return "batch";
  }
  return "?";
}

// Everything a round draws from its seed, so a failing seed replays.
struct RoundPlan {
  uint64_t seed = 0;
  CommitMode mode = CommitMode::kPeriodic;
  int timer_ms = 0;  // periodic: the sync period; group: the window
  size_t write_buffer_bytes = 0;
  int threads = 1;
  int32_t keys = 0;              // the key space the threads share
  size_t max_value = 0;          // values are 1..max_value bytes
  int sync_one_in = 0;           // Engine::Sync after about one write in this many
  int crashes = 1;               // crashes of the same store, one after the other
  std::vector<int> crash_after;  // per crash: applied writes before it

  std::string Describe() const {
    std::ostringstream out;
    out << "seed " << seed << " (rerun: CELLFS_CRASH_SEED=" << seed << "): " << ModeName(mode)
        << " timer " << timer_ms << " ms, write buffer " << write_buffer_bytes << ", " << threads
        << " threads, " << keys << " keys, values <= " << max_value << " bytes, sync 1/"
        << sync_one_in << ", " << crashes << " crashes";
    return out.str();
  }
};

RoundPlan PlanRound(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  RoundPlan plan;
  plan.seed = seed;
  const CommitMode modes[] = {CommitMode::kPeriodic, CommitMode::kGroup, CommitMode::kBatch};
  plan.mode = modes[pick(3)];
  if (plan.mode == CommitMode::kPeriodic) {
    plan.timer_ms = pick(2) == 0 ? 3'600'000 : 1 + pick(10);
  } else {
    plan.timer_ms = 1 + pick(4);
  }
  const size_t buffers[] = {64u << 10, 64u << 10, 256u << 10, 4u << 20};
  plan.write_buffer_bytes = buffers[pick(4)];
  plan.threads = 1 + pick(3);
  plan.keys = 10 + pick(400);
  const bool large = pick(8) == 0;  // records that span LevelDB's 32 KiB log blocks
  plan.max_value = large ? 40'000 : static_cast<size_t>(16 + pick(2000));
  plan.sync_one_in = 2 + pick(40);
  plan.crashes = 1 + pick(2);
  // Group writers wait a window per write; big values fill memory.
  const int most = plan.mode == CommitMode::kGroup ? 60 * plan.threads : large ? 200 : 1500;
  for (int i = 0; i < plan.crashes; ++i) plan.crash_after.push_back(pick(most + 1));
  return plan;
}

// One mutation a writer tried.
struct Attempt {
  int64_t write_time = 0;
  std::vector<int32_t> keys;  // distinct; every one gets `value`
  std::string value;
  bool applied = false;  // Apply returned Ok before the crash
  bool durable = false;  // ... and its durability was acknowledged before the crash
};

// What one writer thread did.
struct WriterLog {
  std::vector<Attempt> attempts;
  std::vector<std::string> tables;  // CREATE TABLEs acknowledged before the crash
  std::string error;                // an unexpected failure before the crash
};

std::string MakeValue(std::mt19937_64& rng, size_t max_value, int thread, size_t n) {
  std::string value = "t" + std::to_string(thread) + "#" + std::to_string(n) + ":";
  const size_t length = 1 + rng() % max_value;
  while (value.size() < length) value.push_back(static_cast<char>('a' + rng() % 26));
  return value;
}

struct WriterContext {
  Engine* engine = nullptr;
  TableHandle table;
  FaultEnv* env = nullptr;
  const RoundPlan* plan = nullptr;
  int crash = 0;  // which crash of the round this run leads to
  std::atomic<bool>* stop = nullptr;
  std::atomic<int>* applied = nullptr;
};

// One write of 1-3 rows; returns false after an unexpected failure.
bool WriteOnce(const WriterContext& c, std::mt19937_64& rng, int thread, WriterLog* log) {
  Attempt attempt;
  Mutation mutation = c.engine->NewMutation();
  attempt.write_time = mutation.write_time();
  attempt.value = MakeValue(rng, c.plan->max_value, thread, log->attempts.size());
  const size_t rows = 1 + rng() % 3;
  std::set<int32_t> keys;
  while (keys.size() < rows)
    keys.insert(static_cast<int32_t>(rng() % static_cast<uint64_t>(c.plan->keys)));
  for (int32_t key : keys) {
    const std::string pk[] = {IntValue(key)};
    const ColumnValue cells[] = {{kValueColumn, attempt.value}};
    if (Status s = mutation.Update(c.table, pk, {}, cells); !s.ok()) {
      log->error = "Update: " + s.ToString();
      return false;
    }
    attempt.keys.push_back(key);
  }
  log->attempts.push_back(attempt);  // before Apply: it may land even if not acknowledged
  Status s = c.engine->Apply(std::move(mutation));
  // Acknowledged before the crash only if the crash had not begun on return.
  const bool before_crash = !c.env->crashed();
  if (!s.ok()) {
    if (before_crash) log->error = "Apply: " + s.ToString();
    return !before_crash;
  }
  c.applied->fetch_add(1);
  log->attempts.back().applied = before_crash;
  // Batch: acknowledged after its own sync; group: after a group sync.
  log->attempts.back().durable = before_crash && c.plan->mode != CommitMode::kPeriodic;
  return true;
}

// Engine::Sync: every write this thread saw applied is durable once it returns.
bool SyncOnce(const WriterContext& c, WriterLog* log) {
  Status s = c.engine->Sync();
  const bool before_crash = !c.env->crashed();
  if (!s.ok()) {
    if (before_crash) log->error = "Sync: " + s.ToString();
    return !before_crash;
  }
  if (!before_crash) return true;
  for (Attempt& attempt : log->attempts) attempt.durable = attempt.durable || attempt.applied;
  return true;
}

bool CreateTableOnce(const WriterContext& c, WriterLog* log) {
  const std::string name =
      "x" + std::to_string(c.crash) + "_" + std::to_string(log->attempts.size());
  Status s = RunCql(c.engine, "CREATE TABLE ks." + name + " (k int PRIMARY KEY, v text);");
  const bool before_crash = !c.env->crashed();
  if (!s.ok()) {
    if (before_crash) log->error = "CREATE TABLE: " + s.ToString();
    return !before_crash;
  }
  if (before_crash) log->tables.push_back(name);  // DDL is always synced
  return true;
}

void RunWriter(const WriterContext& c, uint64_t seed, int thread, WriterLog* log) {
  std::mt19937_64 rng(seed);
  while (!c.stop->load(std::memory_order_acquire)) {
    if (!WriteOnce(c, rng, thread, log)) return;
    if (c.plan->mode == CommitMode::kPeriodic &&
        rng() % static_cast<uint64_t>(c.plan->sync_one_in) == 0 && !SyncOnce(c, log)) {
      return;
    }
    if (thread == 0 && rng() % 300 == 0 && !CreateTableOnce(c, log)) return;
  }
}

// What every write so far allows the store to hold, over all crashes of a round.
struct Expectations {
  std::map<int32_t, std::map<int64_t, std::string>> written;  // key -> write time -> value
  std::map<int32_t, std::vector<int64_t>> durable;  // key -> write times acknowledged durable
  std::vector<Attempt> multi_row;                   // attempts of 2+ rows, for atomicity
  std::set<std::string> tables;

  void Add(const WriterLog& log) {
    for (const Attempt& attempt : log.attempts) {
      for (int32_t key : attempt.keys) {
        written[key][attempt.write_time] = attempt.value;
        if (attempt.durable) durable[key].push_back(attempt.write_time);
      }
      if (attempt.keys.size() > 1) multi_row.push_back(attempt);
    }
    tables.insert(log.tables.begin(), log.tables.end());
  }
};

// The figures of all rounds.
struct Totals {
  int rounds = 0;
  int crashes = 0;
  uint64_t durable_writes = 0;  // durable (key, write) pairs checked, summed over crashes
  uint64_t lost = 0;            // ... of which the store no longer held the write
  uint64_t foreign = 0;         // rows holding something never written
  uint64_t torn_mutations = 0;
  uint64_t rows_scanned = 0;
  uint64_t tail_bytes_kept = 0;
  uint64_t tail_bytes_lost = 0;
};

struct Recovered {
  int64_t write_time = 0;
  std::string value;
};

// A full scan of ks.kv; REQUIREs it to end without error.
std::map<int32_t, Recovered> ScanAll(Engine* engine, const TableHandle& table) {
  std::map<int32_t, Recovered> rows;
  TableScan scan(engine->NewReadView(), table);
  for (; scan.Valid(); scan.Next()) {
    std::vector<std::string> pk;
    REQUIRE(scan.partition().DecodePartitionKey(&pk).ok());
    REQUIRE(pk.size() == 1);
    REQUIRE(scan.has_row());
    Recovered row;
    for (const RowCell& cell : scan.row().row().cells) {
      if (table->ColumnIndexById(cell.column_id) != kValueColumn) continue;
      row.write_time = cell.cell.write_time;
      row.value = cell.cell.value;
    }
    rows[IntOf(pk[0])] = row;
  }
  INFO(scan.status().ToString());
  REQUIRE(scan.status().ok());
  return rows;
}

// Durable (key, write) pairs whose write the store no longer holds: the
// key is gone or holds an older write. Adds the pairs checked to `checked`.
uint64_t CountLost(const Expectations& expected, const std::map<int32_t, Recovered>& rows,
                   uint64_t* checked, std::string* examples) {
  uint64_t lost = 0;
  for (const auto& [key, write_times] : expected.durable) {
    auto row = rows.find(key);
    for (int64_t write_time : write_times) {
      ++*checked;
      if (row != rows.end() && row->second.write_time >= write_time) continue;
      if (++lost <= 5)
        *examples += "key " + std::to_string(key) + " lost the write at " +
                     std::to_string(write_time) + "; ";
    }
  }
  return lost;
}

// Rows holding a (write time, value) that no write of theirs had.
uint64_t CountForeign(const Expectations& expected, const std::map<int32_t, Recovered>& rows) {
  uint64_t foreign = 0;
  for (const auto& [key, row] : rows) {
    auto writes = expected.written.find(key);
    const bool known = writes != expected.written.end() &&
                       writes->second.count(row.write_time) != 0 &&
                       writes->second.at(row.write_time) == row.value;
    if (!known) ++foreign;
  }
  return foreign;
}

// Rows whose point read differs from what the full scan returned.
uint64_t CountDisagreeing(Engine* engine, const TableHandle& table,
                          const std::map<int32_t, Recovered>& rows) {
  uint64_t disagreeing = 0;
  ReadView view = engine->NewReadView();
  for (const auto& [key, row] : rows) {
    const std::string pk[] = {IntValue(key)};
    auto point = view.GetRow(table, pk, {});
    REQUIRE(point.ok());
    const bool same = point->has_value() && (*point)->cells.size() == 1 &&
                      (*point)->cells[0].cell.write_time == row.write_time &&
                      (*point)->cells[0].cell.value == row.value;
    if (!same) ++disagreeing;
  }
  return disagreeing;
}

// Multi-row mutations seen in part: one of their rows holds the mutation's
// write, another holds something older (or nothing).
uint64_t CountTorn(const Expectations& expected, const std::map<int32_t, Recovered>& rows) {
  uint64_t torn = 0;
  for (const Attempt& attempt : expected.multi_row) {
    bool visible = false;
    bool whole = true;
    for (int32_t key : attempt.keys) {
      auto row = rows.find(key);
      visible = visible || (row != rows.end() && row->second.write_time == attempt.write_time);
      whole = whole && row != rows.end() && row->second.write_time >= attempt.write_time;
    }
    if (visible && !whole) ++torn;
  }
  return torn;
}

// Checks the reopened store against `expected`; adds to `totals`.
void CheckRecovered(Engine* engine, const Expectations& expected, Totals* totals) {
  auto found = engine->FindTable("ks", "kv");
  REQUIRE(found.ok());
  const TableHandle table = found.value();
  const std::map<int32_t, Recovered> rows = ScanAll(engine, table);
  totals->rows_scanned += rows.size();

  std::string examples;
  const uint64_t lost = CountLost(expected, rows, &totals->durable_writes, &examples);
  INFO(examples);
  // (Periodic rounds once lost writes Engine::Sync acknowledged when the
  // crash fell while a switched-away log awaited its flush: see below.)
  CHECK(lost == 0);
  const uint64_t foreign = CountForeign(expected, rows);
  CHECK(foreign == 0);
  const uint64_t torn = CountTorn(expected, rows);
  CHECK(torn == 0);
  CHECK(CountDisagreeing(engine, table, rows) == 0);
  for (const std::string& name : expected.tables) CHECK(engine->FindTable("ks", name).ok());
  totals->lost += lost;
  totals->foreign += foreign;
  totals->torn_mutations += torn;
}

std::unique_ptr<Engine> OpenStore(FaultEnv* env, const RoundPlan& plan) {
  EngineOptions options;
  options.env = env;
  options.commit_mode = plan.mode;
  options.commit_period_ms = plan.timer_ms;
  options.group_window_ms = plan.timer_ms;
  options.write_buffer_bytes = plan.write_buffer_bytes;
  options.block_cache_bytes = 1u << 20;
  options.background_sweeper = false;
  auto opened = Engine::Open("/db", options);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

// Writers run until `after` writes were applied (or a time limit), then the
// "OS" crashes under them.
void WriteUntilCrash(Engine* engine, FaultEnv* env, const RoundPlan& plan, int crash,
                     Expectations* expected) {
  auto table = engine->FindTable("ks", "kv");
  REQUIRE(table.ok());
  std::atomic<bool> stop{false};
  std::atomic<int> applied{0};
  WriterContext context{engine, table.value(), env, &plan, crash, &stop, &applied};
  std::vector<WriterLog> logs(static_cast<size_t>(plan.threads));
  std::vector<std::thread> writers;
  for (int t = 0; t < plan.threads; ++t) {
    const uint64_t seed = plan.seed * 1'000'003 + static_cast<uint64_t>(crash * 16 + t);
    writers.emplace_back(RunWriter, std::cref(context), seed, t, &logs[static_cast<size_t>(t)]);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (applied.load() < plan.crash_after[static_cast<size_t>(crash)] &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  env->Crash();
  stop.store(true, std::memory_order_release);
  for (std::thread& writer : writers) writer.join();
  for (const WriterLog& log : logs) {
    INFO(log.error);
    CHECK(log.error.empty());
    expected->Add(log);
  }
}

// The store accepts and keeps new writes after its recovery.
void CheckWritable(Engine* engine) {
  auto table = engine->FindTable("ks", "kv");
  REQUIRE(table.ok());
  Mutation mutation = engine->NewMutation();
  const std::string pk[] = {IntValue(-1)};
  const ColumnValue cells[] = {{kValueColumn, std::string("after the crash")}};
  REQUIRE(mutation.Update(table.value(), pk, {}, cells).ok());
  Status applied = engine->Apply(std::move(mutation));
  INFO(applied.ToString());
  CHECK(applied.ok());
  CHECK(engine->Sync().ok());
  auto row = engine->NewReadView().GetRow(table.value(), pk, {});
  REQUIRE(row.ok());
  CHECK(row->has_value());
}

void RunRound(uint64_t seed, Totals* totals) {
  const RoundPlan plan = PlanRound(seed);
  INFO(plan.Describe());
  std::unique_ptr<leveldb::Env> memory(leveldb::NewMemEnv(leveldb::Env::Default()));
  FaultEnv env(memory.get(), seed);
  std::unique_ptr<Engine> engine = OpenStore(&env, plan);
  REQUIRE(RunCql(engine.get(), kKeyspace).ok());
  REQUIRE(RunCql(engine.get(), kTable).ok());
  Expectations expected;
  for (int crash = 0; crash < plan.crashes; ++crash) {
    INFO("crash " << crash);
    WriteUntilCrash(engine.get(), &env, plan, crash, &expected);
    engine.reset();
    env.LoseUnsynced(TailLoss::kTorn);
    engine = OpenStore(&env, plan);
    CheckRecovered(engine.get(), expected, totals);
    ++totals->crashes;
  }
  CheckWritable(engine.get());
  engine.reset();
  totals->tail_bytes_kept += env.unsynced_kept();
  totals->tail_bytes_lost += env.unsynced_lost();
  ++totals->rounds;
}

// The seeds to run: CELLFS_CRASH_SEED=n for one, else 1..rounds
// (CELLFS_CRASH_ROUNDS overrides the count).
std::vector<uint64_t> Seeds() {
  if (const char* one = std::getenv("CELLFS_CRASH_SEED")) return {std::strtoull(one, nullptr, 10)};
  int rounds = kDefaultRounds;
  if (const char* count = std::getenv("CELLFS_CRASH_ROUNDS")) rounds = std::atoi(count);
  std::vector<uint64_t> seeds;
  for (int i = 1; i <= rounds; ++i) seeds.push_back(static_cast<uint64_t>(i));
  return seeds;
}

// When a memtable fills, LevelDB starts a new log and closes the old one
// without syncing it, and Engine::Sync (an empty synced write) syncs only the
// new log; the engine's GuardedEnv syncs every log before it is closed.
// Without that, until the
// background flush of the old memtable has reached a synced table and the
// MANIFEST, the writes in the old log's unsynced tail exist only in the OS:
// an OS crash in that window loses writes that Sync acknowledged. Holding
// the flush's table sync makes the window as long as the test needs. The
// random rounds below hit the same window (periodic mode) now and then.
TEST_CASE("Engine::Sync makes durable the writes in the log LevelDB just switched away from",
          "[crash]") {
  std::unique_ptr<leveldb::Env> memory(leveldb::NewMemEnv(leveldb::Env::Default()));
  FaultEnv env(memory.get());
  RoundPlan plan;
  plan.mode = CommitMode::kPeriodic;
  plan.timer_ms = 3'600'000;  // only Engine::Sync syncs
  plan.write_buffer_bytes = 64u << 10;
  std::unique_ptr<Engine> engine = OpenStore(&env, plan);
  REQUIRE(RunCql(engine.get(), kKeyspace).ok());
  REQUIRE(RunCql(engine.get(), kTable).ok());
  TableHandle table = engine->FindTable("ks", "kv").value();

  // The flush of the full memtable stops before its table is synced.
  env.Hold(testing::FileOp::kSync, ".ldb");
  testing::HoldRelease release(&env);
  constexpr int32_t kRows = 80;  // about 1.4 memtables of 64 KiB: exactly one switch
  for (int32_t k = 0; k < kRows; ++k) {
    Mutation mutation = engine->NewMutation();
    const std::string pk[] = {IntValue(k)};
    const ColumnValue cells[] = {{kValueColumn, std::string(1000, 'a')}};
    REQUIRE(mutation.Update(table, pk, {}, cells).ok());
    REQUIRE(engine->Apply(std::move(mutation)).ok());
  }
  REQUIRE(env.WaitForArrivals(1, std::chrono::seconds(10)));  // the switch happened
  REQUIRE(engine->Sync().ok());  // every row above is acknowledged durable

  env.Crash();
  env.ReleaseHolds();
  table.reset();
  engine.reset();
  env.LoseUnsynced(TailLoss::kExact);
  engine = OpenStore(&env, plan);
  table = engine->FindTable("ks", "kv").value();
  int lost = 0;
  ReadView view = engine->NewReadView();
  for (int32_t k = 0; k < kRows; ++k) {
    const std::string pk[] = {IntValue(k)};
    auto row = view.GetRow(table, pk, {});
    REQUIRE(row.ok());
    if (!row->has_value()) ++lost;
  }
  CHECK(lost == 0);  // the rows of the old log survive
}

TEST_CASE("every fsync-acknowledged write survives OS crashes at random moments", "[crash]") {
  Totals totals;
  for (uint64_t seed : Seeds()) RunRound(seed, &totals);
  std::printf(
      "os crash: %d rounds, %d crashes, %llu synced writes checked, %llu lost, %llu foreign, "
      "%llu torn mutations, %llu rows scanned, torn tails kept %llu bytes and lost %llu\n",
      totals.rounds, totals.crashes, static_cast<unsigned long long>(totals.durable_writes),
      static_cast<unsigned long long>(totals.lost), static_cast<unsigned long long>(totals.foreign),
      static_cast<unsigned long long>(totals.torn_mutations),
      static_cast<unsigned long long>(totals.rows_scanned),
      static_cast<unsigned long long>(totals.tail_bytes_kept),
      static_cast<unsigned long long>(totals.tail_bytes_lost));
  CHECK(totals.lost == 0);
}

}  // namespace
}  // namespace cellfs
