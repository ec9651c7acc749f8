// RadosStorage as several mounts share it, on the test cluster (CTest's
// `ceph` fixture): a commit across objects that a dead mount logged lands
// when another mount finds the log; a live mount's log is left alone; a
// clean close leaves no log behind; a commit that failed half-way is
// finished by its own mount; a replayed change reaches the watches of
// every mount; a commit on one mount reaches another mount's watch of that
// space, and only of that space, before the commit returns.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "engine/engine_options.h"
#include "engine/store/storage/rados/rados_batch_log.h"
#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_storage.h"
#include "tests/rados/test_pool.h"

namespace cellfs::storage {
namespace {

using Pool = cellfs::rados_test::TestPool;

StoreLocation FreshStore() {
  static std::atomic<int> made{0};
  StoreLocation location;
  location.kind = StoreLocation::Kind::kRados;
  location.pool = "cellfs";
  location.conf = std::getenv("CEPH_CONF");
  location.ns = "mounts-" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
                std::to_string(made++);
  return location;
}

std::unique_ptr<RadosStorage> Mount(const StoreLocation& location) {
  auto opened = RadosStorage::Open(location, EngineOptions{});
  INFO(opened.status().message());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

std::optional<std::string> Read(Storage& storage, const Address& at) {
  std::optional<std::string> value;
  REQUIRE(storage.Get(nullptr, at, &value).ok());
  return value;
}

std::set<std::string> RegisteredLogs(librados::IoCtx& io) {
  std::set<std::string> logs;
  bool more = false;
  const int read = io.omap_get_keys2(std::string(kLogRegistryObject), "", 1000, &logs, &more);
  REQUIRE((read == 0 || read == -ENOENT));
  return logs;
}

// Opens mount `mount`'s log (holding its lock) and records `batch` in it,
// applying none of it; *entry is the entry's number, when given.
std::unique_ptr<RadosBatchLog> LogWith(Pool& pool, const std::string& mount,
                                       const RadosBatch& batch, uint64_t* entry = nullptr) {
  auto log = std::make_unique<RadosBatchLog>(&pool.io(), mount);
  REQUIRE(log->Open().ok());
  uint64_t recorded = 0;
  REQUIRE(log->Record(batch, &recorded).ok());
  if (entry != nullptr) *entry = recorded;
  return log;
}

// A mount that logged `batch`, applied none of it, and died (its log's lock
// released, as if lapsed).
void DeadMountLogged(Pool& pool, const RadosBatch& batch) {
  const auto dead = LogWith(pool, "dead", batch);
  REQUIRE(pool.io().unlock(LogObject("dead"), "cellfs.log", "dead") == 0);
}

// Polls `done` every 20 ms until it holds or `limit` passed.
void WaitUntil(const std::function<bool()>& done, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// A batch over two partitions (two objects), as the engine's would be.
RadosBatch TwoPartitionBatch() {
  RadosBatch batch;
  const std::string_view table("D\0\0\0\x01", 5);
  batch.Put({table, "p1", "k"}, "one");
  batch.Put({table, "p2", "k"}, "two");
  return batch;
}

TEST_CASE("a dead mount's logged batch lands when another mount finds its log", "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  Pool pool;
  pool.io().set_namespace(location.ns);
  DeadMountLogged(pool, TwoPartitionBatch());
  CHECK(RegisteredLogs(pool.io()).count(LogObject("dead")) == 1);

  auto mount = Mount(location);
  CHECK(Read(*mount, {std::string_view("D\0\0\0\x01", 5), "p1", "k"}) == "one");
  CHECK(Read(*mount, {std::string_view("D\0\0\0\x01", 5), "p2", "k"}) == "two");
  CHECK(RegisteredLogs(pool.io()).count(LogObject("dead")) == 0);
  uint64_t size = 0;
  time_t mtime = 0;
  CHECK(pool.io().stat(LogObject("dead"), &size, &mtime) == -ENOENT);
}

TEST_CASE("a commit that failed half-way is finished by its own mount, before its next one",
          "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  Pool pool;
  pool.io().set_namespace(location.ns);
  const RadosBatch batch = TwoPartitionBatch();
  uint64_t entry = 0;
  const auto own = LogWith(pool, "self", batch, &entry);
  RadosBatchLog& log = *own;
  // Half of it applied: the first object's writes only.
  RadosBatch half;
  const auto& [first_object, first_writes] = *batch.writes().begin();
  for (const auto& [key, value] : first_writes) half.PutRaw(first_object, key, *value);
  REQUIRE(CommitRadosBatch(pool.io(), half).ok());
  log.Failed(entry);
  size_t replayed = 0;
  std::set<std::string> objects;
  REQUIRE(log.ReplayFailed(&replayed, &objects).ok());
  CHECK(replayed == 1);
  CHECK(objects.size() == 2);
  std::map<std::string, librados::bufferlist> values;
  for (const auto& [object, writes] : batch.writes()) {
    values.clear();
    REQUIRE(pool.io().omap_get_vals_by_keys(object, {writes.begin()->first}, &values) == 0);
    CHECK(values.size() == 1);
  }
  // The entry is gone from the log, and not replayed twice.
  std::set<std::string> left;
  bool more = false;
  REQUIRE(pool.io().omap_get_keys2(LogObject("self"), "", 10, &left, &more) == 0);
  CHECK(left.empty());
  replayed = 0;
  REQUIRE(log.ReplayFailed(&replayed, &objects).ok());
  CHECK(replayed == 0);
  REQUIRE(log.Close().ok());
}

TEST_CASE("a commit that can never apply does not hold up the mount's later ones",
          "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  auto mount = Mount(location);
  // An object name past the OSDs' limit (osd_max_object_name_len, 2048):
  // refused every time, unlike a timeout.
  const std::string_view table("D\0\0\0\x03", 5);
  auto batch = mount->NewBatch();
  batch->Put({table, "ok", "k"}, "v");
  batch->Put({table, std::string(1500, 's'), "k"}, "v");
  CHECK(!mount->Commit(batch.get(), Durability::kNone).ok());
  auto next = mount->NewBatch();
  next->Put({table, "a", "k"}, "x");
  next->Put({table, "b", "k"}, "y");
  REQUIRE(mount->Commit(next.get(), Durability::kNone).ok());
  CHECK(Read(*mount, {table, "b", "k"}) == "y");
  size_t replayed = 0;
  REQUIRE(mount->Maintain(&replayed).ok());
  CHECK(replayed == 0);
}

TEST_CASE("a replayed schema change reaches every mount's watch, the replaying mount's too",
          "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  Pool pool;
  pool.io().set_namespace(location.ns);
  auto watcher = Mount(location);
  auto other = Mount(location);
  std::atomic<int> told{0};
  std::atomic<int> other_told{0};
  const WatchId watch = watcher->Watch("C", [&](std::string_view space, bool from_other) {
    if (space == "C" && from_other) ++told;
  });
  const WatchId other_watch = other->Watch("C", [&](std::string_view space, bool from_other) {
    if (space == "C" && from_other) ++other_told;
  });
  // A dead mount logged a change of the catalog and a counter, applied none.
  RadosBatch change;
  change.Put({"C", "", "ks"}, "record");
  change.Put({"M", "", "table_id"}, "7");
  DeadMountLogged(pool, change);

  // One of the two replays it (this call, or either's upkeep thread first);
  // each one's watch is told: locally, or by the replayer's notify.
  size_t replayed = 0;
  REQUIRE(watcher->Maintain(&replayed).ok());
  WaitUntil([&] { return told != 0 && other_told != 0; }, std::chrono::seconds(15));
  CHECK(told == 1);
  CHECK(other_told == 1);
  CHECK(Read(*watcher, {"C", "", "ks"}) == "record");
  other->Unwatch(other_watch);
  watcher->Unwatch(watch);
}

TEST_CASE("a live mount's log is left alone, and a clean close leaves none", "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  Pool pool;
  pool.io().set_namespace(location.ns);
  const auto live = LogWith(pool, "live", TwoPartitionBatch());  // holds its lock

  std::string own_log;
  {
    auto mount = Mount(location);
    own_log = LogObject(mount->mount_id());
    CHECK(!Read(*mount, {std::string_view("D\0\0\0\x01", 5), "p1", "k"}));
    size_t replayed = 0;
    REQUIRE(mount->Maintain(&replayed).ok());
    CHECK(replayed == 0);
    // A commit across objects goes through the mount's own log.
    auto batch = mount->NewBatch();
    batch->Put({std::string_view("D\0\0\0\x02", 5), "a", "k"}, "x");
    batch->Put({std::string_view("D\0\0\0\x02", 5), "b", "k"}, "y");
    REQUIRE(mount->Commit(batch.get(), Durability::kNone).ok());
    CHECK(RegisteredLogs(pool.io()).count(own_log) == 1);
  }
  CHECK(RegisteredLogs(pool.io()) == std::set<std::string>{LogObject("live")});
  uint64_t size = 0;
  time_t mtime = 0;
  CHECK(pool.io().stat(own_log, &size, &mtime) == -ENOENT);
}

TEST_CASE("a commit on one mount reaches another mount's watch of that space only",
          "[rados_mounts]") {
  const StoreLocation location = FreshStore();
  auto writer = Mount(location);
  auto reader = Mount(location);
  std::atomic<int> catalog{0};
  std::atomic<int> data{0};
  const WatchId catalog_watch = reader->Watch("C", [&](std::string_view, bool other) {
    CHECK(other);
    ++catalog;
  });
  const WatchId data_watch = reader->Watch("X", [&](std::string_view, bool) { ++data; });
  // The writer watches the catalog too, as every mount's engine does.
  const WatchId own = writer->Watch("C", [](std::string_view, bool) {});

  auto batch = writer->NewBatch();
  batch->Put({"C", "", "ks"}, "schema");
  REQUIRE(writer->Commit(batch.get(), Durability::kSynced).ok());
  // The commit returned once the other mount's watch had run.
  CHECK(catalog == 1);
  batch = writer->NewBatch();
  batch->Put({"X", "", "k"}, "unannounced: the writer does not watch X");
  REQUIRE(writer->Commit(batch.get(), Durability::kNone).ok());
  WaitUntil([&] { return catalog != 0; }, std::chrono::seconds(10));
  CHECK(catalog == 1);
  CHECK(data == 0);
  CHECK(Read(*reader, {"C", "", "ks"}) == "schema");
  reader->Unwatch(catalog_watch);
  reader->Unwatch(data_watch);
  writer->Unwatch(own);
}

}  // namespace
}  // namespace cellfs::storage
