// Tests of buried rows (engine/store/internal/buried_reader.h): the sweeper
// moves the rows it finds dead out of the data space, reads walk past them,
// and nothing a read returns changes: late writes with older timestamps stay
// shadowed, in both walk directions, across a reopen, until gc_grace_seconds
// purges the tombstones.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/store/verify_report.h"
#include "tests/engine/sweeper_store.h"

namespace cellfs {
namespace {

using namespace sweeper_testing;  // NOLINT(google-build-using-namespace)

// Rows 0..n-1 of partition `pk`; rows below `dead` then deleted one by one.
void FillAndDelete(Store& store, const std::string& pk, int n, int dead) {
  for (int ck = 0; ck < n; ++ck) store.Insert(pk, ck, "v" + std::to_string(ck));
  store.db.clock.AdvanceSeconds(1);
  for (int ck = 0; ck < dead; ++ck) {
    store.Apply([&](Mutation* m) {
      return m->DeleteRow(store.t, std::vector<std::string>{pk}, std::vector<std::string>{Int(ck)});
    });
  }
}

// Every row of the partition, rendered in walk order, and the tombstones
// the walk read.
std::string Walk(Store& store, const std::string& pk, bool reverse, uint64_t* tombstones) {
  SliceSpec slice;
  slice.reverse = reverse;
  auto rows =
      store.db.engine->NewReadView().NewRowIterator(store.t, std::vector<std::string>{pk}, slice);
  REQUIRE(rows.ok());
  std::string out;
  for (; (*rows)->Valid(); (*rows)->Next()) {
    std::vector<std::string> ck;
    REQUIRE((*rows)->DecodeClustering(&ck).ok());
    out += FormatLiteral(*store.t->column(1).type, ck[0]) + " " +
           Store::Render(*store.t, (*rows)->row()) + "\n";
  }
  REQUIRE((*rows)->status().ok());
  *tombstones = (*rows)->tombstones_read();
  return out;
}

TEST_CASE("a partition's deleted rows are buried, and reads walk past them", "[sweeper][buried]") {
  Store store(3600);
  FillAndDelete(store, "p", 1000, 990);
  uint64_t tombstones = 0;
  const std::string forward = Walk(store, "p", false, &tombstones);
  CHECK(tombstones == 990);  // the walk read every deleted row, and queued the partition
  const std::string backward = Walk(store, "p", true, &tombstones);
  const std::string dump = store.Dump();

  const SweepStats stats = store.Sweep();
  CHECK(stats.rows_buried == 990);
  CHECK(stats.rows_removed == 0);

  CHECK(Walk(store, "p", false, &tombstones) == forward);
  CHECK(tombstones == 0);  // nothing dead left on the way
  CHECK(Walk(store, "p", true, &tombstones) == backward);
  CHECK(tombstones == 0);
  CHECK(store.Dump() == dump);
  CHECK(store.Row("p", 5) == "-");
  CHECK(store.Row("p", 995).find("v=v995") != std::string::npos);

  const std::vector<std::string> keys = store.RawKeys();
  std::string buried = store.PartitionPrefix("p");
  buried[0] = storage::kBuriedTag;
  CHECK(CountPrefix(keys, store.PartitionPrefix("p")) == 10);
  CHECK(CountPrefix(keys, buried) == 990);

  VerifyReport report;
  REQUIRE(store.db.engine->Verify(&report).ok());
  CHECK(report.sound());
  CHECK(report.buried_entries == 990);
  CHECK(report.dangling_expiry_entries == 0);

  // Nothing left to bury: a second sweep writes nothing.
  Walk(store, "p", false, &tombstones);
  const SweepStats again = store.Sweep();
  CHECK(again.rows_buried == 0);
  CHECK(again.entries_deleted == 0);
}

TEST_CASE("a buried row shadows late writes it is newer than, also after a reopen",
          "[sweeper][buried]") {
  Store store(3600);
  const int64_t start = store.db.clock.NowMicros();
  FillAndDelete(store, "p", 20, 10);  // rows 0..9 deleted at start + 1 s
  CHECK(store.Row("p", 3) == "-");
  REQUIRE(store.Sweep().rows_buried == 10);
  const bool reopen = GENERATE(false, true);
  if (reopen) {
    store.db.Reopen();  // BuriedTables starts empty, and learns from storage
    store.Refresh();
  }
  uint64_t tombstones = 0;
  const std::string before = Walk(store, "p", false, &tombstones);

  // Older than the deletion: shadowed, whichever way the rows are read.
  store.Insert("p", 3, "replayed", At(start + 10));
  store.Set("p", 7, "w", "replayed", At(start + 20));
  CHECK(store.Row("p", 3) == "-");
  CHECK(store.Row("p", 7) == "-");
  CHECK(Walk(store, "p", false, &tombstones) == before);
  CHECK(Walk(store, "p", true, &tombstones).find("\n3 ") == std::string::npos);
  CHECK(store.Dump().find("replayed") == std::string::npos);

  // Newer: live again, in its place in both directions.
  store.Set("p", 5, "w", "newer", At(start + 2 * kSecond));
  CHECK(store.Row("p", 5).find("w=newer") != std::string::npos);
  const std::string forward = Walk(store, "p", false, &tombstones);
  CHECK(forward.rfind("5  w=newer", 0) == 0);  // first: the rows before 10 are dead
  CHECK(Walk(store, "p", true, &tombstones).find("\n5  w=newer") != std::string::npos);

  // The reads queued the partition: the sweeper folds each dead late write
  // into its buried row; the live one stays in the data space, beside its
  // buried tombstone.
  CHECK(store.Sweep().rows_buried == 2);
  CHECK(Walk(store, "p", false, &tombstones) == forward);
  CHECK(store.Row("p", 3) == "-");
  CHECK(store.Row("p", 7) == "-");
  const std::vector<std::string> keys = store.RawKeys();
  CHECK(CountPrefix(keys, store.RowPrefix("p", 3)) == 0);
  CHECK(CountPrefix(keys, store.BuriedRowPrefix("p", 3)) == 1);
  CHECK(CountPrefix(keys, store.RowPrefix("p", 7)) == 0);
  CHECK(CountPrefix(keys, store.BuriedRowPrefix("p", 7)) == 1);
  CHECK(CountPrefix(keys, store.RowPrefix("p", 5)) == 1);
  CHECK(CountPrefix(keys, store.BuriedRowPrefix("p", 5)) == 1);
  CHECK(Walk(store, "p", false, &tombstones) == forward);
}

TEST_CASE(
    "rows are buried when they expire: a table of expired rows lists nothing, reading nothing",
    "[sweeper][buried]") {
  Store store(3600);
  for (int p = 0; p < 100; ++p) store.Insert("p" + std::to_string(p), 1, "short", Ttl(10));
  store.Insert("keep", 1, "long");
  store.db.clock.AdvanceSeconds(11);
  const std::string dump = store.Dump();
  CHECK(dump == store.Dump());
  const SweepStats stats = store.Sweep();
  CHECK(stats.rows_buried == 100);  // at their expiry, from the expiry index
  CHECK(store.Dump() == dump);
  // The data space holds the one live row: a listing meets nothing else.
  const std::vector<std::string> keys = store.RawKeys();
  CHECK(CountPrefix(keys, store.TablePrefix(store.t)) == 1);

  // gc_grace_seconds later the tombstones go, and the buried space empties.
  store.db.clock.AdvanceSeconds(3601);
  CHECK(store.Sweep().rows_removed == 100);
  std::string buried = store.TablePrefix(store.t);
  buried[0] = storage::kBuriedTag;
  CHECK(CountPrefix(store.RawKeys(), buried) == 0);
  CHECK(store.Dump() == dump);
}

TEST_CASE("a table walk merges each partition's buried rows, however they interleave",
          "[sweeper][buried]") {
  Store store(3600);
  const int64_t start = store.db.clock.NowMicros();
  // 60 partitions of one row, deleted at start + 1 s, and buried.
  for (int p = 0; p < 60; ++p) store.Insert("p" + std::to_string(p), 1, "v");
  store.db.clock.AdvanceSeconds(1);
  for (int p = 0; p < 60; ++p) {
    store.Apply([&](Mutation* m) {
      return m->DeleteRow(store.t, std::vector<std::string>{"p" + std::to_string(p)},
                          std::vector<std::string>{Int(1)});
    });
  }
  CHECK(store.Dump().empty());  // the table walk hands the partitions to the sweeper
  REQUIRE(store.Sweep().rows_buried == 60);
  // Late writes: every third partition older than its deletion (dead), every
  // third newer (live), the rest untouched; plus partitions never deleted.
  for (int p = 0; p < 60; ++p) {
    const std::string pk = "p" + std::to_string(p);
    if (p % 3 == 0) store.Insert(pk, 1, "replayed", At(start + 10));
    if (p % 3 == 1) store.Insert(pk, 1, "newer", At(start + 2 * kSecond));
  }
  for (int p = 0; p < 20; ++p) store.Insert("q" + std::to_string(p), 1, "fresh");
  const std::string dump = store.Dump();
  CHECK(dump.find("replayed") == std::string::npos);
  const auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = dump.find(what); at != std::string::npos; at = dump.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("v=newer") == 20);
  CHECK(count("v=fresh") == 20);
  CHECK(count(" {") == 40);  // 40 live partitions
  CHECK(store.Row("p0", 1) == "-");
  CHECK(store.Row("p1", 1).find("v=newer") != std::string::npos);
  // After the sweeper folds the late writes, and after a reopen, the same.
  store.Sweep();
  CHECK(store.Dump() == dump);
  store.db.Reopen();
  store.Refresh();
  CHECK(store.Dump() == dump);
}

TEST_CASE("a dropped table's buried rows are reclaimed with its data", "[sweeper][buried]") {
  Store store(3600);
  FillAndDelete(store, "p", 50, 40);
  store.Dump();
  REQUIRE(store.Sweep().rows_buried == 40);
  std::string buried = store.TablePrefix(store.t);
  buried[0] = storage::kBuriedTag;
  REQUIRE(CountPrefix(store.RawKeys(), buried) == 40);
  const std::string data = store.TablePrefix(store.t);
  store.db.Ddl("DROP TABLE ks.t;");
  // A new ks.t (a new id) for the Store's own reopens.
  store.db.Ddl(
      "CREATE TABLE ks.t (pk text, ck int, s text static, v text, w text,"
      " PRIMARY KEY (pk, ck));");
  // Its snapshot keeps both spaces until it is cleared.
  CHECK(CountPrefix(store.RawKeys(), buried) == 40);
  std::vector<SnapshotInfo> kept;
  REQUIRE(store.db.engine->Snapshots(&kept).ok());
  REQUIRE(kept.size() == 1);
  REQUIRE(store.db.engine->ClearSnapshot(kept[0].name).ok());
  store.Sweep();
  const std::vector<std::string> keys = store.RawKeys();
  CHECK(CountPrefix(keys, buried) == 0);
  CHECK(CountPrefix(keys, data) == 0);
}

TEST_CASE("a store of format 1 is moved to format 2, which a build without buried rows refuses",
          "[sweeper][buried]") {
  Store store(3600);
  const std::string version_key = storage::MetaKey(storage::kFormatVersionName);
  std::string stored;
  store.WithRawStore([&](leveldb::DB* raw) {
    REQUIRE(raw->Get(leveldb::ReadOptions(), version_key, &stored).ok());
    CHECK(stored == "2");
    REQUIRE(raw->Put(leveldb::WriteOptions(), version_key, "1").ok());  // as an older build left it
  });
  // WithRawStore reopened the engine for writing: the store is at 2 again.
  store.WithRawStore([&](leveldb::DB* raw) {
    REQUIRE(raw->Get(leveldb::ReadOptions(), version_key, &stored).ok());
    CHECK(stored == "2");
  });
  FillAndDelete(store, "p", 5, 2);
  CHECK(store.Dump().find("  0 ") == std::string::npos);
}

}  // namespace
}  // namespace cellfs
