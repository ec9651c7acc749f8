// A full (ENOSPC) or read-only (EROFS) device under the engine: the write
// that meets it fails with NoSpace or ReadOnly, every later write is refused
// until a reopen, reads keep returning exactly what was acknowledged, and a
// reopen once the device works holds every acknowledged write and no part
// of a failed one.
#include <leveldb/dumpfile.h>
#include <leveldb/helpers/memenv.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
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

using testing::DiskFault;
using testing::FaultEnv;
using testing::FaultPlan;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.kv (k int PRIMARY KEY, v text, w text);"
    "CREATE TABLE ks.ttl (k int PRIMARY KEY, v text);";
constexpr size_t kV = 1;  // column indexes in ks.kv
constexpr size_t kW = 2;
constexpr int kLogBlock = 32768;  // LevelDB's log block (db/log_format.h)
constexpr int kLogHeader = 7;

StatusCode CodeOf(DiskFault fault) {
  return fault == DiskFault::kNoSpace ? StatusCode::kNoSpace : StatusCode::kReadOnly;
}
std::string CauseOf(DiskFault fault) {
  return fault == DiskFault::kNoSpace ? "No space left on device" : "Read-only file system";
}
const char* NameOf(CommitMode mode) {
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

using Rows = std::map<int32_t, std::pair<std::string, std::string>>;  // k -> (v, w)

// "" when equal; else the keys that differ.
std::string Diff(const Rows& expected, const Rows& actual) {
  std::ostringstream out;
  for (const auto& [key, cells] : expected) {
    auto it = actual.find(key);
    if (it == actual.end()) {
      out << "missing " << key << "; ";
    } else if (it->second != cells) {
      out << "changed " << key << " (v " << it->second.first.substr(0, 24) << "...); ";
    }
  }
  for (const auto& [key, cells] : actual) {
    if (expected.count(key) == 0) out << "unexpected " << key << "; ";
  }
  return out.str();
}

// CHECKs that `actual` holds exactly `expected`, naming the keys that differ.
void CheckRows(const Rows& expected, const Rows& actual) {
  const std::string diff = Diff(expected, actual);
  INFO(diff);
  CHECK(diff.empty());
}

// An engine over a FaultEnv over a MemEnv, with the rows it acknowledged.
class FaultStore {
 public:
  explicit FaultStore(CommitMode mode, size_t write_buffer_bytes = 4u << 20) {
    options_.env = &env;
    options_.clock = &clock;
    options_.commit_mode = mode;
    options_.commit_period_ms = 3'600'000;
    options_.group_window_ms = 2;
    options_.write_buffer_bytes = write_buffer_bytes;
    options_.background_sweeper = false;
    Reopen();
    REQUIRE(RunCql(engine.get(), kSchema).ok());
  }
  ~FaultStore() { engine.reset(); }

  // Closes the engine (if open) and opens it again on the same files.
  void Reopen() {
    Status reopened = TryReopen();
    INFO(reopened.ToString());
    REQUIRE(reopened.ok());
  }
  Status TryReopen() {
    engine.reset();
    auto opened = Engine::Open("/db", options_);
    if (!opened.ok()) return opened.status();
    engine = std::move(opened).value();
    return Status::Ok();
  }

  // One mutation writing v and w of every key in `keys`; on success the rows
  // are acknowledged. `pad` lengthens v.
  Status Write(const std::vector<int32_t>& keys, const std::string& tag, size_t pad = 0) {
    Mutation mutation = engine->NewMutation();
    Rows rows = Fill(keys, tag, pad, &mutation);
    Status s = engine->Apply(std::move(mutation));
    if (s.ok()) {
      for (auto& [key, cells] : rows) acked[key] = cells;
    }
    return s;
  }

  // The mutation Write would apply, and the rows it holds.
  Rows Fill(const std::vector<int32_t>& keys, const std::string& tag, size_t pad,
            Mutation* mutation) {
    TableHandle kv = engine->FindTable("ks", "kv").value();
    Rows rows;
    for (int32_t key : keys) {
      std::string v = tag + "-v" + std::to_string(key) + std::string(pad, '.');
      std::string w = tag + "-w" + std::to_string(key);
      const std::string pk[] = {IntValue(key)};
      const ColumnValue cells[] = {{kV, v}, {kW, w}};
      REQUIRE(mutation->Update(kv, pk, {}, cells).ok());
      rows[key] = {v, w};
    }
    return rows;
  }

  // Every row of ks.kv, by a full scan; REQUIREs it to end without error.
  Rows ReadAll() const {
    TableHandle kv = engine->FindTable("ks", "kv").value();
    Rows rows;
    TableScan scan(engine->NewReadView(), kv);
    for (; scan.Valid(); scan.Next()) {
      std::vector<std::string> pk;
      REQUIRE(scan.partition().DecodePartitionKey(&pk).ok());
      REQUIRE(scan.has_row());
      auto& cells = rows[IntOf(pk.at(0))];
      for (const RowCell& cell : scan.row().row().cells) {
        (kv->ColumnIndexById(cell.column_id) == kV ? cells.first : cells.second) = cell.cell.value;
      }
    }
    INFO(scan.status().ToString());
    REQUIRE(scan.status().ok());
    return rows;
  }

  std::unique_ptr<leveldb::Env> memory{leveldb::NewMemEnv(leveldb::Env::Default())};
  FaultEnv env{memory.get()};
  ManualClock clock;
  std::unique_ptr<Engine> engine;
  Rows acked;

 private:
  EngineOptions options_;
};

// The store works again after a reopen on a healthy device, and keeps what
// it then acknowledges.
void CheckWritesWorkAgain(FaultStore* store) {
  CHECK(store->engine->WriteHealth().ok());
  Status written = store->Write({9000, 9001}, "reopened");
  INFO(written.ToString());
  CHECK(written.ok());
  CHECK(store->engine->Sync().ok());
  CHECK(RunCql(store->engine.get(), "CREATE TABLE ks.again (k int PRIMARY KEY);").ok());
  store->Reopen();
  CheckRows(store->acked, store->ReadAll());
  CHECK(store->engine->FindTable("ks", "again").ok());
}

// Ten mutations of three rows each, all acknowledged.
void WriteAcknowledged(FaultStore* store, size_t pad = 0) {
  for (int32_t m = 0; m < 10; ++m) {
    REQUIRE(store->Write({3 * m, 3 * m + 1, 3 * m + 2}, "ok" + std::to_string(m), pad).ok());
  }
}

TEST_CASE("a full or read-only device fails the write, then refuses every write until a reopen",
          "[disk_fault]") {
  const DiskFault fault = GENERATE(DiskFault::kNoSpace, DiskFault::kReadOnly);
  const CommitMode mode = GENERATE(CommitMode::kBatch, CommitMode::kGroup, CommitMode::kPeriodic);
  INFO(CauseOf(fault) << ", " << NameOf(mode) << " mode");
  FaultStore store(mode);
  WriteAcknowledged(&store);
  {
    // A cell that expires, so that the sweep below has something to write.
    Mutation mutation = store.engine->NewMutation();
    const std::string pk[] = {IntValue(1)};
    const ColumnValue cells[] = {{kV, std::string("soon gone")}};  // ks.ttl.v
    WriteAttributes ttl;
    ttl.ttl = 5;
    REQUIRE(mutation.Update(store.engine->FindTable("ks", "ttl").value(), pk, {}, cells, ttl).ok());
    REQUIRE(store.engine->Apply(std::move(mutation)).ok());
  }

  store.env.Inject(FaultPlan::Now(fault));
  Status failed = store.Write({100, 101, 102}, "failed");
  CHECK(failed.code() == CodeOf(fault));
  CHECK_THAT(failed.message(), Catch::Contains(CauseOf(fault)));
  Status health = store.engine->WriteHealth();
  CHECK(health.code() == CodeOf(fault));
  CHECK_THAT(health.message(), Catch::Contains("writes are refused after a storage failure") &&
                                   Catch::Contains(CauseOf(fault)));

  store.env.ClearFault();  // space freed, or the device remounted read-write
  const uint64_t bytes_at_failure = store.env.appended_bytes();
  Status later = store.Write({200}, "later");
  CHECK(later.code() == CodeOf(fault));
  CHECK_THAT(later.message(), Catch::Contains("writes are refused after a storage failure"));
  CHECK(store.engine->Sync().code() == CodeOf(fault));
  CHECK(RunCql(store.engine.get(), "CREATE TABLE ks.later (k int PRIMARY KEY);").code() ==
        CodeOf(fault));
  store.clock.AdvanceSeconds(3600);  // the ttl cell is due for purging
  CHECK(store.engine->Sweep().code() == CodeOf(fault));
  CHECK(store.env.appended_bytes() == bytes_at_failure);  // nothing more reached the device

  CheckRows(store.acked, store.ReadAll());
  CHECK_FALSE(store.engine->FindTable("ks", "later").ok());

  // A reopen while the device still fails is refused with the cause, and
  // harms nothing.
  store.env.Inject(FaultPlan::Now(fault));
  Status reopened = store.TryReopen();
  CHECK(reopened.code() == CodeOf(fault));
  CHECK_THAT(reopened.message(), Catch::Contains(CauseOf(fault)));
  store.env.ClearFault();
  store.Reopen();
  CheckRows(store.acked, store.ReadAll());
  CHECK_FALSE(store.engine->FindTable("ks", "later").ok());
  CheckWritesWorkAgain(&store);
}

// The bytes LevelDB's log writer appends for a record of `payload` bytes
// that starts `offset` bytes into a block: fragment headers, and the zero
// trailer of a block with no room left for a header (db/log_writer.cc).
uint64_t LogBytesFor(uint64_t offset, uint64_t payload) {
  uint64_t bytes = 0;
  uint64_t left = payload;
  offset %= kLogBlock;
  do {
    if (kLogBlock - offset < kLogHeader) {
      bytes += kLogBlock - offset;
      offset = 0;
    }
    const uint64_t fragment = std::min<uint64_t>(left, kLogBlock - offset - kLogHeader);
    bytes += kLogHeader + fragment;
    offset += kLogHeader + fragment;
    left -= fragment;
  } while (left > 0);
  return bytes;
}

// The name of the store's newest log file (LevelDB numbers files in
// zero-padded decimal, so the newest sorts last).
std::string NewestLog(leveldb::Env* env) {
  std::vector<std::string> children;
  REQUIRE(env->GetChildren("/db", &children).ok());
  std::string newest;
  for (const std::string& name : children) {
    if (name.ends_with(".log") && name > newest) newest = name;
  }
  REQUIRE_FALSE(newest.empty());
  return newest;
}

// The size of the store's newest log file.
uint64_t CurrentLogSize(leveldb::Env* env) {
  uint64_t size = 0;
  REQUIRE(env->GetFileSize("/db/" + NewestLog(env), &size).ok());
  return size;
}

// The names of the store's files whose name contains `part`.
std::vector<std::string> FilesOf(leveldb::Env* env, const std::string& part) {
  std::vector<std::string> children;
  REQUIRE(env->GetChildren("/db", &children).ok());
  std::vector<std::string> matching;
  for (const std::string& name : children) {
    if (name.find(part) != std::string::npos) matching.push_back(name);
  }
  return matching;
}

// The MANIFEST's version edits as text ("AddFile: <level> <number> ...",
// "RemoveFile: <level> <number>"). Only whole records: a record still being
// appended (its header lands before its payload) is left out.
std::string ManifestText(leveldb::Env* env) {
  class Text : public leveldb::WritableFile {
   public:
    leveldb::Status Append(const leveldb::Slice& data) override {
      text.append(data.data(), data.size());
      return leveldb::Status::OK();
    }
    leveldb::Status Close() override { return leveldb::Status::OK(); }
    leveldb::Status Flush() override { return leveldb::Status::OK(); }
    leveldb::Status Sync() override { return leveldb::Status::OK(); }
    std::string text;
  } dump;
  const std::vector<std::string> manifests = FilesOf(env, "MANIFEST-");
  REQUIRE(manifests.size() == 1);
  REQUIRE(leveldb::DumpFile(env, "/db/" + manifests[0], &dump).ok());
  return dump.text;
}

// The number of tables the MANIFEST records as added, at any level.
size_t TablesAdded(leveldb::Env* env) {
  const std::string text = ManifestText(env);
  size_t added = 0;
  for (size_t at = text.find("AddFile:"); at != std::string::npos;
       at = text.find("AddFile:", at + 1)) {
    ++added;
  }
  return added;
}

// The number of level-0 tables the MANIFEST records.
size_t Level0Files(leveldb::Env* env) {
  std::set<std::string> level0;
  std::istringstream lines(ManifestText(env));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string verb, level, number;
    words >> verb >> level >> number;
    if (level != "0") continue;
    if (verb == "AddFile:") level0.insert(number);
    if (verb == "RemoveFile:") level0.erase(number);
  }
  return level0.size();
}

TEST_CASE("a write torn in the middle of its log record by a full disk is never applied",
          "[disk_fault]") {
  const CommitMode mode = GENERATE(CommitMode::kBatch, CommitMode::kPeriodic);
  INFO(NameOf(mode) << " mode");
  FaultStore store(mode);
  WriteAcknowledged(&store, /*pad=*/300);

  Mutation mutation = store.engine->NewMutation();
  std::vector<int32_t> keys;
  size_t pad = 500;
  std::string where;
  SECTION("in the record's header") { where = "header"; }
  SECTION("in the middle of its payload") { where = "middle"; }
  SECTION("one byte short of its end") { where = "end"; }
  SECTION("in a later block of a record that spans blocks") {
    where = "later block";
    pad = 4000;
  }
  for (int32_t k = 100; k < 120; ++k) keys.push_back(k);
  (void)store.Fill(keys, "torn", pad, &mutation);
  const uint64_t record = LogBytesFor(CurrentLogSize(store.memory.get()), mutation.byte_size());
  uint64_t budget = 0;
  if (where == "header") budget = 3;
  if (where == "middle") budget = record / 2;
  if (where == "end") budget = record - 1;
  if (where == "later block") {
    REQUIRE(record > 2 * kLogBlock);
    budget = record - kLogBlock / 2;
  }
  INFO("cut after " << budget << " of " << record << " bytes, " << where);

  store.env.Inject(FaultPlan::AfterBytes(DiskFault::kNoSpace, budget));
  Status failed = store.engine->Apply(std::move(mutation));
  CHECK(failed.code() == StatusCode::kNoSpace);
  CHECK(store.env.torn_appends() == 1);  // some bytes of the record landed, not all
  CheckRows(store.acked, store.ReadAll());

  store.env.ClearFault();
  CHECK(store.Write({200}, "behind the torn record").code() == StatusCode::kNoSpace);
  CheckRows(store.acked, store.ReadAll());

  store.Reopen();
  const Rows recovered = store.ReadAll();
  CheckRows(store.acked, recovered);  // not one row of the torn mutation
  CheckWritesWorkAgain(&store);
}

TEST_CASE("a failed fsync refuses later writes; the write it covered is all or nothing",
          "[disk_fault]") {
  const CommitMode mode = GENERATE(CommitMode::kBatch, CommitMode::kGroup, CommitMode::kPeriodic);
  INFO(NameOf(mode) << " mode");
  FaultStore store(mode);
  WriteAcknowledged(&store);

  FaultPlan plan;
  plan.syncs_only = true;  // the record lands; its fsync reports the full disk
  store.env.Inject(plan);
  Mutation mutation = store.engine->NewMutation();
  const Rows pending = store.Fill({100, 101, 102, 103}, "unsynced", 0, &mutation);
  Status written = store.engine->Apply(std::move(mutation));
  if (mode == CommitMode::kPeriodic) {
    // Acknowledged at once; the failure shows at the next sync.
    REQUIRE(written.ok());
    for (const auto& [key, cells] : pending) store.acked[key] = cells;
    Status synced = store.engine->Sync();
    CHECK(synced.code() == StatusCode::kNoSpace);
    CHECK_THAT(synced.message(), Catch::Contains("No space left on device"));
  } else {
    CHECK(written.code() == StatusCode::kNoSpace);
    CHECK_THAT(written.message(), Catch::Contains("No space left on device"));
  }
  CHECK(store.engine->WriteHealth().code() == StatusCode::kNoSpace);
  store.env.ClearFault();
  CHECK(store.Write({200}, "later").code() == StatusCode::kNoSpace);
  CHECK(store.engine->Sync().code() == StatusCode::kNoSpace);
  // Reads return exactly the acknowledged rows, except in group mode: there
  // the batch reached the memtable before its shared sync failed, so it is
  // visible whole (engine.h: a group write whose sync failed is like a
  // Cassandra write that timed out), never in part.
  if (mode == CommitMode::kGroup) {
    Rows with_failed = store.acked;
    for (const auto& [key, cells] : pending) with_failed[key] = cells;
    CheckRows(with_failed, store.ReadAll());
  } else {
    CheckRows(store.acked, store.ReadAll());
  }

  store.Reopen();
  Rows recovered = store.ReadAll();
  // The failed write's record reached the file whole, so a reopen may find
  // it; it must then be there whole.
  Rows with_failed = store.acked;
  for (const auto& [key, cells] : pending) with_failed[key] = cells;
  INFO("without it: " << Diff(store.acked, recovered)
                      << " with it: " << Diff(with_failed, recovered));
  CHECK((Diff(store.acked, recovered).empty() || Diff(with_failed, recovered).empty()));
  store.acked = recovered;
  CheckWritesWorkAgain(&store);
}

TEST_CASE("a full disk under a memtable flush or compaction stops writes, reads stay exact",
          "[disk_fault]") {
  FaultStore store(CommitMode::kPeriodic, /*write_buffer_bytes=*/64u << 10);
  FaultPlan plan;
  plan.file_part = ".ldb";  // only table files fail
  SECTION("the first flush") {}
  SECTION("a later flush or compaction") { plan.after_bytes = 400u << 10; }
  store.env.Inject(plan);

  Status failed;
  int32_t key = 0;
  for (; key < 4000 && failed.ok(); ++key) failed = store.Write({key}, "row", /*pad=*/4000);
  INFO("writes until the failure: " << key);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.code() == StatusCode::kNoSpace);
  CHECK_THAT(failed.message(),
             Catch::Contains("No space left on device") && Catch::Contains(".ldb"));
  CHECK(store.env.failures() > 0);
  CHECK(store.acked.size() > 16);  // at least a memtable's worth was acknowledged

  store.env.ClearFault();
  CHECK(store.Write({key + 1}, "later", 4000).code() == StatusCode::kNoSpace);
  CHECK(store.engine->Sync().code() == StatusCode::kNoSpace);
  // The rows of the memtable whose flush failed, and of the one after it,
  // are still read from memory.
  CheckRows(store.acked, store.ReadAll());

  store.Reopen();
  CheckRows(store.acked, store.ReadAll());
  CheckWritesWorkAgain(&store);
}

// Sanitizers make every round several times slower.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kFaultRounds = 30;
#else
constexpr int kFaultRounds = 120;
#endif

// The figures of the random fault rounds.
struct FaultTotals {
  int rounds = 0;
  int failed = 0;                           // rounds whose device failed before the writes ran out
  int torn = 0;                             // ... with an append that landed in part
  int failed_came_back = 0;                 // failed writes found whole after the reopen
  std::map<std::string, int> first_failed;  // kind of file that failed first -> rounds
  uint64_t acked_rows = 0;                  // acknowledged rows checked after the reopens
};

// "log", "ldb", "MANIFEST", "CURRENT", "dbtmp": the kind of a LevelDB file.
std::string FileKind(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  if (name.starts_with("MANIFEST")) return "MANIFEST";
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

// One round: a device that fails after a random number of bytes (in any
// file: log, table, MANIFEST, CURRENT; or, with `manifest`, in the MANIFEST
// only) under random writes.
void RunFaultRound(uint64_t seed, bool manifest, FaultTotals* totals) {
  std::mt19937_64 rng(seed);
  const CommitMode modes[] = {CommitMode::kBatch, CommitMode::kPeriodic, CommitMode::kGroup};
  const CommitMode mode = modes[rng() % (seed % 10 == 0 ? 3 : 2)];  // group waits: fewer
  const DiskFault fault = rng() % 2 == 0 ? DiskFault::kNoSpace : DiskFault::kReadOnly;
  FaultPlan plan = FaultPlan::Now(fault);
  if (manifest) {
    plan.file_part = "MANIFEST";  // small version edits: a budget in bytes hits one
    plan.after_bytes = rng() % 1500;
  } else {
    plan.after_bytes = rng() % ((mode == CommitMode::kGroup ? 200u : 800u) << 10);
  }
  INFO("seed " << seed << ": " << NameOf(mode) << ", " << CauseOf(fault) << " after "
               << *plan.after_bytes << " bytes of "
               << (plan.file_part.empty() ? "any file" : plan.file_part));
  FaultStore store(mode, /*write_buffer_bytes=*/64u << 10);
  store.env.Inject(plan);

  Status failed;
  Rows pending;  // the rows of the write that failed
  const int32_t writes = mode == CommitMode::kGroup ? 150 : 600;  // group waits a window per write
  for (int32_t n = 0; n < writes && failed.ok(); ++n) {
    std::vector<int32_t> keys;
    for (size_t rows = 1 + rng() % 4; keys.size() < rows;) {
      keys.push_back(static_cast<int32_t>(rng() % 300));
    }
    Mutation mutation = store.engine->NewMutation();
    const std::string tag = "n" + std::to_string(n);
    const Rows rows = store.Fill(keys, tag, rng() % 3000, &mutation);
    failed = store.engine->Apply(std::move(mutation));
    if (failed.ok()) {
      for (const auto& [key, cells] : rows) store.acked[key] = cells;
    } else {
      pending = rows;
    }
  }
  ++totals->rounds;
  if (failed.ok()) return;  // the budget outlasted the writes
  ++totals->failed;
  totals->torn += store.env.torn_appends() > 0 ? 1 : 0;
  ++totals->first_failed[FileKind(store.env.first_failed_file())];
  CHECK(failed.code() == CodeOf(fault));
  CHECK_THAT(failed.message(), Catch::Contains(CauseOf(fault)));
  store.env.ClearFault();
  CHECK(store.Write({0}, "refused").code() == CodeOf(fault));
  Rows with_failed = store.acked;
  for (const auto& [key, cells] : pending) with_failed[key] = cells;
  // Reads return exactly the acknowledged rows, except in group mode: when
  // the failed batch reached the memtable and only the shared sync after it
  // failed, it is visible whole until the reopen (engine.h, Apply). Which of
  // the two happens is timing, not the seed: a background flush races the
  // writer for the device's last bytes, and once it fails LevelDB refuses
  // the sync's write too.
  const Rows before_reopen = store.ReadAll();
  if (mode == CommitMode::kGroup) {
    INFO("without the failed write: " << Diff(store.acked, before_reopen)
                                      << " with it: " << Diff(with_failed, before_reopen));
    CHECK((Diff(store.acked, before_reopen).empty() || Diff(with_failed, before_reopen).empty()));
  } else {
    CheckRows(store.acked, before_reopen);
  }

  store.Reopen();
  const Rows recovered = store.ReadAll();
  const bool without = Diff(store.acked, recovered).empty();
  const bool with = Diff(with_failed, recovered).empty();
  INFO("without the failed write: " << Diff(store.acked, recovered));
  CHECK((without || with));  // every acknowledged row, and the failed write whole or not at all
  totals->failed_came_back += !without && with ? 1 : 0;
  totals->acked_rows += store.acked.size();
  store.acked = recovered;
  CheckWritesWorkAgain(&store);
}

void PrintTotals(const FaultTotals& totals) {
  std::printf(
      "disk faults: %d rounds, %d failed (%d torn appends), %llu acknowledged rows checked after "
      "the reopen, %d failed writes found whole after it; the first failure hit",
      totals.rounds, totals.failed, totals.torn, static_cast<unsigned long long>(totals.acked_rows),
      totals.failed_came_back);
  for (const auto& [kind, rounds] : totals.first_failed)
    std::printf(" %s %d", kind.c_str(), rounds);
  std::printf("\n");
}

TEST_CASE("a device that fails at a random byte loses no acknowledged write", "[disk_fault]") {
  FaultTotals totals;
  for (int seed = 1; seed <= kFaultRounds; ++seed) {
    RunFaultRound(static_cast<uint64_t>(seed), /*manifest=*/false, &totals);
  }
  PrintTotals(totals);
  CHECK(totals.failed > totals.rounds / 2);  // the budgets mostly run out
}

// Hidden (run it by name or with [.manifest]): while the LevelDB bug below
// stands, a round fails now and then, depending on whether a compaction was
// running when the MANIFEST write failed.
TEST_CASE("a MANIFEST that fails at a random byte loses no acknowledged write",
          "[disk_fault][.manifest]") {
  FaultTotals totals;
  for (int seed = 1; seed <= kFaultRounds; ++seed) {
    RunFaultRound(static_cast<uint64_t>(seed), /*manifest=*/true, &totals);
  }
  PrintTotals(totals);
}

// LevelDB 1.23, which the engine's GuardedEnv guards against: a compaction flushes a full memtable
// from inside its loop (DoCompactionWork) and retries that flush for every later key when it fails;
// it also records its own result in the MANIFEST when it ends. Once a full disk has torn a MANIFEST
// record and space comes back, those retries append whole records behind the torn one, and the next
// open fails with "Corruption: checksum mismatch": the store cannot be opened at all. Appends after
// a failed append to the same file are what must not happen: GuardedEnv's files stay failed after
// their first failure.
TEST_CASE("a MANIFEST record torn by a full disk during a compaction leaves the store openable",
          "[disk_fault]") {
  FaultStore store(CommitMode::kPeriodic, /*write_buffer_bytes=*/64u << 10);
  int32_t key = 0;
  // Writes rows until the memtable is full and LevelDB switches to a new
  // log. The switch shows as a newer log, not as one log more: the flush
  // before may still be removing the log it made obsolete, at any moment.
  auto fill_memtable = [&] {
    const std::string log = NewestLog(store.memory.get());
    for (int i = 0; i < 100 && NewestLog(store.memory.get()) == log; ++i, ++key) {
      REQUIRE(store.Write({key}, "row", /*pad=*/4000).ok());
    }
    REQUIRE(NewestLog(store.memory.get()) > log);
  };
  store.env.Hold(testing::FileOp::kCreate, ".ldb");  // every table file waits for the test
  testing::HoldRelease release(&store.env);
  // Table files that have reached the hold; the next one is number seen + 1.
  uint64_t seen = store.env.arrivals();
  auto next_table = [&] { REQUIRE(store.env.WaitForArrivals(++seen, std::chrono::seconds(10))); };
  // Flush memtables one at a time until level 0 holds 4 tables: LevelDB
  // then starts a compaction, whose output table waits inside its loop.
  for (int memtables = 0; Level0Files(store.memory.get()) < 4; ++memtables) {
    REQUIRE(memtables < 30);
    const size_t tables = TablesAdded(store.memory.get());
    fill_memtable();
    next_table();  // the flush's
    store.env.LetOneThrough();
    for (int i = 0; i < 1000 && TablesAdded(store.memory.get()) == tables; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // until the flush is recorded
    }
    REQUIRE(TablesAdded(store.memory.get()) > tables);
  }
  next_table();  // the compaction's output
  // A memtable fills while the compaction waits; the loop flushes it first
  // thing when it goes on, and the MANIFEST record of that flush is torn.
  fill_memtable();
  FaultPlan manifest_only = FaultPlan::AfterBytes(DiskFault::kNoSpace, 10);
  manifest_only.file_part = "MANIFEST";
  store.env.Inject(manifest_only);
  store.env.LetOneThrough();  // the compaction's output table
  next_table();               // the flush's, from inside the compaction's loop
  store.env.LetOneThrough();  // its MANIFEST record tears
  next_table();               // the flush again, for the compaction's next key
  CHECK(store.env.torn_appends() == 1);
  store.env.ClearFault();  // space is back while the compaction goes on
  store.env.ReleaseHolds();

  CHECK(store.Write({key}, "refused").code() == StatusCode::kNoSpace);
  CheckRows(store.acked, store.ReadAll());
  Status reopened = store.TryReopen();
  INFO(reopened.ToString());
  CHECK(reopened.ok());  // was: Corruption: checksum mismatch
  if (reopened.ok()) {
    CheckRows(store.acked, store.ReadAll());
    CheckWritesWorkAgain(&store);
  }
}

// A sequence lease (engine/store/internal/sequence_allocator.cc, Lease) is a
// synced LevelDB write of its own. It once bypassed the WriteFence: when a
// full disk tore it, later writes were acknowledged behind the torn record
// once space was back, and recovery dropped them with the rest of the block.
TEST_CASE("a failed sequence-lease write closes the write fence like any failed write",
          "[disk_fault]") {
  FaultStore store(CommitMode::kPeriodic);
  REQUIRE(store.Write({1}, "before").ok());
  REQUIRE(store.engine->Sync().ok());
  // The lease write is the next thing to reach the log: mutations that are
  // never applied use up the leased sequence numbers.
  store.env.Inject(FaultPlan::AfterBytes(DiskFault::kNoSpace, 10));
  TableHandle kv = store.engine->FindTable("ks", "kv").value();
  Status lease;
  for (int batch = 0; batch < 300 && lease.ok(); ++batch) {
    Mutation burner = store.engine->NewMutation();
    for (int32_t i = 0; i < 4096 && lease.ok(); ++i) {
      const std::string pk[] = {IntValue(i)};
      const ColumnValue cells[] = {{kV, std::string("x")}};
      lease = burner.Update(kv, pk, {}, cells);
    }
  }
  REQUIRE_FALSE(lease.ok());  // the lease after 2^20 numbers met the full disk
  CHECK(lease.code() == StatusCode::kNoSpace);
  CHECK(store.env.torn_appends() == 1);
  CHECK(store.engine->WriteHealth().code() == StatusCode::kNoSpace);

  // Nothing is acknowledged behind the torn lease record, space or not.
  store.env.ClearFault();
  Mutation later = store.engine->NewMutation();
  const std::string pk[] = {IntValue(2)};
  const ColumnValue cells[] = {{kV, std::string("after")}};
  Status after = later.Update(kv, pk, {}, cells);
  if (after.ok()) after = store.engine->Apply(std::move(later));
  CHECK(after.code() == StatusCode::kNoSpace);
  store.Reopen();
  CheckRows(store.acked, store.ReadAll());
  CheckWritesWorkAgain(&store);
}

}  // namespace
}  // namespace cellfs
