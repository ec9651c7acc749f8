// The RADOS backend's parts built so far (engine/store/storage/rados/),
// against the test cluster (CTest's `ceph` fixture): the layout keeps a
// partition's data and buried rows in one object; a batch keeps each key's
// last write and commits per object; a cursor stays inside its shard and
// walks it forward and backward, across pages, exactly as an ordered map
// of the same entries would (a model checked over random walks).
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <rados/librados.hpp>
#include <random>
#include <string>

#include "engine/store/storage/rados/rados_batch.h"
#include "engine/store/storage/rados/rados_cursor.h"
#include "engine/store/storage/rados/rados_layout.h"
#include "tests/rados/test_pool.h"

namespace cellfs::storage {
namespace {

using Pool = cellfs::rados_test::TestPool;

// A table space (`'D' || u32`) no other run or case uses.
std::string FreshTableSpace(char tag) {
  static std::atomic<uint32_t> counter{0};
  const auto now =
      static_cast<uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const uint32_t id = now ^ (counter++ << 24);
  std::string space(1, tag);
  for (int shift = 24; shift >= 0; shift -= 8) space.push_back(static_cast<char>(id >> shift));
  return space;
}

void Commit(Pool& pool, RadosBatch& batch) {
  const Status committed = CommitRadosBatch(pool.io(), batch);
  INFO(committed.message());
  REQUIRE(committed.ok());
  batch.Clear();
}

// Every entry of the shard walked forward: "key=value ...".
std::string Forward(Pool& pool, const ShardAddress& shard, size_t page) {
  RadosCursor it(&pool.io(), Locate(shard), page);
  std::string out;
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    out += std::string(it.key()) + "=" + std::string(it.value()) + " ";
  }
  REQUIRE(it.status().ok());
  return out;
}

std::string Backward(Pool& pool, const ShardAddress& shard, size_t page) {
  RadosCursor it(&pool.io(), Locate(shard), page);
  std::string out;
  for (it.SeekToLast(); it.Valid(); it.Prev()) {
    out += std::string(it.key()) + "=" + std::string(it.value()) + " ";
  }
  REQUIRE(it.status().ok());
  return out;
}

TEST_CASE("a partition's data and buried rows share an object, every other shard its own",
          "[rados_storage]") {
  const std::string data = std::string("D\0\0\0\x07", 5);
  const std::string buried = std::string("B\0\0\0\x07", 5);
  const RadosLocation d = Locate({data, "pk"});
  const RadosLocation b = Locate({buried, "pk"});
  CHECK(d.object == b.object);
  CHECK(d.key_prefix == "D");
  CHECK(b.key_prefix == "B");
  CHECK(d.object == "p.00000007.706b");
  CHECK(Locate({data, "pk2"}).object != d.object);
  CHECK(Locate({std::string("D\0\0\0\x08", 5), "pk"}).object != d.object);
  // Other spaces: the space in the name, keys as they are.
  const RadosLocation expiry = Locate({"X", std::string("\x80\0", 2)});
  CHECK(expiry.object == "o.58.8000");
  CHECK(expiry.key_prefix.empty());
  CHECK(Locate({"C", ""}).object == "o.43.");
  CHECK(Locate({"CX", ""}).object != Locate({"C", "X"}).object);
}

TEST_CASE("a batch keeps each key's last write and commits every object's writes",
          "[rados_storage]") {
  Pool pool;
  const std::string data = FreshTableSpace('D');
  const std::string buried = "B" + data.substr(1);
  RadosBatch batch;
  CHECK(batch.empty());
  batch.Put({data, "p1", "a"}, "1");
  batch.Put({data, "p1", "b"}, "2");
  batch.Delete({data, "p1", "a"});  // put then delete: deleted
  batch.Put({data, "p1", "c"}, "x");
  batch.Put({data, "p1", "c"}, "3");  // the last put wins
  batch.Put({buried, "p1", "a"}, "tomb");
  batch.Put({data, "p2", "z"}, "other partition");
  CHECK_FALSE(batch.empty());
  CHECK(batch.ApproximateSize() > 0);
  CHECK(batch.writes().size() == 2);  // p1's object (data and buried) and p2's
  Commit(pool, batch);
  CHECK(batch.empty());
  CHECK(Forward(pool, {data, "p1"}, 100) == "b=2 c=3 ");
  CHECK(Forward(pool, {buried, "p1"}, 100) == "a=tomb ");
  CHECK(Forward(pool, {data, "p2"}, 100) == "z=other partition ");
  CHECK(Forward(pool, {data, "p3"}, 100).empty());  // no object: an empty shard
  batch.Delete({data, "p3", "a"});                  // deleting from no object: nothing
  Commit(pool, batch);
  CHECK(Forward(pool, {data, "p3"}, 100).empty());

  batch.Delete({data, "p1", "b"});
  batch.Put({data, "p1", "a"}, "again");
  Commit(pool, batch);
  CHECK(Forward(pool, {data, "p1"}, 100) == "a=again c=3 ");
  CHECK(Backward(pool, {data, "p1"}, 1) == "c=3 a=again ");
}

TEST_CASE("a cursor seeks and steps inside its shard, in pages, forward and backward",
          "[rados_storage]") {
  Pool pool;
  const std::string data = FreshTableSpace('D');
  const std::string buried = "B" + data.substr(1);
  RadosBatch batch;
  // Keys as the store writes them, NUL and 0xFF bytes included; the buried
  // range of the same object on both sides of the data range's keys.
  for (const std::string& key :
       {std::string(), std::string("\0", 1), std::string("\0\xff", 2), std::string("a"),
        std::string("a\0", 2), std::string("b"), std::string("\xff"), std::string("\xff\xff")}) {
    batch.Put({data, "p", key}, "v" + std::to_string(key.size()));
  }
  batch.Put({buried, "p", "a"}, "buried");
  batch.Put({buried, "p", ""}, "buried empty");
  Commit(pool, batch);

  for (size_t page : {1u, 2u, 3u, 1000u}) {
    INFO("page " << page);
    RadosCursor it(&pool.io(), Locate({data, "p"}), page);
    it.SeekToFirst();
    REQUIRE(it.Valid());
    CHECK(it.key().empty());  // the empty key is an entry like any other
    it.Seek("a");
    REQUIRE(it.Valid());
    CHECK(it.key() == "a");
    it.Next();
    REQUIRE(it.Valid());
    CHECK(it.key() == std::string("a\0", 2));
    it.Prev();
    it.Prev();
    REQUIRE(it.Valid());
    CHECK(it.key() == std::string("\0\xff", 2));
    it.Seek("a\x01");  // between entries: the next one
    REQUIRE(it.Valid());
    CHECK(it.key() == "b");
    it.SeekBefore("b");
    REQUIRE(it.Valid());
    CHECK(it.key() == std::string("a\0", 2));
    it.Next();
    REQUIRE(it.Valid());
    CHECK(it.key() == "b");
    it.SeekBefore("");  // nothing before the first key
    CHECK_FALSE(it.Valid());
    CHECK(it.status().ok());
    it.SeekToLast();
    REQUIRE(it.Valid());
    CHECK(it.key() == "\xff\xff");
    it.Next();  // off the end: invalid, not into the buried range or another object
    CHECK_FALSE(it.Valid());
    CHECK(it.status().ok());
    it.Seek("\xff\xff\xff");
    CHECK_FALSE(it.Valid());
    CHECK(Forward(pool, {buried, "p"}, page) == "=buried empty a=buried ");
    CHECK(Backward(pool, {buried, "p"}, page) == "a=buried =buried empty ");
  }
}

// A cursor over an ordered map: the model a RadosCursor must match.
class ModelCursor {
 public:
  explicit ModelCursor(const std::map<std::string, std::string>& entries) : entries_(entries) {}
  bool Valid() const { return at_ != entries_.end(); }
  void Seek(const std::string& key) { at_ = entries_.lower_bound(key); }
  void SeekBefore(const std::string& key) {
    auto bound = entries_.lower_bound(key);
    at_ = bound == entries_.begin() ? entries_.end() : std::prev(bound);
  }
  void SeekToFirst() { at_ = entries_.begin(); }
  void SeekToLast() { at_ = entries_.empty() ? entries_.end() : std::prev(entries_.end()); }
  void Next() { ++at_; }
  void Prev() { at_ = at_ == entries_.begin() ? entries_.end() : std::prev(at_); }
  const std::string& key() const { return at_->first; }
  const std::string& value() const { return at_->second; }

 private:
  const std::map<std::string, std::string>& entries_;
  std::map<std::string, std::string>::const_iterator at_ = entries_.end();
};

TEST_CASE("random walks of a cursor match an ordered map of the same entries", "[rados_storage]") {
  Pool pool;
  const std::string data = FreshTableSpace('D');
  std::mt19937 random(20261128);
  auto random_key = [&] {
    std::string key(random() % 4, '\0');
    for (char& c : key)
      c = "\0\x01"
          "ab\x7f\x80\xfe\xff"[random() % 8];
    return key;
  };
  std::map<std::string, std::string> model;
  RadosBatch batch;
  for (int i = 0; i < 120; ++i) {
    const std::string key = random_key();
    model[key] = "v" + std::to_string(i);
    batch.Put({data, "p", key}, model[key]);
  }
  batch.Put({data, "neighbour", "a"}, "other shard");
  Commit(pool, batch);

  for (size_t page : {1u, 2u, 5u, 64u}) {
    RadosCursor it(&pool.io(), Locate({data, "p"}), page);
    ModelCursor want(model);
    for (int step = 0; step < 400; ++step) {
      const int move = static_cast<int>(random() % 10);
      const std::string key = random_key();
      INFO("page " << page << " step " << step << " move " << move);
      if (move == 0 || (!want.Valid() && move >= 4)) {
        it.Seek(key);
        want.Seek(key);
      } else if (move == 1) {
        it.SeekBefore(key);
        want.SeekBefore(key);
      } else if (move == 2) {
        it.SeekToFirst();
        want.SeekToFirst();
      } else if (move == 3) {
        it.SeekToLast();
        want.SeekToLast();
      } else if (move < 7) {
        it.Next();
        want.Next();
      } else {
        it.Prev();
        want.Prev();
      }
      REQUIRE(it.status().ok());
      REQUIRE(it.Valid() == want.Valid());
      if (want.Valid()) {
        REQUIRE(std::string(it.key()) == want.key());
        REQUIRE(std::string(it.value()) == want.value());
      }
    }
  }
}

}  // namespace
}  // namespace cellfs::storage
