// Write times across crashes: an engine stopped without a clean close (kill
// -9, an OS crash) and reopened on a clock that stepped back still hands out
// write times above every one handed out before, so a new write wins.
#include "engine/store/internal/write_time_lease.h"

#include <leveldb/db.h>
#include <leveldb/helpers/memenv.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "engine/cql/big_endian.h"
#include "engine/engine.h"
#include "engine/store/internal/storage_keys.h"
#include "tests/engine/engine_test_util.h"
#include "tests/engine/fault_env.h"

namespace cellfs {
namespace {

using testing::DiskFault;
using testing::FaultEnv;
using testing::FaultPlan;
using testing::FormatRow;
using testing::IntValue;
using testing::RunCql;
using testing::TailLoss;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.kv (k int PRIMARY KEY, v text);";
constexpr size_t kV = 1;  // v's index in ks.kv
constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kHour = 3600 * kSecond;
constexpr int64_t kWindow = storage::kWriteTimeLeaseMicros;

// An engine over a FaultEnv over a MemEnv, with a ManualClock. Crash() stops
// it as kill -9 or an OS crash does: nothing it writes from then on (its
// close included) reaches the files, and what was not synced is lost.
class CrashableStore {
 public:
  explicit CrashableStore(CommitMode mode = CommitMode::kBatch) {
    options_.env = &env;
    options_.clock = &clock;
    options_.commit_mode = mode;
    options_.commit_period_ms = 3'600'000;
    options_.group_window_ms = 1;
    options_.background_sweeper = false;
    Open();
    REQUIRE(RunCql(engine.get(), kSchema).ok());
  }
  ~CrashableStore() { engine.reset(); }

  void Open() {
    auto opened = Engine::Open("/db", options_);
    INFO(opened.status().ToString());
    REQUIRE(opened.ok());
    engine = std::move(opened).value();
  }
  void Crash(TailLoss tails = TailLoss::kExact) {
    env.Crash();
    engine.reset();
    env.LoseUnsynced(tails);
  }
  void CloseCleanly() { engine.reset(); }

  // Sets v of `key` (a deletion of v when `value` is empty); returns the
  // mutation's write time. REQUIREs success.
  int64_t Write(int32_t key, const std::string& value) {
    TableHandle kv = engine->FindTable("ks", "kv").value();
    Mutation mutation = engine->NewMutation();
    const int64_t write_time = mutation.write_time();
    const std::string pk[] = {IntValue(key)};
    Status made;
    if (value.empty()) {
      const size_t columns[] = {kV};
      made = mutation.DeleteCells(kv, pk, {}, columns);
    } else {
      const ColumnValue cells[] = {{kV, value}};
      made = mutation.Update(kv, pk, {}, cells);
    }
    REQUIRE(made.ok());
    Status applied = engine->Apply(std::move(mutation));
    INFO(applied.ToString());
    REQUIRE(applied.ok());
    return write_time;
  }

  // The row of `key` as FormatRow text without write times ("v='a'",
  // "v=<deleted>"), or "<none>".
  std::string Read(int32_t key) {
    TableHandle kv = engine->FindTable("ks", "kv").value();
    const std::string pk[] = {IntValue(key)};
    auto row = engine->NewReadView().GetRow(kv, pk, {});
    INFO(row.status().ToString());
    REQUIRE(row.ok());
    return row.value() ? FormatRow(*kv, *row.value(), /*write_times=*/false) : "<none>";
  }

  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv env{memory.get()};
  ManualClock clock;
  std::unique_ptr<Engine> engine;

 private:
  EngineOptions options_;
};

TEST_CASE("a write after a crash and a clock step back wins over the writes before the crash",
          "[write_time]") {
  CrashableStore store;
  const int64_t old_time = store.Write(1, "old");
  REQUIRE(store.Read(1) == "v='old'");
  store.Crash();  // no clean close: ~Engine stores nothing
  store.clock.AdvanceMicros(-kHour);
  store.Open();
  REQUIRE(store.Read(1) == "v='old'");

  SECTION("an overwrite") {
    const int64_t new_time = store.Write(1, "new");
    CHECK(new_time > old_time);
    CHECK(store.Read(1) == "v='new'");
  }
  SECTION("a deletion") {
    const int64_t new_time = store.Write(1, "");
    CHECK(new_time > old_time);
    CHECK(store.Read(1) == "<none>");
  }
  SECTION("a deletion after a second crash and step back") {
    const int64_t new_time = store.Write(1, "new");
    store.Crash();
    store.clock.AdvanceMicros(-kHour);
    store.Open();
    const int64_t deleted_time = store.Write(1, "");
    CHECK(new_time > old_time);
    CHECK(deleted_time > new_time);
    CHECK(store.Read(1) == "<none>");
  }
}

TEST_CASE("a clean close does not leave write times a lease window ahead of the clock",
          "[write_time]") {
  CrashableStore store;
  const int64_t before = store.Write(1, "a");
  store.CloseCleanly();
  store.clock.AdvanceMicros(1000);
  store.Open();
  const int64_t after = store.Write(1, "b");
  CHECK(after > before);
  CHECK(after == store.clock.NowMicros());  // the clock, not the lease's end
}

// The lease's whole point is its price: one synced write per window of
// clock time, whatever the number of writes in it.
TEST_CASE("write-time leases cost one synced write per lease window", "[write_time]") {
  CrashableStore store(CommitMode::kPeriodic);  // the period is an hour: no timed syncs
  const int before = store.env.syncs();
  SECTION("a clock that moves") {
    constexpr int kWrites = 20'000;
    const int64_t step = 1000;  // 20 s of clock in all
    for (int i = 0; i < kWrites; ++i) {
      store.clock.AdvanceMicros(step);
      (void)store.Write(i % 100, "x");
    }
    const int64_t windows = kWrites * step / kWindow;
    const int leases = store.env.syncs() - before;
    INFO(leases << " lease writes over " << windows << " windows");
    CHECK(leases >= windows);
    CHECK(leases <= windows + 2);
  }
  SECTION("a clock that stands still") {
    for (int i = 0; i < 20'000; ++i) (void)store.Write(i % 100, "x");
    CHECK(store.env.syncs() - before == 1);  // 20,000 microseconds: one window
  }
}

TEST_CASE("a failed write-time lease write fails the write and closes the write fence",
          "[write_time]") {
  CrashableStore store(CommitMode::kPeriodic);
  (void)store.Write(1, "acknowledged");
  REQUIRE(store.engine->Sync().ok());
  store.clock.AdvanceMicros(2 * kWindow);  // the next write time needs a new lease
  store.env.Inject(FaultPlan::Now(DiskFault::kNoSpace));
  TableHandle kv = store.engine->FindTable("ks", "kv").value();
  Mutation mutation = store.engine->NewMutation();
  const std::string pk[] = {IntValue(2)};
  const ColumnValue cells[] = {{kV, std::string("refused")}};
  REQUIRE(mutation.Update(kv, pk, {}, cells).ok());
  Status applied = store.engine->Apply(std::move(mutation));
  CHECK(applied.code() == StatusCode::kNoSpace);
  CHECK_THAT(applied.message(), Catch::Contains("write-time lease"));
  CHECK(store.engine->WriteHealth().code() == StatusCode::kNoSpace);

  store.env.ClearFault();  // space is back: still refused until a reopen
  Mutation later = store.engine->NewMutation();
  REQUIRE(later.Update(kv, pk, {}, cells).ok());
  CHECK(store.engine->Apply(std::move(later)).code() == StatusCode::kNoSpace);

  store.CloseCleanly();
  store.Open();
  CHECK(store.Read(1) == "v='acknowledged'");
  CHECK(store.Read(2) == "<none>");
  (void)store.Write(2, "works again");
  CHECK(store.Read(2) == "v='works again'");
}

// Stores written before leases held, under the same key, the high-water mark
// a clean close stored: write times must resume above it.
TEST_CASE("a store whose write-time mark predates leases opens and writes above it",
          "[write_time]") {
  CrashableStore store;
  (void)store.Write(1, "a");
  store.CloseCleanly();
  const int64_t mark = store.clock.NowMicros() + 5 * kHour;
  {
    leveldb::Options options;
    options.env = store.memory.get();
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(options, "/db", &raw).ok());
    std::unique_ptr<leveldb::DB> db(raw);
    leveldb::WriteOptions sync;
    sync.sync = true;
    REQUIRE(db->Put(sync, storage::MetaKey(storage::kWriteTimeName),
                    BigEndianBytes(static_cast<uint64_t>(mark), 8))
                .ok());
  }
  store.Open();
  CHECK(store.Write(1, "b") > mark);
  CHECK(store.Read(1) == "v='b'");
}

// The invariant under random crashes: whatever the commit mode, the clock's
// moves (still, forward, back) and the moment of the crash, the reopened
// engine's first write time exceeds every write time handed out before it.
TEST_CASE(
    "after a crash at a random point and a random clock step back, the first write time "
    "exceeds every earlier one",
    "[write_time]") {
  constexpr int kRounds = 40;
  int crashes = 0;
  int writes = 0;
  int64_t clock_span = 0;  // microseconds the clock moved forward, summed
  int backwards = 0;       // first writes at or below an earlier write time
  for (int seed = 1; seed <= kRounds; ++seed) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    const CommitMode modes[] = {CommitMode::kBatch, CommitMode::kPeriodic, CommitMode::kGroup};
    const CommitMode mode = modes[rng() % 3];
    INFO("seed " << seed << ", commit mode " << static_cast<int>(mode));
    CrashableStore store(mode);
    int64_t highest = INT64_MIN;  // every write time handed out so far
    const int rounds = 2 + static_cast<int>(rng() % 3);
    for (int crash = 0; crash < rounds; ++crash) {
      const int count = static_cast<int>(rng() % 300);
      int64_t last = INT64_MIN;
      for (int i = 0; i < count; ++i) {
        switch (rng() % 10) {
          case 0:
          case 1:
            break;  // the clock stands still
          case 2:
            store.clock.AdvanceMicros(-static_cast<int64_t>(rng() % (3 * kSecond)));
            break;
          case 3: {
            const int64_t jump = static_cast<int64_t>(rng() % (3 * kSecond));
            store.clock.AdvanceMicros(jump);
            clock_span += jump;
            break;
          }
          default: {
            const int64_t step = static_cast<int64_t>(rng() % (200'000));
            store.clock.AdvanceMicros(step);
            clock_span += step;
            break;
          }
        }
        const int64_t t = store.Write(static_cast<int32_t>(rng() % 20), "w" + std::to_string(i));
        CHECK(t > last);
        last = t;
        highest = std::max(highest, t);
        ++writes;
        if (mode == CommitMode::kPeriodic && rng() % 50 == 0) REQUIRE(store.engine->Sync().ok());
      }
      store.Crash(TailLoss::kTorn);
      ++crashes;
      // A small step back (inside a lease window) or a large one.
      store.clock.AdvanceMicros(
          -static_cast<int64_t>(rng() % 2 == 0 ? rng() % (5 * kSecond) : rng() % (2 * kHour)));
      store.Open();
      const int32_t key = static_cast<int32_t>(rng() % 20);
      const int64_t first = store.Write(key, "after crash " + std::to_string(crash));
      INFO("crash " << crash << ": first write time " << first << ", highest before " << highest);
      CHECK(first > highest);
      backwards += first > highest ? 0 : 1;
      CHECK(store.Read(key) == "v='after crash " + std::to_string(crash) + "'");
      highest = std::max(highest, first);
    }
  }
  std::printf(
      "write-time leases: %d rounds, %d crashes, %d writes over %.1f s of clock (%lld lease "
      "windows), %d first writes after a crash at or below an earlier write time\n",
      kRounds, crashes, writes, static_cast<double>(clock_span) / kSecond,
      static_cast<long long>(clock_span / kWindow), backwards);
}

}  // namespace
}  // namespace cellfs
