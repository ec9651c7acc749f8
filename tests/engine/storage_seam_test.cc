// The storage seam's LevelDB backend: cursors stay inside their shard, shard
// cursors visit shards in order, batches commit whole, counters only rise
// (across reopens too), compare-and-set refuses a changed value, watches see
// local commits, and the bytes are space || shard || key.
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine_options.h"
#include "engine/store/storage/leveldb/leveldb_storage.h"

namespace cellfs::storage {
namespace {

struct Store {
  Store() : env_(leveldb::NewMemEnv(leveldb::Env::Default())) { Open(); }

  void Open() {
    storage.reset();
    EngineOptions options;
    options.env = env_.get();
    auto opened = LevelDbStorage::Open("/seam", options);
    REQUIRE(opened.ok());
    storage = std::move(opened).value();
  }

  void Put(const Address& at, const std::string& value) {
    auto batch = storage->NewBatch();
    batch->Put(at, value);
    REQUIRE(storage->Commit(batch.get(), Durability::kNone).ok());
  }

  // Every key and value of the shard, walked forward: "key=value ...".
  std::string Forward(const ShardAddress& shard) {
    auto it = storage->NewCursor(nullptr, shard, {});
    std::string out;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out += std::string(it->key()) + "=" + std::string(it->value()) + " ";
    }
    REQUIRE(it->status().ok());
    return out;
  }

  std::unique_ptr<leveldb::Env> env_;  // declared first: outlives the store
  std::unique_ptr<LevelDbStorage> storage;
};

TEST_CASE("a cursor seeks and steps inside its shard and never into the next", "[storage_seam]") {
  Store store;
  store.Put({"S", "a", "1"}, "x");
  store.Put({"S", "ab", "2"}, "not b");  // sorts between shards a and b
  store.Put({"S", "b", "1"}, "y");
  store.Put({"S", "b", "3"}, "z");
  store.Put({"T", "b", "0"}, "other space");

  CHECK(store.Forward({"S", "b"}) == "1=y 3=z ");
  auto it = store.storage->NewCursor(nullptr, {"S", "b"}, {});
  it->Seek("2");
  REQUIRE(it->Valid());
  CHECK(it->key() == "3");
  it->Next();
  CHECK(!it->Valid());  // "T b 0" follows in the key space
  it->SeekToLast();
  REQUIRE(it->Valid());
  CHECK(it->key() == "3");
  it->Prev();
  REQUIRE(it->Valid());
  CHECK(it->key() == "1");
  it->Prev();
  CHECK(!it->Valid());  // "S ab 2" precedes in the key space
  it->SeekBefore("3");
  REQUIRE(it->Valid());
  CHECK(it->key() == "1");
  it->SeekBefore("1");
  CHECK(!it->Valid());
  it->Seek("4");
  CHECK(!it->Valid());
  CHECK(it->status().ok());

  auto last = store.storage->NewCursor(nullptr, {"T", "b"}, {});
  last->SeekToLast();  // the last shard of the store: no successor key
  REQUIRE(last->Valid());
  CHECK(last->value() == "other space");
}

TEST_CASE("the stored key is space || shard || key, byte for byte", "[storage_seam]") {
  auto env = std::unique_ptr<leveldb::Env>(leveldb::NewMemEnv(leveldb::Env::Default()));
  leveldb::Options options;
  options.env = env.get();
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  REQUIRE(leveldb::DB::Open(options, "/raw", &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  auto storage = LevelDbStorage::Wrap(db.get());
  auto batch = storage->NewBatch();
  const std::string_view space("D\0\0\0\x07", 5);
  batch->Put({space, "tok", "\x03k"}, "v");
  REQUIRE(storage->Commit(batch.get(), Durability::kSynced).ok());
  std::string value;
  REQUIRE(
      db->Get(leveldb::ReadOptions(), std::string("D\x00\x00\x00\x07tok\x03k", 10), &value).ok());
  CHECK(value == "v");
}

TEST_CASE("a shard cursor visits a space's shards in order, each with its entries",
          "[storage_seam]") {
  Store store;
  for (const char* shard : {"c", "a", "b"}) {
    store.Put({"P", shard, "1"}, std::string(shard) + "1");
    store.Put({"P", shard, "2"}, std::string(shard) + "2");
  }
  store.Put({"Q", "a", "1"}, "other space");
  // Shards here are one byte.
  ShardSplitter one_byte = [](std::string_view rest, size_t* length) {
    if (rest.empty()) return Status::Corruption("empty");
    *length = 1;
    return Status::Ok();
  };
  auto shards = store.storage->NewShardCursor(nullptr, "P", one_byte, {});
  std::string seen;
  for (shards->Seek(""); shards->Valid(); shards->Next()) {
    seen += std::string(shards->shard()) + ":";
    Cursor& entries = shards->entries();
    for (; entries.Valid(); entries.Next()) seen += std::string(entries.value()) + " ";
  }
  REQUIRE(shards->status().ok());
  CHECK(seen == "a:a1 a2 b:b1 b2 c:c1 c2 ");
  shards->Seek("b\xFF");  // resume after shard b
  REQUIRE(shards->Valid());
  CHECK(shards->shard() == "c");
}

TEST_CASE("a batch commits whole across shards, and is seen at later read points only",
          "[storage_seam]") {
  Store store;
  store.Put({"S", "a", "old"}, "1");
  auto before = store.storage->NewReadPoint();
  auto batch = store.storage->NewBatch();
  CHECK(batch->empty());
  batch->Put({"S", "a", "new"}, "2");
  batch->Delete({"S", "a", "old"});
  batch->Put({"S", "b", "new"}, "3");
  CHECK(!batch->empty());
  REQUIRE(store.storage->Commit(batch.get(), Durability::kNone).ok());
  REQUIRE(store.storage->SyncCommitted().ok());
  CHECK(store.Forward({"S", "a"}) == "new=2 ");
  CHECK(store.Forward({"S", "b"}) == "new=3 ");
  auto old = store.storage->NewCursor(before.get(), {"S", "a"}, {});
  old->SeekToFirst();
  REQUIRE(old->Valid());
  CHECK(old->key() == "old");
  std::optional<std::string> value;
  REQUIRE(store.storage->Get(before.get(), {"S", "b", "new"}, &value).ok());
  CHECK(!value);
  REQUIRE(store.storage->Get(nullptr, {"S", "b", "new"}, &value).ok());
  CHECK(value == "3");
}

TEST_CASE("a counter only rises, across a reopen too, unless stored lower on purpose",
          "[storage_seam]") {
  Store store;
  uint64_t bound = 0;
  REQUIRE(store.storage->counter().Raise("c", 10, &bound).ok());
  CHECK(bound == 10);
  REQUIRE(store.storage->counter().Raise("c", 5, &bound).ok());
  CHECK(bound == 10);
  store.Open();
  REQUIRE(store.storage->counter().Raise("c", 7, &bound).ok());
  CHECK(bound == 10);
  REQUIRE(store.storage->counter().Raise("c", 12, &bound).ok());
  CHECK(bound == 12);
  REQUIRE(store.storage->counter().Store("c", 3).ok());
  std::optional<uint64_t> value;
  REQUIRE(store.storage->counter().Load("c", &value).ok());
  CHECK(value == 3u);
  REQUIRE(store.storage->counter().Load("absent", &value).ok());
  CHECK(!value);
}

TEST_CASE("compare-and-set writes only over the expected value", "[storage_seam]") {
  Store store;
  const Address at{"C", "", "k"};
  REQUIRE(store.storage->CompareAndSet(at, std::nullopt, "1").ok());
  Status refused = store.storage->CompareAndSet(at, std::nullopt, "2");
  CHECK(refused.code() == StatusCode::kFailedPrecondition);
  refused = store.storage->CompareAndSet(at, std::string("0"), "2");
  CHECK(refused.code() == StatusCode::kFailedPrecondition);
  REQUIRE(store.storage->CompareAndSet(at, std::string("1"), "2").ok());
  std::optional<std::string> value;
  REQUIRE(store.storage->Get(nullptr, at, &value).ok());
  CHECK(value == "2");
}

TEST_CASE("the local backend holds every lease and notifies watches of its commits",
          "[storage_seam]") {
  Store store;
  CHECK(store.storage->lease().Acquire("sweep", 1000));
  std::vector<std::string> seen;
  const WatchId id =
      store.storage->Watch("C", [&](std::string_view space, bool) { seen.emplace_back(space); });
  store.Put({"C", "", "k"}, "v");
  store.Put({"D", "", "k"}, "v");
  CHECK(seen == std::vector<std::string>{"C"});
  store.storage->Unwatch(id);
  store.Put({"C", "", "k"}, "w");
  CHECK(seen.size() == 1);
}

TEST_CASE("a counter reserves disjoint blocks, from the initial value when absent, across a reopen",
          "[storage_seam]") {
  Store store;
  Counter& counter = store.storage->counter();
  uint64_t start = 0;
  REQUIRE(counter.Reserve("r", 5, 10, &start).ok());
  CHECK(start == 5);
  REQUIRE(counter.Reserve("r", 5, 3, &start).ok());
  CHECK(start == 15);
  std::optional<uint64_t> value;
  REQUIRE(counter.Load("r", &value).ok());
  CHECK(value == 18u);
  store.Open();
  REQUIRE(store.storage->counter().Reserve("r", 1, 2, &start).ok());
  CHECK(start == 18);
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 20u);
  Status overflow = store.storage->counter().Reserve("r", 1, ~uint64_t{0} - 19, &start);
  CHECK(overflow.code() == StatusCode::kCorruption);
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 20u);  // nothing stored
}

}  // namespace
}  // namespace cellfs::storage
