// Snapshots of dropped and truncated tables (Engine::Snapshots,
// RestoreSnapshot, ClearSnapshot; docs/ENGINE.md "Snapshots"): DROP TABLE,
// DROP KEYSPACE and TRUNCATE keep each table's data under a snapshot; a
// restore brings back exactly the rows SELECT showed before, with the
// keyspace, types and indexes it needs, also after a reopen; a clear hands
// the data to the sweeper; refusals name what is wrong. A DROP during the
// file face's removal run (`rm -r TABLE`) keeps the table as the run found
// it, and the sweeper leaves the table's data alone while the run lasts.
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"
#include "tests/fs/printed_table.h"

namespace cellfs::fs {
namespace {

using testing::ParseTable;
using testing::Printed;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "CREATE TYPE ks.addr (street text, n int);\n"
    "CREATE TABLE ks.t (k int, c int, v text, a frozen<addr>, PRIMARY KEY (k, c));\n"
    "CREATE INDEX t_v ON ks.t (v);\n"
    "CREATE TABLE ks.other (k int PRIMARY KEY, v int);\n";

struct SnapshotDb {
  testing::TestEngine db;
  explicit SnapshotDb(EngineOptions options = {}) : db(options) {}

  // The statement's printed result; REQUIREs that it succeeds.
  std::string Run(const std::string& cql) {
    CqlSession session(db.engine.get());
    (void)session.Write(cql);
    INFO(cql << "\n" << session.transcript());
    REQUIRE(session.transcript().find("ERROR") == std::string::npos);
    return session.transcript();
  }
  std::string Error(const std::string& cql) {
    CqlSession session(db.engine.get());
    (void)session.Write(cql);
    return session.transcript();
  }
  std::vector<SnapshotInfo> Snapshots() {
    std::vector<SnapshotInfo> out;
    REQUIRE(db.engine->Snapshots(&out).ok());
    return out;
  }
  void Fill() {
    Run(kSchema);
    for (int k = 0; k < 20; ++k) {
      for (int c = 0; c < 5; ++c) {
        Run("INSERT INTO ks.t (k, c, v, a) VALUES (" + std::to_string(k) + ", " +
            std::to_string(c) + ", 'v" + std::to_string((k + c) % 3) + "', {street: 'S" +
            std::to_string(k) + "', n: " + std::to_string(c) + "});");
      }
    }
    Run("UPDATE ks.t USING TTL 100000 SET v = 'ttl' WHERE k = 3 AND c = 1;");
    Run("DELETE FROM ks.t WHERE k = 4 AND c = 2;");
    Run("INSERT INTO ks.other (k, v) VALUES (1, 1);");
  }
};

// Closes the engine, lets `edit` change the stored snapshot record `name`
// (its bytes in *value) and write anything else through `db`, then reopens.
void EditStore(SnapshotDb& f, const std::string& name,
               const std::function<void(std::string* value, leveldb::WriteBatch* batch)>& edit) {
  f.db.Close();
  leveldb::Options options;
  options.env = f.db.env();
  leveldb::DB* raw = nullptr;
  REQUIRE(leveldb::DB::Open(options, "/db", &raw).ok());
  std::unique_ptr<leveldb::DB> store(raw);
  std::string value;
  REQUIRE(store->Get(leveldb::ReadOptions(), "S" + name, &value).ok());
  leveldb::WriteBatch batch;
  edit(&value, &batch);
  batch.Put("S" + name, value);
  REQUIRE(store->Write(leveldb::WriteOptions(), &batch).ok());
  store.reset();
  f.db.Reopen();
}

constexpr const char* kAll = "SELECT * FROM ks.t;";
constexpr const char* kByIndex = "SELECT k, c FROM ks.t WHERE v = 'v1';";

TEST_CASE("DROP TABLE keeps the table as a snapshot that restores exactly, after a reopen",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  const std::string all = f.Run(kAll);
  const std::string by_index = f.Run(kByIndex);
  REQUIRE(ParseTable(all).rows.size() == 99);

  f.db.clock.AdvanceMicros(1000000);
  f.Run("DROP TABLE ks.t;");
  CHECK_THAT(f.Error(kAll), Catch::Contains("unconfigured table t"));
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].keyspace == "ks");
  CHECK(kept[0].table == "t");
  CHECK(kept[0].reason == "dropped");
  CHECK(kept[0].created_ms == f.db.clock.NowMicros() / 1000);
  CHECK(kept[0].name == "dropped-" + std::to_string(kept[0].created_ms) + "-ks.t");
  // The sweeper leaves the kept data alone.
  REQUIRE(f.db.engine->Sweep().ok());
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.sound());
  CHECK(report.snapshot_entries > 0);

  f.db.Reopen();
  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).ok());
  CHECK(skipped.empty());
  REQUIRE(f.db.engine->AwaitBuilds().ok());
  CHECK(f.Run(kAll) == all);
  CHECK(f.Run(kByIndex) == by_index);  // the index is built again
  CHECK(f.Snapshots().empty());
  // Written to like any table, and sound.
  f.Run("INSERT INTO ks.t (k, c, v) VALUES (100, 0, 'v1');");
  CHECK(ParseTable(f.Run(kByIndex)).rows.size() == ParseTable(by_index).rows.size() + 1);
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.sound());
  CHECK(report.snapshot_entries == 0);
}

TEST_CASE("TRUNCATE keeps the old rows; they restore under another name beside the new ones",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  const std::string all = f.Run(kAll);
  f.Run("TRUNCATE ks.t;");
  f.Run("INSERT INTO ks.t (k, c, v) VALUES (7, 7, 'new');");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].reason == "truncated");
  // The table exists: restoring over it is refused, and nothing changes.
  std::vector<std::string> skipped;
  const Status refused = f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped);
  CHECK(refused.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(refused.message(), Catch::Contains("table ks.t exists: drop it first"));
  CHECK(f.Snapshots().size() == 1);

  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "old", &skipped).ok());
  // Index names are unique in a keyspace: t_v is t's, so old has none.
  CHECK(skipped == std::vector<std::string>{"t_v"});
  std::string old_all = f.Run("SELECT * FROM ks.old;");
  CHECK(ParseTable(old_all).rows == ParseTable(all).rows);
  CHECK(ParseTable(f.Run(kAll)).rows.size() == 1);
}

TEST_CASE("DROP KEYSPACE keeps each table; a restore makes the keyspace and types again",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  const std::string all = f.Run(kAll);
  f.Run("DROP KEYSPACE ks;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 2);
  std::vector<std::string> skipped;
  const std::string t_name = kept[0].table == "t" ? kept[0].name : kept[1].name;
  const std::string other_name = kept[0].table == "t" ? kept[1].name : kept[0].name;
  REQUIRE(f.db.engine->RestoreSnapshot(t_name, "", &skipped).ok());
  REQUIRE(f.db.engine->AwaitBuilds().ok());
  CHECK(f.Run(kAll) == all);
  CHECK_THAT(f.Run("DESCRIBE KEYSPACE ks;"), Catch::Contains("CREATE TYPE ks.addr"));
  CHECK_THAT(f.Run("DESCRIBE KEYSPACE ks;"), Catch::Contains("CREATE INDEX t_v ON ks.t (v);"));
  REQUIRE(f.db.engine->RestoreSnapshot(other_name, "", &skipped).ok());
  CHECK(ParseTable(f.Run("SELECT * FROM ks.other;")).rows.size() == 1);
}

TEST_CASE("a restore refuses a type that changed and a snapshot that is not there", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("DROP TABLE ks.t; DROP TYPE ks.addr; CREATE TYPE ks.addr (street text);");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  std::vector<std::string> skipped;
  Status refused = f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped);
  CHECK(refused.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(refused.message(), Catch::Contains("type ks.addr is not the snapshot's"));
  CHECK(f.Snapshots().size() == 1);
  refused = f.db.engine->RestoreSnapshot("nope", "", &skipped);
  CHECK(refused.code() == StatusCode::kNotFound);
  CHECK(refused.message() == "no snapshot named nope");
  CHECK(f.db.engine->ClearSnapshot("nope").code() == StatusCode::kNotFound);
}

TEST_CASE("a clear hands the kept data to the sweeper", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("TRUNCATE ks.t; TRUNCATE ks.t;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  // Two in one millisecond: the second name gets a suffix.
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].name + "-2" == kept[1].name);
  for (const SnapshotInfo& snapshot : kept) REQUIRE(f.db.engine->ClearSnapshot(snapshot.name).ok());
  CHECK(f.Snapshots().empty());
  SweepStats stats;
  REQUIRE(f.db.engine->Sweep(&stats).ok());
  CHECK(stats.tables_cleaned >= 1);
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  INFO((report.fault_lines.empty() ? std::string() : report.fault_lines[0]));
  CHECK(report.sound());
  CHECK(report.snapshot_entries == 0);
  CHECK(report.dropped_entries == 0);
  CHECK(report.data_entries == 1);  // ks.other's row
}

TEST_CASE("a kept table's expiry entries wait for it, and are swept once it is restored",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  const uint64_t entries = report.expiry_entries;
  REQUIRE(entries >= 1);  // the TTL'd cell's
  f.Run("DROP TABLE ks.t;");
  REQUIRE(f.db.engine->Verify(&report).ok());
  const uint64_t kept_entries = report.snapshot_entries;
  // Long past every due time: the entries are filed again a day on, not
  // lost, and the kept data stays (only the index's entries go).
  f.db.clock.AdvanceSeconds(2'000'000);
  SweepStats stats;
  REQUIRE(f.db.engine->Sweep(&stats).ok());
  CHECK(stats.index_entries == entries);
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.expiry_entries == entries);
  CHECK(report.snapshot_entries == kept_entries);
  CHECK(report.sound());

  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).ok());
  f.db.clock.AdvanceSeconds(86'400);
  REQUIRE(f.db.engine->Sweep(&stats).ok());
  CHECK(stats.index_entries == entries);
  CHECK(stats.rows_rewritten + stats.rows_removed >= 1);  // the TTL'd row folded
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.expiry_entries == 0);
  CHECK(report.sound());
}

TEST_CASE("an unreadable snapshot record is reported, and can still be cleared", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("DROP TABLE ks.t;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  EditStore(f, kept[0].name, [](std::string* value, leveldb::WriteBatch* batch) {
    // Its keyspace's CQL broken, its table id still readable.
    const size_t cql = value->find("CREATE TABLE");
    REQUIRE(cql != std::string::npos);
    value->replace(cql, 12, "CREATE TABEL");
    batch->Put("Sjunk", "not json");
  });
  std::vector<SnapshotInfo> readable;
  std::vector<std::string> unreadable;
  REQUIRE(f.db.engine->Snapshots(&readable, &unreadable).ok());
  CHECK(readable.empty());
  REQUIRE(unreadable.size() == 2);
  CHECK_THAT(unreadable[0], Catch::StartsWith("snapshot " + kept[0].name + ": "));
  std::vector<std::string> skipped;
  CHECK(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).code() == StatusCode::kCorruption);
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.faults == 2);           // the two records
  CHECK(report.snapshot_entries > 0);  // the data is still the snapshot's, not a fault
  REQUIRE(f.db.engine->ClearSnapshot(kept[0].name).ok());
  REQUIRE(f.db.engine->ClearSnapshot("junk").ok());
  REQUIRE(f.db.engine->Sweep().ok());
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.sound());
  CHECK(report.data_entries == 1);  // ks.other's row; t's data reclaimed
}

TEST_CASE("a snapshot restores an index whose options only an older build accepted", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("DROP TABLE ks.t;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  EditStore(f, kept[0].name, [](std::string* value, leveldb::WriteBatch*) {
    const std::string plain = "CREATE INDEX t_v ON ks.t (v);";
    const size_t at = value->find(plain);
    REQUIRE(at != std::string::npos);
    value->replace(at, plain.size(),
                   "CREATE CUSTOM INDEX t_v ON ks.t (v) USING 'StorageAttachedIndex' WITH "
                   "OPTIONS = {'ascii': 'true'};");
  });
  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).ok());
  CHECK_THAT(f.Run("DESCRIBE TABLE ks.t;"), Catch::Contains("'ascii': 'true'"));
  // A user's statement is still checked.
  CHECK_THAT(f.Error("CREATE CUSTOM INDEX ON ks.other (v) USING 'StorageAttachedIndex' WITH "
                     "OPTIONS = {'ascii': 'true'};"),
             Catch::Contains("CQL type int cannot be analyzed."));
}

TEST_CASE("without auto_snapshot a DROP keeps nothing", "[snapshot]") {
  EngineOptions options;
  options.auto_snapshot = false;
  SnapshotDb f(options);
  f.Fill();
  f.Run("DROP TABLE ks.t;");
  CHECK(f.Snapshots().empty());
  REQUIRE(f.db.engine->Sweep().ok());
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.data_entries == 1);
  CHECK(report.dropped_entries == 0);
}

TEST_CASE("a table WITH allow_auto_snapshot = false is dropped without a snapshot", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("ALTER TABLE ks.other WITH allow_auto_snapshot = false;");
  f.Run("DROP TABLE ks.other; TRUNCATE ks.t;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].table == "t");
}

// The file face's removals in ks.t (rm, rmdir): each noted as a removal of
// the run, `step_seconds` apart on the test clock.
struct FileRemovals {
  SnapshotDb& f;
  TableHandle table;
  explicit FileRemovals(SnapshotDb& db) : f(db) {
    Result<TableHandle> found = f.db.engine->FindTable("ks", "t");
    REQUIRE(found.ok());
    table = found.value();
  }
  void Remove(const std::string& cql, int step_seconds = 5) {
    f.db.engine->NoteFileRemoval(*table);
    f.Run(cql);
    f.db.clock.AdvanceSeconds(step_seconds);
  }
};

int64_t NowMs(SnapshotDb& f) { return f.db.clock.NowMicros() / 1000; }

const SnapshotInfo& SnapshotOf(const std::vector<SnapshotInfo>& kept, const std::string& table) {
  const auto it = std::find_if(kept.begin(), kept.end(),
                               [&](const SnapshotInfo& s) { return s.table == table; });
  REQUIRE(it != kept.end());
  return *it;
}

TEST_CASE("rm -r's removal run: a DROP during it keeps the table as it was when the run began",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  const std::string all = f.Run(kAll);
  const std::string by_index = f.Run(kByIndex);
  f.db.clock.AdvanceSeconds(1);
  const int64_t run_started_ms = NowMs(f);
  // What rm -r does: each row, then its partition; 200 s in all, never 60
  // without a removal, so one run.
  FileRemovals rm(f);
  for (int k = 0; k < 20; ++k) {
    rm.Remove("DELETE v FROM ks.t WHERE k = " + std::to_string(k) + " AND c = 0;");
    rm.Remove("DELETE FROM ks.t WHERE k = " + std::to_string(k) + ";");
  }
  // A write during the run: the snapshot is as of the run's start, so it
  // is not kept.
  f.Run("INSERT INTO ks.t (k, c, v) VALUES (50, 0, 'during');");
  REQUIRE(ParseTable(f.Run(kAll)).rows.size() == 1);
  f.Run("DROP TABLE ks.t; DROP TABLE ks.other;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 2);
  CHECK(SnapshotOf(kept, "t").created_ms == NowMs(f));
  CHECK(SnapshotOf(kept, "t").as_of_ms == run_started_ms);
  // A table without a run is kept as of its DROP.
  CHECK(SnapshotOf(kept, "other").as_of_ms == SnapshotOf(kept, "other").created_ms);
  // The sweeper leaves the kept data alone, also within the run's minute.
  f.db.clock.AdvanceSeconds(30);
  REQUIRE(f.db.engine->Sweep().ok());

  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(SnapshotOf(kept, "t").name, "", &skipped).ok());
  REQUIRE(f.db.engine->AwaitBuilds().ok());
  CHECK(f.Run(kAll) == all);
  CHECK(f.Run(kByIndex) == by_index);
  VerifyReport report;
  REQUIRE(f.db.engine->Verify(&report).ok());
  CHECK(report.sound());

  // The restore ends the run (it is still within its minute): a write
  // after it and a DROP at once keep the write.
  f.Run("INSERT INTO ks.t (k, c, v) VALUES (60, 0, 'after');");
  const std::string with_write = f.Run(kAll);
  f.Run("DROP TABLE ks.t;");
  kept = f.Snapshots();
  REQUIRE(kept.size() == 2);
  CHECK(SnapshotOf(kept, "t").as_of_ms == SnapshotOf(kept, "t").created_ms);
  REQUIRE(f.db.engine->RestoreSnapshot(SnapshotOf(kept, "t").name, "", &skipped).ok());
  CHECK(f.Run(kAll) == with_write);
}

TEST_CASE("a snapshot's as-of point survives a reopen, and a restore after it honours it",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  const std::string all = f.Run(kAll);
  f.db.clock.AdvanceSeconds(1);
  const int64_t run_started_ms = NowMs(f);
  FileRemovals rm(f);
  for (int k = 0; k < 20; ++k) rm.Remove("DELETE FROM ks.t WHERE k = " + std::to_string(k) + ";");
  f.Run("DROP TABLE ks.t;");
  f.db.Reopen();
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].as_of_ms == run_started_ms);
  CHECK(kept[0].created_ms > run_started_ms);
  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).ok());
  CHECK(f.Run(kAll) == all);
}

TEST_CASE("a DROP after a removal run went quiet keeps the table as it is, as Cassandra's",
          "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  FileRemovals rm(f);
  rm.Remove("DELETE FROM ks.t WHERE k = 0;", 60);  // quiet for 60 s: the run is over
  const std::string remaining = f.Run(kAll);
  REQUIRE(ParseTable(remaining).rows.size() == 94);
  f.Run("DROP TABLE ks.t;");
  std::vector<SnapshotInfo> kept = f.Snapshots();
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].as_of_ms == kept[0].created_ms);
  std::vector<std::string> skipped;
  REQUIRE(f.db.engine->RestoreSnapshot(kept[0].name, "", &skipped).ok());
  CHECK(f.Run(kAll) == remaining);
}

TEST_CASE("the sweeper rewrites none of a table's data while a removal run is open", "[snapshot]") {
  SnapshotDb f;
  f.Fill();
  f.Run("UPDATE ks.t USING TTL 5 SET v = 'short' WHERE k = 6 AND c = 0;");
  for (int i = 0; i < 10; ++i) {  // a row of many fragments, queued for folding when read
    f.Run("UPDATE ks.t SET v = 'f" + std::to_string(i) + "' WHERE k = 8 AND c = 0;");
  }
  FileRemovals rm(f);
  rm.Remove("DELETE FROM ks.t WHERE k = 7;", 10);  // the TTL has run out; the run is open
  f.Run("SELECT * FROM ks.t WHERE k = 8 AND c = 0;");
  VerifyReport before;
  REQUIRE(f.db.engine->Verify(&before).ok());
  SweepStats stats;
  REQUIRE(f.db.engine->Sweep(&stats).ok());
  CHECK(stats.rows_rewritten == 0);
  CHECK(stats.rows_removed == 0);
  CHECK(stats.entries_deleted == 0);
  VerifyReport during;
  REQUIRE(f.db.engine->Verify(&during).ok());
  CHECK(during.data_entries == before.data_entries);
  CHECK(during.expiry_entries == before.expiry_entries);  // the due entry waits

  // Once the run is over the sweeper catches up.
  f.db.clock.AdvanceSeconds(60);
  f.Run("SELECT * FROM ks.t WHERE k = 8 AND c = 0;");
  REQUIRE(f.db.engine->Sweep(&stats).ok());
  CHECK(stats.rows_rewritten >= 2);  // the expired cell's row and the fragmented one
  VerifyReport after;
  REQUIRE(f.db.engine->Verify(&after).ok());
  CHECK(after.data_entries < before.data_entries);
  CHECK(after.sound());
}

}  // namespace
}  // namespace cellfs::fs
