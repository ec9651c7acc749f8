// InodeTable: stable inode numbers per identity, the kernel's lookup counts,
// forget, and numbers that are never reused.
#include "fs/tree/inode_table.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace cellfs::fs {
namespace {

TEST_CASE("an identity keeps its inode while the kernel holds lookups on it", "[inode]") {
  InodeTable table("root");
  const uint64_t a = table.Acquire("ks/a");
  CHECK(a != InodeTable::kRootInode);
  CHECK(table.Acquire("ks/a") == a);  // two lookups now
  CHECK(table.Acquire("ks/b") != a);
  CHECK(table.Identity(a) == "ks/a");
  CHECK(table.Find("ks/a") == a);

  table.Forget(a, 1);
  CHECK(table.Identity(a) == "ks/a");
  table.Forget(a, 1);
  CHECK_FALSE(table.Identity(a).has_value());
  CHECK_FALSE(table.Find("ks/a").has_value());

  SECTION("a forgotten identity comes back under a new number") {
    const uint64_t again = table.Acquire("ks/a");
    CHECK(again != a);
    CHECK(table.Identity(again) == "ks/a");
    table.Forget(a, 1);  // the stale number must not touch the new entry
    CHECK(table.Identity(again) == "ks/a");
  }
}

TEST_CASE("the root is permanent and unknown inodes are ignored", "[inode]") {
  InodeTable table("root");
  CHECK(table.Acquire("root") == InodeTable::kRootInode);
  table.Forget(InodeTable::kRootInode, 100);
  CHECK(table.Identity(InodeTable::kRootInode) == "root");
  table.Forget(12345, 1);
  CHECK(table.size() == 1);

  SECTION("a forget of more lookups than held drops the inode") {
    const uint64_t x = table.Acquire("x");
    table.Forget(x, 7);
    CHECK_FALSE(table.Identity(x).has_value());
    CHECK(table.size() == 1);
  }
}

TEST_CASE("acquire and forget agree with a model of lookup counts", "[inode][property]") {
  InodeTable table("root");
  std::map<std::string, uint64_t> lookups;  // the model
  std::map<std::string, uint64_t> numbers;
  std::mt19937 rng(7);
  for (int step = 0; step < 20000; ++step) {
    const std::string identity = "n" + std::to_string(rng() % 50);
    if (rng() % 3 != 0) {
      const uint64_t inode = table.Acquire(identity);
      if (lookups[identity] == 0) {
        // A new entry: a number never seen before.
        for (const auto& [other, number] : numbers) CHECK(number != inode);
      } else {
        CHECK(numbers[identity] == inode);
      }
      numbers[identity] = inode;
      ++lookups[identity];
    } else if (lookups[identity] > 0) {
      const uint64_t count = 1 + rng() % lookups[identity];
      table.Forget(numbers[identity], count);
      lookups[identity] -= count;
    }
    const auto held = table.Find(identity);
    CHECK(held.has_value() == (lookups[identity] > 0));
  }
  size_t live = 1;
  for (const auto& [identity, count] : lookups) live += count > 0 ? 1 : 0;
  CHECK(table.size() == live);
}

TEST_CASE("concurrent lookups and forgets leave nothing behind", "[inode][concurrency]") {
  InodeTable table("root");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&table, t] {
      std::mt19937 rng(static_cast<unsigned>(t));
      for (int i = 0; i < 20000; ++i) {
        const std::string identity = "n" + std::to_string(rng() % 16);
        const uint64_t inode = table.Acquire(identity);
        table.Forget(inode, 1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(table.size() == 1);
}

}  // namespace
}  // namespace cellfs::fs
