// Index and view crash rounds: simulated OS crashes (FaultEnv drops
// unsynced data) while threads write to a table with two indexes and a
// materialized view, and while CREATE INDEX and CREATE MATERIALIZED VIEW
// build over existing rows; after each reopen every index must be built and
// answer exactly what a filtered full scan returns (index_scan_model.h), and
// every view must hold its definition applied to the base table
// (view_model.h).
#include <leveldb/helpers/memenv.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/fault_env.h"
#include "tests/engine/index_scan_model.h"
#include "tests/engine/view_model.h"

namespace cellfs {
namespace {

using testing::FaultEnv;
using testing::IntValue;
using testing::RunCql;
using testing::TailLoss;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.t (k int, c int, v int, w text, s int static, PRIMARY KEY (k, c));"
    "CREATE INDEX by_v ON ks.t (v);"
    "CREATE INDEX by_s ON ks.t (s);"
    "CREATE MATERIALIZED VIEW ks.t_by_v AS SELECT v, k, c, w FROM ks.t"
    " WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);";
constexpr const char* kLateIndex = "by_w";
constexpr const char* kLateView = "t_by_w";
// The index first: a crash during its build leaves the view uncreated.
constexpr const char* kCreateLateIndex =
    "CREATE INDEX by_w ON ks.t (w);"
    "CREATE MATERIALIZED VIEW ks.t_by_w AS SELECT w, c, k, v FROM ks.t"
    " WHERE w IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY ((w, c), k);";
constexpr const char* kDropLate =
    "DROP INDEX IF EXISTS ks.by_w; DROP MATERIALIZED VIEW IF EXISTS ks.t_by_w;";

// The views and what each must hold.
struct CrashView {
  const char* name;
  testing::ViewSpec spec;
};
const CrashView kViews[] = {
    {"t_by_v", {{"v", "k", "c"}, {"w"}, nullptr}},
    {"t_by_w", {{"w", "c", "k"}, {"v"}, nullptr}},
};
constexpr int kValues = 6;  // v, s in 0..5; w in "w0".."w5"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kDefaultRounds = 30;
#else
constexpr int kDefaultRounds = 60;
#endif

// Everything a round draws from its seed.
struct RoundPlan {
  uint64_t seed = 0;
  CommitMode mode = CommitMode::kPeriodic;
  int timer_ms = 0;
  size_t write_buffer_bytes = 0;
  int threads = 1;
  int32_t keys = 0;
  int crash_after = 0;  // applied writes before the writers' crash
  // CREATE INDEX by_w and CREATE MATERIALIZED VIEW t_by_w: while the
  // writers run (crash at a random moment), or alone after a first crash,
  // crashing at the `build_crash_sync`-th sync of the log (1: the index's
  // schema change; 2: during its build or as it is marked built; 3 to 5:
  // the same for the view).
  bool create_while_writing = false;
  int build_crash_sync = 0;
  int build_rows = 0;  // rows written before that CREATE INDEX

  std::string Describe() const {
    std::ostringstream out;
    out << "seed " << seed << " (rerun: CELLFS_CRASH_SEED=" << seed << "): mode "
        << static_cast<int>(mode) << " timer " << timer_ms << " ms, buffer " << write_buffer_bytes
        << ", " << threads << " threads, " << keys << " keys, crash after " << crash_after
        << (create_while_writing ? ", CREATE INDEX while writing" : "")
        << ", build crash at log sync " << build_crash_sync << " over " << build_rows << " rows";
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
  plan.timer_ms = plan.mode == CommitMode::kPeriodic && pick(2) == 0 ? 3'600'000 : 1 + pick(5);
  const size_t buffers[] = {64u << 10, 256u << 10, 4u << 20};
  plan.write_buffer_bytes = buffers[pick(3)];
  plan.threads = 1 + pick(3);
  plan.keys = 5 + pick(60);
  plan.crash_after = pick(plan.mode == CommitMode::kGroup ? 40 * plan.threads : 600);
  plan.create_while_writing = pick(3) == 0;
  plan.build_crash_sync = 1 + pick(5);
  plan.build_rows = 200 + pick(3000);
  return plan;
}

std::string WText(int n) { return "w" + std::to_string(n); }

struct Writer {
  Engine* engine;
  FaultEnv* env;
  const RoundPlan* plan;
  std::atomic<bool>* stop;
  std::atomic<int>* applied;
  std::string error;  // an unexpected failure before the crash
};

// One mutation of 1-3 random operations on ks.t. Index changes under a
// prepared write refuse it (Aborted): not an error.
bool WriteOnce(Writer* w, std::mt19937_64& rng) {
  auto table = w->engine->FindTable("ks", "t");
  if (!table.ok()) {
    w->error = table.status().ToString();
    return false;
  }
  const TableHandle& t = table.value();
  const size_t v = testing::ColumnIndexOf(*t, "v"), wc = testing::ColumnIndexOf(*t, "w"),
               s = testing::ColumnIndexOf(*t, "s");
  auto below = [&](int n) { return static_cast<int32_t>(rng() % static_cast<uint64_t>(n)); };
  Mutation m = w->engine->NewMutation();
  const int ops = 1 + below(3);
  for (int i = 0; i < ops; ++i) {
    const std::string pk[] = {IntValue(below(w->plan->keys))};
    const std::string ck[] = {IntValue(below(4))};
    WriteAttributes a;
    if (below(8) == 0) a.ttl = 1 + below(2);
    if (below(10) == 0) a.timestamp = m.write_time() - 1 - below(1'000'000);
    const int r = below(100);
    Status st;
    if (r < 45) {
      std::vector<ColumnValue> cells = {{v, IntValue(below(kValues))}};
      if (below(2) == 0) cells.push_back({wc, WText(below(kValues))});
      st = below(2) == 0 ? m.Insert(t, pk, ck, cells, a) : m.Update(t, pk, ck, cells, a);
    } else if (r < 60) {
      const ColumnValue cells[] = {{s, IntValue(below(kValues))}};
      st = m.Update(t, pk, {}, cells, a);
    } else if (r < 75) {
      a.ttl.reset();
      const size_t columns[] = {below(2) == 0 ? v : s};
      st = m.DeleteCells(t, pk, ck, columns, a);
    } else if (r < 90) {
      a.ttl.reset();
      st = m.DeleteRow(t, pk, ck, a);
    } else if (r < 96) {
      a.ttl.reset();
      SliceSpec range;
      range.lower = ClusteringBound{{IntValue(below(4))}, below(2) == 0};
      st = m.DeleteRange(t, pk, range, a);
    } else {
      a.ttl.reset();
      st = m.DeletePartition(t, pk, a);
    }
    if (!st.ok()) {
      w->error = "building the mutation: " + st.ToString();
      return false;
    }
  }
  const Status s_applied = w->engine->Apply(std::move(m));
  if (s_applied.ok()) {
    w->applied->fetch_add(1);
  } else if (s_applied.code() != StatusCode::kAborted && !w->env->crashed()) {
    w->error = "Apply: " + s_applied.ToString();
    return false;
  }
  return true;
}

void RunWriter(Writer* w, uint64_t seed) {
  std::mt19937_64 rng(seed);
  while (!w->stop->load(std::memory_order_acquire)) {
    if (!WriteOnce(w, rng)) return;
  }
}

std::unique_ptr<Engine> OpenStore(FaultEnv* env, const RoundPlan& plan, bool read_only = false) {
  EngineOptions options;
  options.env = env;
  options.commit_mode = plan.mode;
  options.commit_period_ms = plan.timer_ms;
  options.group_window_ms = plan.timer_ms;
  options.write_buffer_bytes = plan.write_buffer_bytes;
  options.block_cache_bytes = 1u << 20;
  options.background_sweeper = false;
  options.read_only = read_only;
  auto opened = Engine::Open("/db", options);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

struct Totals {
  int rounds = 0;
  int crashes = 0;
  int interrupted_builds = 0;  // reopened with by_w in the schema but not built
  int late_index_present = 0;
  int interrupted_view_builds = 0;
  int late_view_present = 0;
  uint64_t queries = 0;
  uint64_t matches = 0;
  uint64_t view_rows = 0;
};

std::vector<std::string> QueryValues(const TableSchema& table, const IndexSchema& index) {
  std::vector<std::string> out;
  const bool text = table.column(index.column).name == "w";
  for (int n = -1; n <= kValues; ++n) out.push_back(text ? WText(n) : IntValue(n));
  return out;
}

// After a reopen: every index built, and exact for every value.
void CheckIndexes(Engine* engine, Totals* totals) {
  auto found = engine->FindTable("ks", "t");
  REQUIRE(found.ok());
  const TableHandle table = found.value();
  const ReadView view = engine->NewReadView();
  std::string error;
  const auto scan = testing::ScanWholeTable(view, table, &error);
  INFO(error);
  REQUIRE(error.empty());
  for (size_t i = 0; i < table->indexes.size(); ++i) {
    const IndexSchema& index = table->indexes[i];
    INFO("index " << table->def.indexes[i].name);
    CHECK(index.built);
    for (const std::string& value : QueryValues(*table, index)) {
      const IndexBounds bounds = IndexBounds::Equal(value);
      const std::string expected = testing::ExpectedMatches(*table, index, scan, bounds);
      INFO("value " << testing::Hex(value));
      CHECK(testing::ActualMatches(view, table, i, bounds) == expected);
      ++totals->queries;
      totals->matches += static_cast<uint64_t>(std::count(expected.begin(), expected.end(), '\n'));
    }
  }
  for (const CrashView& spec : kViews) {
    auto found_view = engine->FindTable("ks", spec.name);
    if (!found_view.ok()) continue;
    INFO("view " << spec.name);
    CHECK(found_view.value()->view->built);
    const std::string expected = testing::ExpectedView(*table, spec.spec, scan);
    CHECK(testing::ActualView(view, found_view.value(), spec.spec) == expected);
    totals->view_rows += static_cast<uint64_t>(std::count(expected.begin(), expected.end(), '\n'));
  }
}

// Reopens after a crash: first read-only (which does not build) to see
// whether a build was left unfinished, then writable, which must finish it.
std::unique_ptr<Engine> RecoverAndCheck(FaultEnv* env, const RoundPlan& plan, Totals* totals) {
  env->LoseUnsynced(TailLoss::kTorn);
  {
    std::unique_ptr<Engine> probe = OpenStore(env, plan, /*read_only=*/true);
    auto table = probe->FindTable("ks", "t");
    REQUIRE(table.ok());
    const IndexSchema* late = table.value()->FindIndex(kLateIndex);
    if (late != nullptr && !late->built) {
      ++totals->interrupted_builds;
      auto refused = probe->NewReadView().NewIndexIterator(
          table.value(), *testing::IndexNumberOf(*table.value(), kLateIndex),
          IndexBounds::Equal(WText(0)));
      CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
    }
    auto late_view = probe->FindTable("ks", kLateView);
    if (late_view.ok() && !late_view.value()->view->built) {
      ++totals->interrupted_view_builds;
      auto refused = probe->NewReadView().NewPartitionIterator(late_view.value());
      CHECK(refused->status().code() == StatusCode::kAborted);
    }
  }
  std::unique_ptr<Engine> engine = OpenStore(env, plan);
  auto table = engine->FindTable("ks", "t");
  REQUIRE(table.ok());
  if (const IndexSchema* late = table.value()->FindIndex(kLateIndex); late != nullptr) {
    ++totals->late_index_present;
    CHECK(late->built);
  }
  if (auto late_view = engine->FindTable("ks", kLateView); late_view.ok()) {
    ++totals->late_view_present;
    CHECK(late_view.value()->view->built);
  }
  CheckIndexes(engine.get(), totals);
  ++totals->crashes;
  return engine;
}

// Writers run until `plan.crash_after` writes were applied (or a time
// limit), maybe with CREATE INDEX by_w in the middle, then the OS crashes.
void WriteUntilCrash(Engine* engine, FaultEnv* env, const RoundPlan& plan) {
  std::atomic<bool> stop{false};
  std::atomic<int> applied{0};
  std::vector<Writer> writers(static_cast<size_t>(plan.threads),
                              Writer{engine, env, &plan, &stop, &applied, {}});
  std::vector<std::thread> threads;
  for (size_t i = 0; i < writers.size(); ++i) {
    threads.emplace_back(RunWriter, &writers[i], plan.seed * 1'000'003 + i);
  }
  std::thread ddl;
  Status created;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (applied.load() < plan.crash_after && std::chrono::steady_clock::now() < deadline) {
    if (plan.create_while_writing && !ddl.joinable() && applied.load() >= plan.crash_after / 2) {
      ddl = std::thread([&] { created = RunCql(engine, kCreateLateIndex); });
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  env->Crash();
  stop.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();
  if (ddl.joinable()) ddl.join();
  for (const Writer& w : writers) {
    INFO(w.error);
    CHECK(w.error.empty());
  }
}

// Rows for CREATE INDEX by_w to build over, then the crash at the plan's
// log sync while it runs (or after it, when it needed fewer syncs).
void CrashDuringBuild(Engine* engine, FaultEnv* env, const RoundPlan& plan) {
  auto found = engine->FindTable("ks", "t");
  REQUIRE(found.ok());
  const TableHandle t = found.value();
  const size_t v = testing::ColumnIndexOf(*t, "v"), w = testing::ColumnIndexOf(*t, "w");
  std::mt19937_64 rng(plan.seed);
  for (int i = 0; i < plan.build_rows;) {
    Mutation m = engine->NewMutation();
    for (int j = 0; j < 50 && i < plan.build_rows; ++j, ++i) {
      const std::string pk[] = {IntValue(static_cast<int32_t>(rng() % 500))};
      const std::string ck[] = {IntValue(static_cast<int32_t>(rng() % 8))};
      const ColumnValue cells[] = {{v, IntValue(static_cast<int32_t>(rng() % kValues))},
                                   {w, WText(static_cast<int>(rng() % kValues))}};
      REQUIRE(m.Insert(t, pk, ck, cells).ok());
    }
    REQUIRE(engine->Apply(std::move(m)).ok());
  }
  env->Hold(testing::FileOp::kSync, ".log");
  testing::HoldRelease release(env);
  std::atomic<bool> done{false};
  std::thread ddl([&] {
    (void)RunCql(engine, kCreateLateIndex);
    done.store(true);
  });
  uint64_t passed = 0;
  while (!done.load() && env->arrivals() < static_cast<uint64_t>(plan.build_crash_sync)) {
    if (env->arrivals() > passed) {
      env->LetOneThrough();
      ++passed;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  env->Crash();
  env->ReleaseHolds();
  ddl.join();
}

void RunRound(uint64_t seed, Totals* totals) {
  const RoundPlan plan = PlanRound(seed);
  INFO(plan.Describe());
  std::unique_ptr<leveldb::Env> memory(leveldb::NewMemEnv(leveldb::Env::Default()));
  FaultEnv env(memory.get(), seed);
  std::unique_ptr<Engine> engine = OpenStore(&env, plan);
  REQUIRE(RunCql(engine.get(), kSchema).ok());

  WriteUntilCrash(engine.get(), &env, plan);
  engine.reset();
  engine = RecoverAndCheck(&env, plan, totals);

  auto table = engine->FindTable("ks", "t");
  REQUIRE(table.ok());
  REQUIRE(RunCql(engine.get(), kDropLate).ok());
  CrashDuringBuild(engine.get(), &env, plan);
  engine.reset();
  engine = RecoverAndCheck(&env, plan, totals);
  engine.reset();
  ++totals->rounds;
}

std::vector<uint64_t> Seeds() {
  if (const char* one = std::getenv("CELLFS_CRASH_SEED")) return {std::strtoull(one, nullptr, 10)};
  int rounds = kDefaultRounds;
  if (const char* count = std::getenv("CELLFS_CRASH_ROUNDS")) rounds = std::atoi(count);
  std::vector<uint64_t> seeds;
  for (int i = 1; i <= rounds; ++i) seeds.push_back(static_cast<uint64_t>(i));
  return seeds;
}

TEST_CASE("after an OS crash every index and view is built and agrees exactly with a full scan",
          "[index][crash]") {
  Totals totals;
  for (uint64_t seed : Seeds()) RunRound(seed, &totals);
  std::printf(
      "index and view crash: %d rounds, %d crashes, %d reopened with an unfinished index build, "
      "%d with by_w, %d with an unfinished view build, %d with t_by_w, %llu queries, %llu "
      "matches, %llu view rows\n",
      totals.rounds, totals.crashes, totals.interrupted_builds, totals.late_index_present,
      totals.interrupted_view_builds, totals.late_view_present,
      static_cast<unsigned long long>(totals.queries),
      static_cast<unsigned long long>(totals.matches),
      static_cast<unsigned long long>(totals.view_rows));
  // The rounds must reach the case they are for: a build cut by the crash.
  if (totals.rounds >= 20) {
    CHECK(totals.interrupted_builds > 0);
    CHECK(totals.interrupted_view_builds > 0);
  }
}

}  // namespace
}  // namespace cellfs
