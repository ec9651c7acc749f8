// The RADOS behaviour the scale-out backend (issue 19, docs/STORAGE_SEAM.md)
// is to be built on, checked against a live cluster (tools/ceph-test-cluster.sh,
// started by CTest's `ceph` fixture; CEPH_CONF names it): an object's omap
// keeps binary keys in memcmp order and pages forward from any key; one
// write operation on one object applies whole or not at all, guarded by a
// compare of omap values or of the object's version; an exclusive lock with a
// duration is a lease that lapses; a notify reaches another client's watch.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <rados/librados.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/rados/test_pool.h"

namespace {

using librados::bufferlist;

bufferlist Bytes(const std::string& s) {
  bufferlist out;
  out.append(s);
  return out;
}

using Client = cellfs::rados_test::TestPool;

// An object name no other run or case uses.
std::string UniqueObject(const std::string& what) {
  static std::atomic<int> counter{0};
  return "rados-facts-" + what + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
         std::to_string(counter++);
}

// The object's whole omap, read in pages of `page` keys from the start.
std::vector<std::pair<std::string, std::string>> ReadOmap(librados::IoCtx& io,
                                                          const std::string& oid, uint64_t page) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string after;
  bool more = true;
  while (more) {
    std::map<std::string, bufferlist> values;
    REQUIRE(io.omap_get_vals2(oid, after, page, &values, &more) == 0);
    REQUIRE(values.size() <= page);
    for (auto& [key, value] : values) out.emplace_back(key, value.to_str());
    if (!values.empty()) after = values.rbegin()->first;
  }
  return out;
}

TEST_CASE("omap keeps binary keys in memcmp order and pages forward from any key", "[rados]") {
  Client client;
  const std::string oid = UniqueObject("order");
  // Keys as the store writes them: NUL and 0xFF bytes, prefixes of others.
  std::set<std::string> keys = {std::string("\0", 1),
                                std::string("\0\0", 2),
                                std::string("\0\xff", 2),
                                "a",
                                "a\xff",
                                std::string("a\0b", 3),
                                "\x7f",
                                "\x80",
                                "\xff",
                                "\xff\xff\xff"};
  for (int i = 0; i < 40; ++i) keys.insert("k" + std::to_string(i));
  std::map<std::string, bufferlist> values;
  for (const std::string& key : keys) values[key] = Bytes("v" + key);
  librados::ObjectWriteOperation write;
  write.omap_set(values);
  REQUIRE(client.io().operate(oid, &write) == 0);

  // std::set<std::string> orders as memcmp does (unsigned bytes).
  const std::vector<std::string> expected(keys.begin(), keys.end());
  for (uint64_t page : {1u, 3u, 7u, 1000u}) {
    std::vector<std::pair<std::string, std::string>> read = ReadOmap(client.io(), oid, page);
    REQUIRE(read.size() == expected.size());
    for (size_t i = 0; i < read.size(); ++i) {
      CHECK(read[i].first == expected[i]);
      CHECK(read[i].second == "v" + expected[i]);
    }
  }
  // From any key, exclusive: where a forward cursor resumes.
  std::map<std::string, bufferlist> tail;
  bool more = false;
  REQUIRE(client.io().omap_get_vals2(oid, "a", 2, &tail, &more) == 0);
  REQUIRE(tail.size() == 2);
  CHECK(tail.begin()->first == std::string("a\0b", 3));
  CHECK(more);
  // A prefix filter keeps one range (a partition's rows of one kind).
  std::map<std::string, bufferlist> prefixed;
  REQUIRE(client.io().omap_get_vals2(oid, "", "k1", 100, &prefixed, &more) == 0);
  CHECK(prefixed.size() == 11);  // k1, k10..k19
  CHECK_FALSE(more);
  REQUIRE(client.io().remove(oid) == 0);
}

TEST_CASE("one write operation applies whole or not at all, guarded by a compare", "[rados]") {
  Client client;
  const std::string oid = UniqueObject("atomic");
  librados::ObjectWriteOperation create;
  create.omap_set({{"state", Bytes("1")}, {"row", Bytes("old")}});
  REQUIRE(client.io().operate(oid, &create) == 0);

  SECTION("a failed omap compare applies none of the operation's writes") {
    librados::ObjectWriteOperation guarded;
    int compared = 0;
    guarded.omap_cmp({{"state", {Bytes("2"), LIBRADOS_CMPXATTR_OP_EQ}}}, &compared);
    guarded.omap_set({{"row", Bytes("new")}, {"added", Bytes("x")}});
    guarded.omap_rm_keys({"state"});
    CHECK(client.io().operate(oid, &guarded) < 0);
    std::vector<std::pair<std::string, std::string>> read = ReadOmap(client.io(), oid, 100);
    REQUIRE(read.size() == 2);
    CHECK(read[0] == std::pair<std::string, std::string>{"row", "old"});
    CHECK(read[1] == std::pair<std::string, std::string>{"state", "1"});
  }
  SECTION("a compare that holds applies them all") {
    librados::ObjectWriteOperation guarded;
    int compared = 0;
    guarded.omap_cmp({{"state", {Bytes("1"), LIBRADOS_CMPXATTR_OP_EQ}}}, &compared);
    guarded.omap_set({{"row", Bytes("new")}, {"added", Bytes("x")}});
    guarded.omap_rm_keys({"state"});
    REQUIRE(client.io().operate(oid, &guarded) == 0);
    std::vector<std::pair<std::string, std::string>> read = ReadOmap(client.io(), oid, 100);
    REQUIRE(read.size() == 2);
    CHECK(read[0] == std::pair<std::string, std::string>{"added", "x"});
    CHECK(read[1] == std::pair<std::string, std::string>{"row", "new"});
  }
  SECTION("a stale object version refuses the write: compare-and-set") {
    const uint64_t version = client.io().get_last_version();
    librados::ObjectWriteOperation first;
    first.assert_version(version);
    first.omap_set({{"row", Bytes("first")}});
    REQUIRE(client.io().operate(oid, &first) == 0);
    librados::ObjectWriteOperation second;  // read before `first`, written after it
    second.assert_version(version);
    second.omap_set({{"row", Bytes("second")}});
    CHECK(client.io().operate(oid, &second) < 0);
    std::map<std::string, bufferlist> row;
    REQUIRE(client.io().omap_get_vals_by_keys(oid, {"row"}, &row) == 0);
    CHECK(row["row"].to_str() == "first");
  }
  REQUIRE(client.io().remove(oid) == 0);
}

TEST_CASE("an exclusive lock with a duration is a lease that lapses", "[rados]") {
  Client holder;
  Client other;
  const std::string oid = UniqueObject("lease");
  timeval two_seconds{2, 0};
  REQUIRE(holder.io().lock_exclusive(oid, "sweeper", "holder", "expiry bucket", &two_seconds, 0) ==
          0);
  CHECK(other.io().lock_exclusive(oid, "sweeper", "other", "expiry bucket", &two_seconds, 0) ==
        -EBUSY);
  // Renewal by the holder keeps it.
  CHECK(holder.io().lock_exclusive(oid, "sweeper", "holder", "expiry bucket", &two_seconds,
                                   LIBRADOS_LOCK_FLAG_MAY_RENEW) == 0);
  // Not renewed, it lapses and another client takes it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int taken = -EBUSY;
  while (taken == -EBUSY && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    taken = other.io().lock_exclusive(oid, "sweeper", "other", "expiry bucket", &two_seconds, 0);
  }
  CHECK(taken == 0);
  CHECK(other.io().unlock(oid, "sweeper", "other") == 0);
  REQUIRE(holder.io().remove(oid) == 0);
}

// Counts the notifies a watch receives, acknowledging each.
class CountingWatch : public librados::WatchCtx2 {
 public:
  explicit CountingWatch(librados::IoCtx* io, std::string oid) : io_(io), oid_(std::move(oid)) {}
  void handle_notify(uint64_t notify_id, uint64_t cookie, uint64_t, bufferlist& payload) override {
    // Recorded before the ack: notify2 may return as soon as the ack lands.
    last_payload = payload.to_str();
    ++received;
    bufferlist reply;
    io_->notify_ack(oid_, notify_id, cookie, reply);
  }
  void handle_error(uint64_t, int) override {}
  std::atomic<int> received{0};
  std::string last_payload;  // written before `received` is incremented

 private:
  librados::IoCtx* io_;
  std::string oid_;
};

TEST_CASE("a notify reaches another client's watch", "[rados]") {
  Client watcher;
  Client writer;
  const std::string oid = UniqueObject("watch");
  REQUIRE(writer.io().create(oid, false) == 0);
  CountingWatch watch(&watcher.io(), oid);
  uint64_t handle = 0;
  REQUIRE(watcher.io().watch2(oid, &handle, &watch) == 0);
  bufferlist payload = Bytes("schema changed: ks.t");
  bufferlist replies;
  // notify2 returns once every watcher acknowledged (or the timeout, ms).
  REQUIRE(writer.io().notify2(oid, payload, 10000, &replies) == 0);
  CHECK(watch.received.load() == 1);
  CHECK(watch.last_payload == "schema changed: ks.t");
  REQUIRE(watcher.io().unwatch2(handle) == 0);
  REQUIRE(writer.io().remove(oid) == 0);
}

}  // namespace
