// TRUNCATE in the engine: the table gets a fresh data space in one synced
// catalog write; readers see all of the old data or none; later writes of
// any timestamp show; the old space is reclaimed by sweeps in bounded
// batches, and nothing comes back after a reopen or an OS crash.
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>

#include "tests/engine/crash_env.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::IntValue;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.t (pk int, ck int, s int static, v int, PRIMARY KEY (pk, ck));"
    "CREATE TABLE ks.c (k int PRIMARY KEY, hits counter);"
    "CREATE TABLE ks.other (k int PRIMARY KEY, v int);";

// TRUNCATE's reclaim path: without auto_snapshot (what a snapshot clear
// leads to; tests/fs/snapshot_test.cc has the snapshots).
EngineOptions NoAutoSnapshot() {
  EngineOptions options;
  options.auto_snapshot = false;
  return options;
}

// Writes rows (pk, ck) for ck in [first, first + count) with v = ck and the
// static s = pk, at `timestamp` when given; one mutation.
void WriteRows(Engine* engine, const TableHandle& table, int32_t pk, int32_t first, int32_t count,
               std::optional<int64_t> timestamp = std::nullopt) {
  Mutation mutation = engine->NewMutation();
  WriteAttributes attributes;
  attributes.timestamp = timestamp;
  for (int32_t ck = first; ck < first + count; ++ck) {
    const std::string key[] = {IntValue(pk)};
    const std::string clustering[] = {IntValue(ck)};
    const ColumnValue cells[] = {{2, IntValue(pk)}, {3, IntValue(ck)}};
    REQUIRE(mutation.Insert(table, key, clustering, cells, attributes).ok());
  }
  REQUIRE(engine->Apply(std::move(mutation)).ok());
}

// The number of live rows of partition `pk` in `view`.
int CountRows(const ReadView& view, const TableHandle& table, int32_t pk) {
  const std::string key[] = {IntValue(pk)};
  auto rows = view.NewRowIterator(table, key);
  REQUIRE(rows.ok());
  int count = 0;
  for (; (*rows)->Valid(); (*rows)->Next()) ++count;
  REQUIRE((*rows)->status().ok());
  return count;
}

int CountPartitions(const ReadView& view, const TableHandle& table) {
  int count = 0;
  for (auto it = view.NewPartitionIterator(table); it->Valid(); it->Next()) ++count;
  return count;
}

TEST_CASE("TRUNCATE empties the table for readers, statics and counters included", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  TableHandle t = db.Table("ks", "t");
  WriteRows(db.engine.get(), t, 1, 0, 5);
  WriteRows(db.engine.get(), t, 2, 0, 3);
  TableHandle c = db.Table("ks", "c");
  {
    Mutation m = db.engine->NewMutation();
    const std::string key[] = {IntValue(7)};
    REQUIRE(m.AddToCounter(c, key, {}, 1, 5).ok());
    REQUIRE(db.engine->Apply(std::move(m)).ok());
  }
  TableHandle other = db.Table("ks", "other");
  {
    Mutation m = db.engine->NewMutation();
    const std::string key[] = {IntValue(1)};
    const ColumnValue cells[] = {{1, IntValue(10)}};
    REQUIRE(m.Insert(other, key, {}, cells).ok());
    REQUIRE(db.engine->Apply(std::move(m)).ok());
  }
  ReadView before = db.engine->NewReadView();

  db.Ddl("TRUNCATE ks.t; TRUNCATE TABLE ks.c;");
  TableHandle t2 = db.Table("ks", "t");
  TableHandle c2 = db.Table("ks", "c");
  CHECK(t2->id != t->id);
  CHECK(t2->column_ids == t->column_ids);
  CHECK(SameTable(t2->def, t->def));

  ReadView after = db.engine->NewReadView();
  CHECK(CountPartitions(after, t2) == 0);
  CHECK(CountRows(after, t2, 1) == 0);
  const std::string p1[] = {IntValue(1)};
  CHECK_FALSE(after.GetStaticRow(t2, p1).value().has_value());
  CHECK(CountPartitions(after, c2) == 0);
  CHECK(CountPartitions(after, db.Table("ks", "other")) == 1);  // other tables keep their data

  // A view taken before, with the handle of its time, still sees it all.
  CHECK(CountPartitions(before, t) == 2);
  CHECK(CountRows(before, t, 1) == 5);

  // A sweep reclaims the old space; the old view is a snapshot and keeps it.
  SweepStats stats;
  REQUIRE(db.engine->Sweep(&stats).ok());
  CHECK(stats.tables_cleaned == 2);
  CHECK(CountRows(before, t, 1) == 5);
}

TEST_CASE("after TRUNCATE, writes with older timestamps are visible", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  TableHandle t = db.Table("ks", "t");
  WriteRows(db.engine.get(), t, 1, 0, 3, 1'000'000);
  db.Ddl("TRUNCATE ks.t;");
  t = db.Table("ks", "t");
  WriteRows(db.engine.get(), t, 1, 0, 2, 5);  // far older than the truncated data
  ReadView view = db.engine->NewReadView();
  CHECK(CountRows(view, t, 1) == 2);
  const std::string key[] = {IntValue(1)};
  const std::string clustering[] = {IntValue(1)};
  auto row = view.GetRow(t, key, clustering);
  REQUIRE(row.ok());
  REQUIRE(row->has_value());
  CHECK(testing::FormatRow(*t, **row) == "marker@5 v=1@5");
}

TEST_CASE("TRUNCATE survives a reopen, and the old data never comes back", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  WriteRows(db.engine.get(), db.Table("ks", "t"), 1, 0, 4);
  db.Ddl("TRUNCATE ks.t;");
  WriteRows(db.engine.get(), db.Table("ks", "t"), 2, 0, 1);
  db.Reopen();
  {
    ReadView view = db.engine->NewReadView();  // gone before the next reopen
    TableHandle t = db.Table("ks", "t");
    CHECK(CountRows(view, t, 1) == 0);
    CHECK(CountRows(view, t, 2) == 1);
  }
  REQUIRE(db.engine->Sweep().ok());
  db.Reopen();
  CHECK(CountRows(db.engine->NewReadView(), db.Table("ks", "t"), 2) == 1);
}

TEST_CASE("TRUNCATE of a missing table or keyspace fails with Cassandra's words", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  CHECK(testing::RunCql(db.engine.get(), "TRUNCATE ks.nope;").message() ==
        "line 1:10: unconfigured table nope");
  CHECK(testing::RunCql(db.engine.get(), "TRUNCATE nope.t;").message() ==
        "line 1:10: keyspace nope does not exist");
  CHECK(testing::RunCql(db.engine.get(), "TRUNCATE t;").message() ==
        "line 1:10: no keyspace has been specified for t: USE a keyspace, or write keyspace.t");
}

TEST_CASE("a writer holding a handle from before TRUNCATE is refused, not misfiled", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  TableHandle t = db.Table("ks", "t");
  Mutation m = db.engine->NewMutation();
  const std::string key[] = {IntValue(1)};
  const std::string clustering[] = {IntValue(1)};
  const ColumnValue cells[] = {{3, IntValue(1)}};
  REQUIRE(m.Insert(t, key, clustering, cells).ok());
  db.Ddl("TRUNCATE ks.t;");
  CHECK(db.engine->Apply(std::move(m)).code() == StatusCode::kNotFound);
  CHECK(CountRows(db.engine->NewReadView(), db.Table("ks", "t"), 1) == 0);
}

TEST_CASE("a truncated big table is reclaimed in bounded sweeps", "[truncate]") {
  testing::TestEngine db(NoAutoSnapshot());
  db.Ddl(kSchema);
  TableHandle t = db.Table("ks", "t");
  constexpr int kRows = 25'000;
  for (int32_t first = 0; first < kRows; first += 5'000) {
    WriteRows(db.engine.get(), t, first / 5'000, first, 5'000);
  }
  db.Ddl("TRUNCATE ks.t;");
  CHECK(CountPartitions(db.engine->NewReadView(), db.Table("ks", "t")) == 0);
  uint64_t deleted = 0;
  int sweeps = 0;
  for (uint64_t cleaned = 0; cleaned == 0 && sweeps < 10; ++sweeps) {
    SweepStats stats;
    REQUIRE(db.engine->Sweep(&stats).ok());
    CHECK(stats.entries_deleted <= 10'000);  // the sweeper's per-sweep budget
    deleted += stats.entries_deleted;
    cleaned = stats.tables_cleaned;
  }
  CHECK(sweeps == 5);
  CHECK(deleted == 2 * kRows);  // each insert stores a row fragment and a static one
}

TEST_CASE("TRUNCATE survives an OS crash at once and during reclaim; nothing resurrects",
          "[truncate][durability]") {
  std::unique_ptr<leveldb::Env> memory(leveldb::NewMemEnv(leveldb::Env::Default()));
  testing::CrashEnv env(memory.get());
  ManualClock clock;
  EngineOptions options = NoAutoSnapshot();
  options.env = &env;
  options.clock = &clock;
  options.background_sweeper = false;
  options.commit_mode = CommitMode::kPeriodic;
  options.commit_period_ms = 3'600'000;  // only explicit syncs
  auto open = [&] {
    auto opened = Engine::Open("/db", options);
    REQUIRE(opened.ok());
    return std::move(opened).value();
  };
  auto crash = [&](std::unique_ptr<Engine>* engine) {
    env.Crash();
    engine->reset();
    env.LoseUnsynced();
    *engine = open();
  };
  std::unique_ptr<Engine> engine = open();
  std::string keyspace;
  testing::RunDdl(engine.get(), kSchema, &keyspace);
  for (int32_t first = 0; first < 15'000; first += 5'000) {
    WriteRows(engine.get(), engine->FindTable("ks", "t").value(), first / 5'000, first, 5'000);
  }
  REQUIRE(engine->Sync().ok());

  SECTION("a crash right after TRUNCATE returned") {
    testing::RunDdl(engine.get(), "TRUNCATE ks.t;", &keyspace);
    crash(&engine);
  }
  SECTION("a crash after one bounded sweep of the old space, its deletes synced or not") {
    testing::RunDdl(engine.get(), "TRUNCATE ks.t;", &keyspace);
    SweepStats stats;
    REQUIRE(engine->Sweep(&stats).ok());
    REQUIRE(stats.entries_deleted == 10'000);
    if (GENERATE(false, true)) REQUIRE(engine->Sync().ok());
    crash(&engine);
  }
  TableHandle t = engine->FindTable("ks", "t").value();
  ReadView view = engine->NewReadView();
  CHECK(CountPartitions(view, t) == 0);
  for (int32_t pk = 0; pk < 3; ++pk) CHECK(CountRows(view, t, pk) == 0);
  // The reclaim resumes after the crash and completes.
  uint64_t cleaned = 0;
  for (int i = 0; i < 5 && cleaned == 0; ++i) {
    SweepStats stats;
    REQUIRE(engine->Sweep(&stats).ok());
    cleaned += stats.tables_cleaned;
  }
  CHECK(cleaned == 1);
  CHECK(CountPartitions(engine->NewReadView(), engine->FindTable("ks", "t").value()) == 0);
}

}  // namespace
}  // namespace cellfs
