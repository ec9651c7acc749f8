// Two engines over one RADOS store, as two mounts on two hosts would be
// (the test cluster of CTest's `ceph` fixture): a schema change on one is
// in the other's schema when the change returns, the other's listener is
// told what changed, tables made on both at once all exist afterwards with
// distinct ids, a write through one reads back through the other, the
// write fence of a shared store does not latch, and expired data is swept
// a table's time bucket at a time, under that bucket's lease, by whichever
// engine holds it, the emptied buckets forgotten two buckets later.
#include <array>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/store/internal/expiry_index.h"
#include "engine/store/storage/open_storage.h"
#include "engine/store/storage/rados/rados_layout.h"
#include "tests/engine/engine_test_util.h"
#include "tests/rados/test_pool.h"

namespace cellfs {
namespace {

using Key = std::vector<std::string>;

const std::string kKeyspace =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

// A namespace of the pool no other case or run uses.
std::string FreshNamespace() {
  static int made = 0;
  return "engines-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
         "-" + std::to_string(made++);
}

std::string StoreIn(const std::string& ns) {
  return std::string("rados:cellfs?conf=") + std::getenv("CEPH_CONF") + "&ns=" + ns;
}

std::string FreshStore() { return StoreIn(FreshNamespace()); }

// Opens an engine over `store` with `options` (the test's clock, builds
// and snapshots), its sweeper only run by the test.
std::unique_ptr<Engine> OpenEngine(const std::string& store, EngineOptions options = {}) {
  options.background_sweeper = false;
  auto opened = Engine::Open(store, options);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

// Runs kKeyspace and then `ddl` on `engine`; returns the tables of ks
// named `names`, in that order.
template <size_t N>
std::array<TableHandle, N> CreateTables(Engine* engine, const std::string& ddl,
                                        const char* const (&names)[N]) {
  std::string keyspace;
  testing::RunDdl(engine, kKeyspace + ddl, &keyspace);
  std::array<TableHandle, N> tables;
  for (size_t i = 0; i < N; ++i) tables[i] = engine->FindTable("ks", names[i]).value();
  return tables;
}

EngineOptions WithClock(const Clock* clock) {
  EngineOptions options;
  options.clock = clock;
  return options;
}

TEST_CASE("a schema change on one engine is in the other's when it returns", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  CHECK(!a->views_are_snapshots());
  std::vector<SchemaReload> told;
  std::mutex told_mutex;
  b->SetSchemaListener([&](const SchemaReload& reload) {
    std::lock_guard lock(told_mutex);
    told.push_back(reload);
  });
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace + "CREATE TABLE ks.t (k int PRIMARY KEY, v text);", &keyspace);
  // No waiting: the change returned once b had reloaded.
  REQUIRE(b->FindTable("ks", "t").ok());
  {
    std::lock_guard lock(told_mutex);
    REQUIRE(told.size() == 2);  // the keyspace, then the table
    CHECK(told[1].before->FindTable("ks", "t") == nullptr);
    CHECK(told[1].after->FindTable("ks", "t") != nullptr);
  }
  const uint32_t id = a->FindTable("ks", "t").value()->id;
  CHECK(b->FindTable("ks", "t").value()->id == id);

  testing::RunDdl(b.get(), "DROP TABLE ks.t; CREATE TABLE ks.t (k int PRIMARY KEY, w int);",
                  &keyspace);
  auto remade = a->FindTable("ks", "t");
  REQUIRE(remade.ok());
  CHECK(remade.value()->id != id);  // a new table, a new id, seen by both
  CHECK(remade.value()->id == b->FindTable("ks", "t").value()->id);
  b->SetSchemaListener(nullptr);
}

TEST_CASE("tables made on two engines at once all exist, with distinct ids", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace, &keyspace);
  constexpr int kEach = 6;
  auto make = [&](Engine* engine, const char* prefix) {
    for (int i = 0; i < kEach; ++i) {
      const Status made =
          testing::RunCql(engine, "CREATE TABLE ks." + std::string(prefix) + std::to_string(i) +
                                      " (k int PRIMARY KEY, v text);");
      CHECK(made.ok());
    }
  };
  // Two threads on each engine: the threads of one mount share its client,
  // and so its hold on the cluster's ddl lock.
  std::thread on_a(make, a.get(), "a");
  std::thread on_b(make, b.get(), "b");
  std::thread on_a2(make, a.get(), "c");
  std::thread on_b2(make, b.get(), "d");
  on_a.join();
  on_b.join();
  on_a2.join();
  on_b2.join();
  for (Engine* engine : {a.get(), b.get()}) {
    std::set<uint32_t> ids;
    for (const char* prefix : {"a", "b", "c", "d"}) {
      for (int i = 0; i < kEach; ++i) {
        auto table = engine->FindTable("ks", prefix + std::to_string(i));
        INFO(prefix << i);
        REQUIRE(table.ok());
        ids.insert(table.value()->id);
      }
    }
    CHECK(ids.size() == 4 * kEach);
  }
  // And a third engine, opened afresh, loads the same.
  auto c = OpenEngine(store);
  CHECK(c->catalog()->FindKeyspace("ks")->tables.size() == 4 * kEach);
}

TEST_CASE("a build finished on one engine loses no table the other made meanwhile",
          "[rados_engines]") {
  // Every build runs on a's builder thread, which marks it built in the
  // catalog while b keeps making tables: each mark must be made over the
  // catalog as stored, under the ddl lease, or it writes b's table away.
  const std::string store = FreshStore();
  EngineOptions builds_in_background;
  builds_in_background.inline_build_rows = 0;
  auto a = OpenEngine(store, builds_in_background);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace, &keyspace);
  constexpr int kEach = 6;
  std::thread indexing([&] {
    for (int i = 0; i < kEach; ++i) {
      const std::string table = "ks.t" + std::to_string(i);
      CHECK(
          testing::RunCql(a.get(), "CREATE TABLE " + table + " (k int PRIMARY KEY, v int);").ok());
      CHECK(testing::RunCql(a.get(), "CREATE INDEX ON " + table + " (v);").ok());
    }
  });
  for (int i = 0; i < kEach; ++i) {
    CHECK(testing::RunCql(b.get(),
                          "CREATE TABLE ks.u" + std::to_string(i) + " (k int PRIMARY KEY, v text);")
              .ok());
  }
  indexing.join();
  REQUIRE(a->AwaitBuilds().ok());
  auto c = OpenEngine(store);
  const KeyspaceDef* made = c->catalog()->FindKeyspace("ks");
  REQUIRE(made != nullptr);
  CHECK(made->tables.size() == 2 * kEach);
  CHECK(c->BuildsInProgress().empty());
}

// Key values of `table` from its column `first` on, from CQL literals.
Key Values(const TableHandle& table, size_t first, const std::vector<std::string>& literals) {
  Key key;
  for (size_t i = 0; i < literals.size(); ++i) {
    key.push_back(testing::Value(*table->column(first + i).type, literals[i]));
  }
  return key;
}

// The clustering keys of the partition's live rows, comma-joined.
std::string RowsOf(const ReadView& view, const TableHandle& table, const Key& pk) {
  auto made = view.NewRowIterator(table, pk);
  REQUIRE(made.ok());
  std::string rows;
  for (RowIterator& it = **made; it.Valid(); it.Next()) {
    std::vector<std::string> clustering;
    REQUIRE(it.DecodeClustering(&clustering).ok());
    rows += testing::FormatKey(*table, table->partition_key_count(), clustering) + " ";
  }
  REQUIRE((*made)->status().ok());
  return rows;
}

TEST_CASE("one engine keeps writing while the other changes the schema", "[rados_engines]") {
  // The writer holds its schema lock across each commit while the other
  // engine's DDL makes this one reload (which takes that lock exclusively):
  // neither may wait on the other (a hang here fails by the test's timeout).
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  const TableHandle table =
      CreateTables(a.get(), "CREATE TABLE ks.w (k int, c int, PRIMARY KEY (k, c));", {"w"})[0];
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int c = 0; c < 300; ++c) {
      Mutation m = a->NewMutation();
      if (!m.Insert(table, Values(table, 0, {"1"}), Values(table, 1, {std::to_string(c)}), {})
               .ok()) {
        return;
      }
      if (a->Apply(std::move(m)).ok()) ++written;
    }
  });
  for (int i = 0; i < 10; ++i) {
    CHECK(testing::RunCql(b.get(),
                          "CREATE TABLE ks.t" + std::to_string(i) + " (k int PRIMARY KEY, v text);")
              .ok());
  }
  writer.join();
  CHECK(written == 300);
  CHECK(a->FindTable("ks", "t9").ok());
}

TEST_CASE("a write through one engine reads back through the other", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(),
                  kKeyspace +
                      "CREATE TABLE ks.t (k int, c int, v int, "
                      "PRIMARY KEY (k, c));",
                  &keyspace);
  const TableHandle on_a = a->FindTable("ks", "t").value();
  const TableHandle on_b = b->FindTable("ks", "t").value();
  for (int c = 0; c < 5; ++c) {
    Mutation m = a->NewMutation();
    REQUIRE(m.Insert(on_a, Values(on_a, 0, {"1"}), Values(on_a, 1, {std::to_string(c)}), {}).ok());
    REQUIRE(a->Apply(std::move(m)).ok());
  }
  Mutation m = b->NewMutation();
  REQUIRE(m.DeleteRow(on_b, Values(on_b, 0, {"1"}), Values(on_b, 1, {"2"})).ok());
  REQUIRE(b->Apply(std::move(m)).ok());
  CHECK(RowsOf(a->NewReadView(), on_a, Values(on_a, 0, {"1"})) == "0 1 3 4 ");
  CHECK(RowsOf(b->NewReadView(), on_b, Values(on_b, 0, {"1"})) == "0 1 3 4 ");
}

// The entries of the expiry index of table `table_id`, every bucket.
size_t ExpiryEntries(storage::Storage* storage, uint32_t table_id) {
  auto buckets = storage->NewShardCursor(nullptr, storage::ExpiryIndex::TableSpace(table_id),
                                         [](std::string_view, size_t* length) {
                                           *length = 8;
                                           return Status::Ok();
                                         },
                                         {});
  size_t entries = 0;
  for (buckets->Seek({}); buckets->Valid(); buckets->Next()) {
    for (storage::Cursor& it = buckets->entries(); it.Valid(); it.Next()) ++entries;
  }
  REQUIRE(buckets->status().ok());
  return entries;
}

TEST_CASE("expired data is swept a bucket at a time, each under its own lease", "[rados_engines]") {
  const std::string ns = FreshNamespace();
  const std::string store = StoreIn(ns);
  ManualClock clock(1'700'000'000'000'000);  // 800 s into bucket 472222
  const int64_t bucket = storage::ExpiryIndex::Bucket(1'700'000'000);
  auto a = OpenEngine(store, WithClock(&clock));
  auto b = OpenEngine(store, WithClock(&clock));
  const auto [t1, t2] = CreateTables(a.get(),
                                     "CREATE TABLE ks.t1 (k int, c int, v text, PRIMARY KEY (k, c))"
                                     " WITH gc_grace_seconds = 0;"
                                     "CREATE TABLE ks.t2 (k int, c int, v text, PRIMARY KEY (k, c))"
                                     " WITH gc_grace_seconds = 0;",
                                     {"t1", "t2"});
  constexpr int kRows = 20;
  for (const TableHandle& table : {t1, t2}) {
    for (int c = 0; c < kRows; ++c) {
      Mutation m = a->NewMutation();
      WriteAttributes ttl;
      ttl.ttl = 60;
      REQUIRE(m.Insert(table, Values(table, 0, {std::to_string(c % 3)}),
                       Values(table, 1, {std::to_string(c)}), {}, ttl)
                  .ok());
      REQUIRE(a->Apply(std::move(m)).ok());
    }
  }
  auto opened = storage::OpenStorage(store, EngineOptions{});
  REQUIRE(opened.ok());
  const std::unique_ptr<storage::Storage> other = std::move(opened).value();
  CHECK(ExpiryEntries(other.get(), t1->id) == kRows);
  CHECK(ExpiryEntries(other.get(), t2->id) == kRows);

  clock.AdvanceSeconds(120);  // everything expired, in the same bucket
  CHECK(RowsOf(a->NewReadView(), t1, Values(t1, 0, {"0"})).empty());
  // Another mount holds t1's bucket: b sweeps t2's alone.
  const std::string t1_lease = storage::ExpiryIndex::LeaseName(t1->id, bucket);
  REQUIRE(other->lease().Acquire(t1_lease, 60'000));
  SweepStats stats;
  REQUIRE(b->Sweep(&stats).ok());
  CHECK(stats.index_entries == kRows);
  CHECK(stats.rows_removed == kRows);
  CHECK(ExpiryEntries(other.get(), t1->id) == kRows);
  CHECK(ExpiryEntries(other.get(), t2->id) == 0);
  // Released, it is a's to sweep.
  other->lease().Release(t1_lease);
  REQUIRE(a->Sweep(&stats).ok());
  CHECK(stats.index_entries == kRows);
  CHECK(ExpiryEntries(other.get(), t1->id) == 0);
  REQUIRE(b->Sweep(&stats).ok());
  CHECK(stats.index_entries == 0);

  // Two buckets later the emptied buckets and their leases are forgotten,
  // by whichever mount holds the "sweeper" lease (b took it first).
  rados_test::TestPool pool;
  pool.io().set_namespace(ns);
  auto exists = [&](const std::string& object) {
    uint64_t size = 0;
    time_t mtime = 0;
    return pool.io().stat(object, &size, &mtime) == 0;
  };
  const std::string t1_space = storage::ExpiryIndex::TableSpace(t1->id);
  const std::string t1_bucket_object =
      storage::Locate({t1_space, storage::ExpiryIndex::BucketShard(bucket)}).object;
  CHECK(exists(t1_bucket_object));
  CHECK(exists(storage::LeaseObject(t1_lease)));
  clock.AdvanceSeconds(2 * storage::ExpiryIndex::kBucketSeconds);
  REQUIRE(b->Sweep(&stats).ok());
  CHECK_FALSE(exists(t1_bucket_object));
  CHECK_FALSE(exists(storage::LeaseObject(t1_lease)));
  CHECK_FALSE(exists(storage::IndexObject(t1_space, 0)));  // the listing left empty, too
  // The bucket of a write after that is listed and swept as any other.
  Mutation m = a->NewMutation();
  WriteAttributes ttl;
  ttl.ttl = 5;
  REQUIRE(m.Insert(t1, Values(t1, 0, {"9"}), Values(t1, 1, {"9"}), {}, ttl).ok());
  REQUIRE(a->Apply(std::move(m)).ok());
  CHECK(ExpiryEntries(other.get(), t1->id) == 1);
  clock.AdvanceSeconds(10);
  REQUIRE(a->Sweep(&stats).ok());
  CHECK(stats.index_entries == 1);
  CHECK(ExpiryEntries(other.get(), t1->id) == 0);
}

TEST_CASE("after a failed schema reload the next write reloads first, or is refused",
          "[rados_engines]") {
  const std::string ns = FreshNamespace();
  const std::string store = StoreIn(ns);
  auto a = OpenEngine(store);
  const TableHandle t =
      CreateTables(a.get(), "CREATE TABLE ks.t (k int, c int, PRIMARY KEY (k, c));", {"t"})[0];
  auto write = [&](const std::string& k) {
    Mutation m = a->NewMutation();
    REQUIRE(m.Insert(t, Values(t, 0, {k}), Values(t, 1, {"0"}), {}).ok());
    return a->Apply(std::move(m));
  };
  REQUIRE(write("1").ok());
  // Another client stores a catalog record a cannot load: a's reload, on
  // that client's notify, fails.
  auto opened = storage::OpenStorage(store, EngineOptions{});
  REQUIRE(opened.ok());
  const std::unique_ptr<storage::Storage> other = std::move(opened).value();
  const storage::Address record{"C", "", "ks"};
  std::optional<std::string> good;
  REQUIRE(other->Get(nullptr, record, &good).ok());
  REQUIRE(good.has_value());
  // (A client notifies the spaces it watches itself, as a mount watches
  // the catalog.)
  const storage::WatchId watch = other->Watch("C", [](std::string_view, bool) {});
  auto batch = other->NewBatch();
  batch->Put(record, "not a catalog record");
  REQUIRE(other->Commit(batch.get(), storage::Durability::kSynced).ok());
  const Status refused = write("2");
  CHECK(refused.code() == StatusCode::kIOError);
  CHECK(refused.message().find("could not be reloaded") != std::string::npos);
  // Mended behind every watch's back (no notify): the next write reloads
  // and lands.
  rados_test::TestPool pool;
  pool.io().set_namespace(ns);
  std::map<std::string, librados::bufferlist> mended;
  mended["ks"].append(*good);
  REQUIRE(pool.io().omap_set(storage::Locate({"C", ""}).object, mended) == 0);
  REQUIRE(write("3").ok());
  CHECK(RowsOf(a->NewReadView(), t, Values(t, 0, {"3"})) == "0 ");
  CHECK(RowsOf(a->NewReadView(), t, Values(t, 0, {"2"})).empty());
  other->Unwatch(watch);
}

TEST_CASE("a dropped table's objects are all removed by the sweeper", "[rados_engines]") {
  const std::string ns = FreshNamespace();
  const std::string store = StoreIn(ns);
  ManualClock clock(1'700'000'000'000'000);
  EngineOptions options = WithClock(&clock);
  options.auto_snapshot = false;  // nothing kept: all of it is reclaimed
  auto a = OpenEngine(store, options);
  const auto [t, kept] = CreateTables(a.get(),
                                      "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c));"
                                      "CREATE INDEX ON ks.t (v);"
                                      "CREATE TABLE ks.kept (k int PRIMARY KEY, v int);",
                                      {"t", "kept"});
  std::vector<uint32_t> ids{t->id};
  for (const IndexSchema& index : t->indexes) ids.push_back(index.id);
  for (int c = 0; c < 30; ++c) {
    Mutation m = a->NewMutation();
    WriteAttributes ttl;
    ttl.ttl = 3600;  // expiry buckets too
    REQUIRE(m.Insert(t, Values(t, 0, {std::to_string(c % 7)}), Values(t, 1, {std::to_string(c)}),
                     {}, ttl)
                .ok());
    REQUIRE(a->Apply(std::move(m)).ok());
  }
  Mutation m = a->NewMutation();
  REQUIRE(m.Insert(kept, Values(kept, 0, {"1"}), {}, {}).ok());
  REQUIRE(a->Apply(std::move(m)).ok());

  rados_test::TestPool pool;
  pool.io().set_namespace(ns);
  // The objects of the dropped ids' spaces: partitions "p.<hex id>.",
  // other shards and listings "<kind>.<hex space>.", a space being a tag
  // (D, B, I, V, E) and the id.
  auto objects_of_dropped = [&] {
    std::vector<std::string> names;
    for (auto it = pool.io().nobjects_begin(); it != pool.io().nobjects_end(); ++it) {
      const std::string& name = it->get_oid();
      for (uint32_t id : ids) {
        char hex[9];
        std::snprintf(hex, sizeof hex, "%08x", id);
        bool of_dropped = name.starts_with("p." + std::string(hex) + ".");
        for (const char* tag : {"44", "42", "49", "56", "45"}) {
          of_dropped =
              of_dropped || name.find("." + std::string(tag) + hex + ".") != std::string::npos;
        }
        if (of_dropped) names.push_back(name);
      }
    }
    return names;
  };
  CHECK(objects_of_dropped().size() > 10);
  std::string keyspace;
  testing::RunDdl(a.get(), "DROP TABLE ks.t;", &keyspace);
  uint64_t cleaned = 0;
  for (int sweeps = 0; sweeps < 5 && cleaned == 0; ++sweeps) {
    SweepStats stats;
    REQUIRE(a->Sweep(&stats).ok());
    cleaned += stats.tables_cleaned;
  }
  CHECK(cleaned == 2);  // the table and its index
  CHECK(objects_of_dropped() == std::vector<std::string>{});
  // The other table is untouched.
  auto b = OpenEngine(store);
  const TableHandle on_b = b->FindTable("ks", "kept").value();
  auto row = b->NewReadView().NewRowIterator(on_b, Values(on_b, 0, {"1"}));
  REQUIRE(row.ok());
  CHECK((*row)->Valid());
}

}  // namespace
}  // namespace cellfs
