// The storage seam's contract, checked the same way on every backend
// (compiled once per backend: tests/storage/test_backend.h). Where a
// capability is absent (RADOS: read points are "latest", commits atomic per
// shard only), a case checks the weaker promise the backend states instead.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/storage/test_backend.h"

namespace cellfs::storage::test {
namespace {

struct Store {
  Store() : backend(NewTestBackend()), storage(backend->Open()) {}

  void Reopen() {
    storage.reset();
    storage = backend->Open();
  }

  void Put(const Address& at, const std::string& value) {
    auto batch = storage->NewBatch();
    batch->Put(at, value);
    REQUIRE(storage->Commit(batch.get(), Durability::kNone).ok());
  }
  void Delete(const Address& at) {
    auto batch = storage->NewBatch();
    batch->Delete(at);
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

  std::unique_ptr<TestBackend> backend;
  std::unique_ptr<Storage> storage;
};

// Shards of one byte (what a one-key-space backend needs to split them).
const ShardSplitter kOneByteShards = [](std::string_view rest, size_t* length) {
  if (rest.empty()) return Status::Corruption("empty");
  *length = 1;
  return Status::Ok();
};

TEST_CASE("a cursor seeks and steps inside its shard and never into the next",
          "[storage_contract]") {
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
  CHECK(!it->Valid());
  it->SeekToLast();
  REQUIRE(it->Valid());
  CHECK(it->key() == "3");
  it->Prev();
  REQUIRE(it->Valid());
  CHECK(it->key() == "1");
  it->Prev();
  CHECK(!it->Valid());
  it->SeekBefore("3");
  REQUIRE(it->Valid());
  CHECK(it->key() == "1");
  it->SeekBefore("1");
  CHECK(!it->Valid());
  it->Seek("4");
  CHECK(!it->Valid());
  CHECK(it->status().ok());

  auto last = store.storage->NewCursor(nullptr, {"T", "b"}, {});
  last->SeekToLast();
  REQUIRE(last->Valid());
  CHECK(last->value() == "other space");
  auto none = store.storage->NewCursor(nullptr, {"S", "never"}, {});
  none->SeekToFirst();
  CHECK(!none->Valid());
  none->SeekToLast();
  CHECK(!none->Valid());
  CHECK(none->status().ok());
}

TEST_CASE("a shard cursor visits a space's shards in order, each with its entries",
          "[storage_contract]") {
  Store store;
  for (const char* shard : {"c", "a", "b", "\xF0", "\x01"}) {
    store.Put({"P", shard, "1"}, std::string(shard) + "1");
    store.Put({"P", shard, "2"}, std::string(shard) + "2");
  }
  store.Put({"P", "d", "1"}, "gone");
  store.Delete({"P", "d", "1"});  // a shard that holds nothing now
  store.Put({"Q", "a", "1"}, "other space");
  auto shards = store.storage->NewShardCursor(nullptr, "P", kOneByteShards, {});
  std::string seen;
  for (shards->Seek(""); shards->Valid(); shards->Next()) {
    seen += std::string(shards->shard()) + ":";
    Cursor& entries = shards->entries();
    for (; entries.Valid(); entries.Next()) seen += std::string(entries.value()) + " ";
  }
  REQUIRE(shards->status().ok());
  CHECK(seen ==
        "\x01:\x01"
        "1 \x01"
        "2 a:a1 a2 b:b1 b2 c:c1 c2 \xF0:\xF0"
        "1 \xF0"
        "2 ");
  shards->Seek("b\xFF");  // resume after shard b
  REQUIRE(shards->Valid());
  CHECK(shards->shard() == "c");
  shards->Seek("\xF1");
  CHECK(!shards->Valid());
  CHECK(shards->status().ok());
  auto empty = store.storage->NewShardCursor(nullptr, "R", kOneByteShards, {});
  empty->Seek("");
  CHECK(!empty->Valid());
  CHECK(empty->status().ok());
}

TEST_CASE("a shard cursor lists hundreds of shards in order, skipping the empty ones",
          "[storage_contract]") {
  Store store;
  // 600 shards, 300 of them in one first-byte bucket (more than a
  // page of a bucket's index), every 7th emptied after it was written.
  std::vector<std::string> shards;
  for (int i = 0; i < 600; ++i) {
    const char first = i < 300 ? 'm' : static_cast<char>(0x80 + i % 50);
    // Four digits: shards of a space must be prefix-free.
    const std::string digits = std::to_string(10000 + i).substr(1);
    shards.push_back(std::string(1, first) + static_cast<char>(i % 256) + digits);
  }
  auto batch = store.storage->NewBatch();
  for (const std::string& shard : shards) batch->Put({"L", shard, "k"}, "v" + shard);
  REQUIRE(store.storage->Commit(batch.get(), Durability::kNone).ok());
  batch = store.storage->NewBatch();
  std::set<std::string> live(shards.begin(), shards.end());
  for (size_t i = 0; i < shards.size(); i += 7) {
    batch->Delete({"L", shards[i], "k"});
    live.erase(shards[i]);
  }
  REQUIRE(store.storage->Commit(batch.get(), Durability::kNone).ok());
  const ShardSplitter split = [](std::string_view rest, size_t* length) {
    // Shards here are 2 bytes and 4 digits; keys "k".
    const size_t k = rest.rfind('k');
    if (k == std::string_view::npos) return Status::Corruption("no key");
    *length = k;
    return Status::Ok();
  };
  auto cursor = store.storage->NewShardCursor(nullptr, "L", split, {});
  std::vector<std::string> listed;
  for (cursor->Seek(""); cursor->Valid(); cursor->Next()) {
    listed.emplace_back(cursor->shard());
    Cursor& entries = cursor->entries();
    REQUIRE(entries.Valid());
    CHECK(entries.value() == "v" + listed.back());
  }
  REQUIRE(cursor->status().ok());
  const std::vector<std::string> expected(live.begin(), live.end());
  size_t first_difference = 0;
  while (first_difference < std::min(listed.size(), expected.size()) &&
         listed[first_difference] == expected[first_difference]) {
    ++first_difference;
  }
  INFO("first difference at " << first_difference << " of " << listed.size() << " listed, "
                              << expected.size() << " expected");
  CHECK(listed == expected);
  // Resuming in the middle of a bucket, past a read-ahead window.
  const std::string from = *std::next(live.begin(), 100);
  cursor->Seek(from);
  REQUIRE(cursor->Valid());
  CHECK(cursor->shard() == from);
  size_t rest = 0;
  for (; cursor->Valid(); cursor->Next()) ++rest;
  CHECK(rest == live.size() - 100);
}

TEST_CASE("a shard cursor with an upper bound stops before it", "[storage_contract]") {
  Store store;
  for (const char* shard : {"a", "b", "c", "\xF0"}) store.Put({"U", shard, "k"}, shard);
  auto shards = store.storage->NewShardCursor(nullptr, "U", kOneByteShards, {});
  auto list = [&](std::string_view from) {
    std::string seen;
    for (shards->Seek(from); shards->Valid(); shards->Next()) seen += shards->shard();
    REQUIRE(shards->status().ok());
    return seen;
  };
  shards->SetUpperBound("c");
  CHECK(list("") == "ab");
  CHECK(list("b") == "b");
  CHECK(list("c").empty());
  CHECK(list("d").empty());
  shards->SetUpperBound("bb");  // between shards
  CHECK(list("") == "ab");
  shards->SetUpperBound("\xF1");
  CHECK(list("") == "abc\xF0");
  shards->SetUpperBound("");  // no bound
  CHECK(list("b") == "bc\xF0");
}

TEST_CASE("forgetting empty shards keeps every entry, and a forgotten shard written again lists",
          "[storage_contract]") {
  Store store;
  // Shards of 8 bytes, as the expiry buckets'.
  auto shard = [](int n) { return std::string(7, '\0') + static_cast<char>(n); };
  const ShardSplitter eight = [](std::string_view rest, size_t* length) {
    if (rest.size() < 8) return Status::Corruption("short");
    *length = 8;
    return Status::Ok();
  };
  for (int n = 1; n <= 5; ++n) store.Put({"F", shard(n), "k"}, "v" + std::to_string(n));
  store.Delete({"F", shard(1), "k"});
  store.Delete({"F", shard(2), "k"});
  store.Delete({"F", shard(5), "k"});
  std::vector<std::string> forgotten;
  REQUIRE(store.storage->ForgetEmptyShards("F", shard(4), nullptr, &forgotten).ok());
  if (store.backend->shared()) {
    // Only the empty ones below the bound: 5 is past it, 3 holds an entry.
    CHECK(forgotten == std::vector<std::string>{shard(1), shard(2)});
  } else {
    CHECK(forgotten.empty());  // nothing lists an empty shard anyway
  }
  auto list = [&] {
    std::string seen;
    auto shards = store.storage->NewShardCursor(nullptr, "F", eight, {});
    for (shards->Seek(""); shards->Valid(); shards->Next()) {
      seen += std::to_string(static_cast<int>(shards->shard().back())) + "=" +
              std::string(shards->entries().value()) + " ";
    }
    REQUIRE(shards->status().ok());
    return seen;
  };
  CHECK(list() == "3=v3 4=v4 ");
  // This handle wrote into shard 2 before: its new write must list it again.
  store.Put({"F", shard(2), "k"}, "again");
  CHECK(list() == "2=again 3=v3 4=v4 ");
  CHECK(store.Forward({"F", shard(2)}) == "k=again ");
  forgotten.clear();
  REQUIRE(store.storage->ForgetEmptyShards("F", {}, nullptr, &forgotten).ok());
  CHECK(list() == "2=again 3=v3 4=v4 ");
  if (store.backend->shared()) CHECK(forgotten == std::vector<std::string>{shard(5)});
  // A budget bounds the shards looked at.
  for (int n = 6; n <= 8; ++n) {
    store.Put({"F", shard(n), "k"}, "v");
    store.Delete({"F", shard(n), "k"});
  }
  forgotten.clear();
  size_t budget = 2;
  REQUIRE(store.storage->ForgetEmptyShards("F", {}, &budget, &forgotten).ok());
  if (store.backend->shared()) {
    CHECK(budget == 0);
    CHECK(forgotten.empty());  // shards 2 and 3, the first two looked at, hold entries
    budget = 4;
    REQUIRE(store.storage->ForgetEmptyShards("F", {}, &budget, &forgotten).ok());
    CHECK(budget == 0);
    CHECK(forgotten == std::vector<std::string>{shard(6)});  // after 2, 3 and 4
  }
  CHECK(list() == "2=again 3=v3 4=v4 ");
}

TEST_CASE("a batch commits whole across shards; read points see what the backend promises",
          "[storage_contract]") {
  Store store;
  store.Put({"S", "a", "old"}, "1");
  auto before = store.storage->NewReadPoint();
  auto batch = store.storage->NewBatch();
  CHECK(batch->empty());
  batch->Put({"S", "a", "new"}, "2");
  batch->Delete({"S", "a", "old"});
  batch->Put({"S", "b", "new"}, "3");
  batch->Put({"S", "b", "new"}, "4");  // the last write of a key wins
  CHECK(!batch->empty());
  CHECK(batch->ApproximateSize() > 0);
  REQUIRE(store.storage->Commit(batch.get(), Durability::kSynced).ok());
  REQUIRE(store.storage->SyncCommitted().ok());
  CHECK(store.Forward({"S", "a"}) == "new=2 ");
  CHECK(store.Forward({"S", "b"}) == "new=4 ");
  std::optional<std::string> value;
  REQUIRE(store.storage->Get(nullptr, {"S", "b", "new"}, &value).ok());
  CHECK(value == "4");
  REQUIRE(store.storage->Get(nullptr, {"S", "b", "absent"}, &value).ok());
  CHECK(!value);
  REQUIRE(store.storage->Get(before.get(), {"S", "b", "new"}, &value).ok());
  if (store.storage->capabilities().consistent_across_shards) {
    CHECK(!value);  // a snapshot: the state before the commit
    auto old = store.storage->NewCursor(before.get(), {"S", "a"}, {});
    old->SeekToFirst();
    REQUIRE(old->Valid());
    CHECK(old->key() == "old");
  } else {
    CHECK(value == "4");  // "latest": every read sees the newest state
  }
  batch->Clear();
  CHECK(batch->empty());
  REQUIRE(store.storage->Commit(batch.get(), Durability::kNone).ok());  // an empty commit
}

TEST_CASE("committed writes survive a reopen", "[storage_contract]") {
  Store store;
  store.Put({"S", "a", "k"}, "v");
  store.Reopen();
  CHECK(store.Forward({"S", "a"}) == "k=v ");
}

TEST_CASE("a counter only rises, across a reopen too, unless stored lower on purpose",
          "[storage_contract]") {
  Store store;
  uint64_t bound = 0;
  REQUIRE(store.storage->counter().Raise("c", 10, &bound).ok());
  CHECK(bound == 10);
  REQUIRE(store.storage->counter().Raise("c", 5, &bound).ok());
  CHECK(bound == 10);
  store.Reopen();
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

TEST_CASE("reserved counter blocks never overlap, from any number of threads",
          "[storage_contract]") {
  Store store;
  uint64_t start = 0;
  REQUIRE(store.storage->counter().Reserve("r", 1, 100, &start).ok());
  CHECK(start == 1);  // absent: the initial value
  REQUIRE(store.storage->counter().Reserve("r", 1, 100, &start).ok());
  CHECK(start == 101);
  std::optional<uint64_t> value;
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 201u);

  // Two handles at once where the backend is shared (two mounts), else one.
  std::unique_ptr<Storage> second;
  if (store.backend->shared()) second = store.backend->Open();
  Storage* handles[2] = {store.storage.get(), second ? second.get() : store.storage.get()};
  constexpr int kThreads = 4;
  constexpr int kEach = 10;
  std::vector<std::vector<uint64_t>> starts(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        uint64_t got = 0;
        if (handles[t % 2]->counter().Reserve("r", 1, 10, &got).ok()) {
          starts[static_cast<size_t>(t)].push_back(got);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<uint64_t> all;
  for (const auto& list : starts) {
    CHECK(list.size() == kEach);
    all.insert(list.begin(), list.end());
  }
  CHECK(all.size() == kThreads * kEach);  // distinct starts, 10 apart: disjoint blocks
  uint64_t previous = 0;
  for (uint64_t s : all) {
    CHECK(s >= 201);
    if (previous != 0) CHECK(s - previous >= 10);
    previous = s;
  }
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 201u + kThreads * kEach * 10);
}

TEST_CASE("a reserved block survives a reopen, and an overflowing one stores nothing",
          "[storage_contract]") {
  Store store;
  uint64_t start = 0;
  REQUIRE(store.storage->counter().Reserve("r", 5, 10, &start).ok());
  CHECK(start == 5);
  REQUIRE(store.storage->counter().Reserve("r", 5, 3, &start).ok());
  CHECK(start == 15);
  store.Reopen();
  REQUIRE(store.storage->counter().Reserve("r", 1, 2, &start).ok());
  CHECK(start == 18);
  std::optional<uint64_t> value;
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 20u);
  Status overflow = store.storage->counter().Reserve("r", 1, ~uint64_t{0} - 19, &start);
  CHECK(overflow.code() == StatusCode::kCorruption);
  REQUIRE(store.storage->counter().Load("r", &value).ok());
  CHECK(value == 20u);  // nothing stored
}

TEST_CASE("compare-and-set writes only over the expected value", "[storage_contract]") {
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
  // An empty value is a value, not absence.
  const Address empty{"C", "", "e"};
  REQUIRE(store.storage->CompareAndSet(empty, std::nullopt, "").ok());
  refused = store.storage->CompareAndSet(empty, std::nullopt, "x");
  CHECK(refused.code() == StatusCode::kFailedPrecondition);
}

TEST_CASE("concurrent compare-and-set increments lose no update", "[storage_contract]") {
  Store store;
  std::unique_ptr<Storage> second;
  if (store.backend->shared()) second = store.backend->Open();
  Storage* handles[2] = {store.storage.get(), second ? second.get() : store.storage.get()};
  const Address at{"C", "", "n"};
  constexpr int kThreads = 4;
  constexpr int kEach = 10;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Storage* storage = handles[t % 2];
      for (int done = 0; done < kEach;) {
        std::optional<std::string> current;
        if (!storage->Get(nullptr, at, &current).ok()) return;
        const int n = current ? std::stoi(*current) : 0;
        Status set = storage->CompareAndSet(at, current, std::to_string(n + 1));
        if (set.ok()) ++done;
        if (!set.ok() && set.code() != StatusCode::kFailedPrecondition) return;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::optional<std::string> value;
  REQUIRE(store.storage->Get(nullptr, at, &value).ok());
  CHECK(value == std::to_string(kThreads * kEach));
}

TEST_CASE("watches see this process's commits to their space, until unwatched",
          "[storage_contract]") {
  Store store;
  std::vector<std::string> seen;
  const WatchId id = store.storage->Watch("C", [&](std::string_view space, bool other) {
    CHECK(!other);
    seen.emplace_back(space);
  });
  store.Put({"C", "", "k"}, "v");
  store.Put({"D", "", "k"}, "v");
  CHECK(seen == std::vector<std::string>{"C"});
  store.storage->Unwatch(id);
  store.Put({"C", "", "k"}, "w");
  CHECK(seen.size() == 1);
}

TEST_CASE("a lease is exclusive among the handles of a shared store", "[storage_contract]") {
  Store store;
  CHECK(store.storage->lease().Acquire("sweep", 60'000));
  CHECK(store.storage->lease().Acquire("sweep", 60'000));  // the holder renews
  if (!store.backend->shared()) return;                    // one process: it holds every lease
  auto other = store.backend->Open();
  CHECK(!other->lease().Acquire("sweep", 60'000));
  CHECK(other->lease().Acquire("another", 60'000));
  store.storage->lease().Release("sweep");
  CHECK(other->lease().Acquire("sweep", 60'000));
  // A retired lease can be taken again (by anyone) at once.
  other->lease().Retire("sweep");
  CHECK(store.storage->lease().Acquire("sweep", 60'000));
  CHECK(!other->lease().Acquire("sweep", 60'000));
}

// Random puts and deletes over a few spaces and shards, against an ordered
// map: every walk, forward and backward, and every listing agrees.
TEST_CASE("random writes read back as an ordered map says", "[storage_contract]") {
  Store store;
  using Key = std::tuple<std::string, std::string, std::string>;  // space, shard, key
  std::map<Key, std::string> model;
  std::mt19937 random(20261128);
  const std::vector<std::string> spaces = {"P", "Q"};
  const std::vector<std::string> shards = {"a", "b", "\x80", "\xFF", "\x01"};
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<size_t>(0, from.size() - 1)(random)];
  };
  auto any_key = [&] {
    std::string key;
    const size_t size = std::uniform_int_distribution<size_t>(0, 3)(random);
    for (size_t i = 0; i < size; ++i) key.push_back("\x00\x01k\xFF"[random() % 4]);
    return key;
  };
  for (int round = 0; round < 20; ++round) {
    auto batch = store.storage->NewBatch();
    std::map<Key, std::optional<std::string>> writes;
    for (int op = 0; op < 15; ++op) {
      Key key{pick(spaces), pick(shards), any_key()};
      Address at{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
      if (random() % 3 == 0) {
        batch->Delete(at);
        writes[key] = std::nullopt;
      } else {
        const std::string value = "v" + std::to_string(round) + "." + std::to_string(op);
        batch->Put(at, value);
        writes[key] = value;
      }
    }
    REQUIRE(store.storage->Commit(batch.get(), Durability::kNone).ok());
    for (auto& [key, value] : writes) {
      if (value) {
        model[key] = *value;
      } else {
        model.erase(key);
      }
    }
    for (const std::string& space : spaces) {
      std::string listed;
      std::string expected_listing;
      std::string last_shard = "\x01\x01";  // no shard
      for (const auto& [key, value] : model) {
        if (std::get<0>(key) != space) continue;
        if (std::get<1>(key) != last_shard) expected_listing += std::get<1>(key) + ":";
        last_shard = std::get<1>(key);
        expected_listing += value + " ";
      }
      auto cursor = store.storage->NewShardCursor(nullptr, space, kOneByteShards, {});
      for (cursor->Seek(""); cursor->Valid(); cursor->Next()) {
        listed += std::string(cursor->shard()) + ":";
        for (Cursor& e = cursor->entries(); e.Valid(); e.Next())
          listed += std::string(e.value()) + " ";
      }
      REQUIRE(cursor->status().ok());
      CHECK(listed == expected_listing);
      for (const std::string& shard : shards) {
        std::vector<std::string> forward;
        for (const auto& [key, value] : model) {
          if (std::get<0>(key) == space && std::get<1>(key) == shard) forward.push_back(value);
        }
        auto it = store.storage->NewCursor(nullptr, {space, shard}, {});
        std::vector<std::string> backward;
        for (it->SeekToLast(); it->Valid(); it->Prev()) backward.emplace_back(it->value());
        REQUIRE(it->status().ok());
        CHECK(std::vector<std::string>(backward.rbegin(), backward.rend()) == forward);
        const std::string probe = any_key();
        it->Seek(probe);
        auto expected = model.lower_bound(Key{space, shard, probe});
        if (expected != model.end() && std::get<0>(expected->first) == space &&
            std::get<1>(expected->first) == shard) {
          REQUIRE(it->Valid());
          CHECK(it->value() == expected->second);
        } else {
          CHECK(!it->Valid());
        }
        it->SeekBefore(probe);
        auto before = model.lower_bound(Key{space, shard, probe});
        const bool has_before = before != model.begin() &&
                                std::get<0>(std::prev(before)->first) == space &&
                                std::get<1>(std::prev(before)->first) == shard;
        if (has_before) {
          REQUIRE(it->Valid());
          CHECK(it->value() == std::prev(before)->second);
        } else {
          CHECK(!it->Valid());
        }
      }
    }
  }
}

}  // namespace
}  // namespace cellfs::storage::test
