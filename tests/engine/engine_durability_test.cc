// Durability: what each commit mode and Engine::Sync promise, checked by
// simulating an OS crash (CrashEnv drops everything unsynced) and by killing
// a child process that writes to a real directory.
#include <leveldb/helpers/memenv.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "tests/engine/crash_env.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::IntValue;

using testing::CrashEnv;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.kv (k int PRIMARY KEY, v text);";

// Writes row k = `key`, v = "value<key>" in a mutation of its own.
Status WriteRow(Engine* engine, const TableHandle& table, int32_t key) {
  Mutation mutation = engine->NewMutation();
  const std::string pk[] = {IntValue(key)};
  const ColumnValue cells[] = {{1, "value" + std::to_string(key)}};
  CELLFS_RETURN_IF_ERROR(mutation.Update(table, pk, {}, cells));
  return engine->Apply(std::move(mutation));
}

bool HasRow(Engine* engine, const TableHandle& table, int32_t key) {
  const std::string pk[] = {IntValue(key)};
  auto row = engine->NewReadView().GetRow(table, pk, {});
  REQUIRE(row.ok());
  return row->has_value();
}

std::unique_ptr<Engine> OpenOn(leveldb::Env* env, const std::string& path, EngineOptions options) {
  options.env = env;
  options.background_sweeper = false;
  auto opened = Engine::Open(path, options);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

struct CrashHarness {
  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  CrashEnv env{memory.get()};
  std::unique_ptr<Engine> engine;
  TableHandle table;

  explicit CrashHarness(EngineOptions options) {
    engine = OpenOn(&env, "/db", options);
    std::string keyspace;
    testing::RunDdl(engine.get(), kSchema, &keyspace);
    table = engine->FindTable("ks", "kv").value();
  }

  // Crashes the "OS", loses what was not synced, and reopens.
  void CrashAndReopen() {
    env.Crash();
    engine.reset();
    env.LoseUnsynced();
    engine = OpenOn(&env, "/db", {});
    table = engine->FindTable("ks", "kv").value();
  }
};

TEST_CASE("batch mode: every acknowledged write survives an OS crash", "[durability]") {
  EngineOptions options;
  options.commit_mode = CommitMode::kBatch;
  CrashHarness h(options);
  for (int32_t k = 0; k < 100; ++k) REQUIRE(WriteRow(h.engine.get(), h.table, k).ok());
  h.CrashAndReopen();
  for (int32_t k = 0; k < 100; ++k) CHECK(HasRow(h.engine.get(), h.table, k));
}

TEST_CASE("periodic mode: Sync makes acknowledged writes survive an OS crash, later ones are lost",
          "[durability]") {
  EngineOptions options;
  options.commit_mode = CommitMode::kPeriodic;
  options.commit_period_ms = 3'600'000;  // the timer never fires during the test
  CrashHarness h(options);
  for (int32_t k = 0; k < 100; ++k) REQUIRE(WriteRow(h.engine.get(), h.table, k).ok());
  REQUIRE(h.engine->Sync().ok());
  REQUIRE(WriteRow(h.engine.get(), h.table, 100).ok());
  h.CrashAndReopen();
  for (int32_t k = 0; k < 100; ++k) CHECK(HasRow(h.engine.get(), h.table, k));
  // Proves the simulated crash really drops unsynced data.
  CHECK_FALSE(HasRow(h.engine.get(), h.table, 100));
}

TEST_CASE("periodic mode: the timer syncs acknowledged writes", "[durability]") {
  EngineOptions options;
  options.commit_mode = CommitMode::kPeriodic;
  options.commit_period_ms = 20;
  CrashHarness h(options);
  // The first mutation stores a write-time lease, a synced write of its own;
  // made first, so that the syncs counted below are the timer's.
  (void)h.engine->NewMutation();
  const int syncs_before = h.env.syncs();
  REQUIRE(WriteRow(h.engine.get(), h.table, 7).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (h.env.syncs() == syncs_before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(h.env.syncs() > syncs_before);
  h.CrashAndReopen();
  CHECK(HasRow(h.engine.get(), h.table, 7));
}

TEST_CASE("group mode: concurrent writers are acknowledged only after a shared sync",
          "[durability]") {
  EngineOptions options;
  options.commit_mode = CommitMode::kGroup;
  options.group_window_ms = 2;
  CrashHarness h(options);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        if (!WriteRow(h.engine.get(), h.table, t * kPerThread + i).ok()) ++failures;
      }
    });
  }
  for (auto& w : writers) w.join();
  REQUIRE(failures == 0);
  // Fewer syncs than writes: writers shared them.
  CHECK(h.env.syncs() < kThreads * kPerThread);
  h.CrashAndReopen();
  for (int32_t k = 0; k < kThreads * kPerThread; ++k) CHECK(HasRow(h.engine.get(), h.table, k));
}

TEST_CASE("a killed process loses no acknowledged write", "[durability]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cellfs-kill-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(pipe_fds[0]);
    EngineOptions options;
    options.commit_period_ms = 3'600'000;  // never synced: only the OS has the writes
    options.background_sweeper = false;
    auto engine = std::move(Engine::Open(dir.string(), options)).value();
    std::string keyspace;
    CqlParser parser(kSchema);
    for (bool done = false;;) {
      Statement statement;
      if (!parser.Next(&statement, &done).ok()) _exit(2);
      if (done) break;
      if (!engine->Execute(statement, &keyspace).ok()) _exit(3);
    }
    TableHandle table = engine->FindTable("ks", "kv").value();
    for (int32_t k = 0;; ++k) {
      if (!WriteRow(engine.get(), table, k).ok()) _exit(4);
      if (write(pipe_fds[1], &k, sizeof k) != sizeof k) _exit(5);
      if (k == 2000) kill(getpid(), SIGKILL);
    }
  }
  close(pipe_fds[1]);
  int32_t last = -1;
  for (int32_t k; read(pipe_fds[0], &k, sizeof k) == sizeof k;) last = k;
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(last >= 2000);

  EngineOptions options;
  options.background_sweeper = false;
  auto engine = std::move(Engine::Open(dir.string(), options)).value();
  TableHandle table = engine->FindTable("ks", "kv").value();
  int missing = 0;
  for (int32_t k = 0; k <= last; ++k) missing += HasRow(engine.get(), table, k) ? 0 : 1;
  CHECK(missing == 0);
  engine.reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("a second engine on the same directory gets a clear error", "[durability]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cellfs-lock-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  EngineOptions options;
  options.background_sweeper = false;
  auto first = Engine::Open(dir.string(), options);
  REQUIRE(first.ok());
  auto second = Engine::Open(dir.string(), options);
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().code() == StatusCode::kIOError);
  CHECK_THAT(second.status().message(), Catch::Contains("in use by another process"));
  first.value().reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cellfs
