// SequenceAllocator (engine/store/internal/sequence_allocator.h): numbers
// stay unique when two allocators share one stored lease (two processes on
// one store) and each moves past its block into one the other did not take,
// and Peek() stays a lower bound for later numbers across a block change.
#include "engine/store/internal/sequence_allocator.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/storage/counter.h"

namespace cellfs::storage {
namespace {

constexpr uint64_t kLease = SequenceAllocator::kLeaseSize;

// One stored value for every name, shared by whoever holds the object, as
// a store is by the processes that open it. Thread-safe.
class SharedCounter final : public Counter {
 public:
  Status Load(std::string_view, std::optional<uint64_t>* value) override {
    std::lock_guard lock(mutex_);
    *value = value_;
    return Status::Ok();
  }
  Status Raise(std::string_view, uint64_t at_least, uint64_t* bound) override {
    std::lock_guard lock(mutex_);
    value_ = std::max(value_.value_or(0), at_least);
    *bound = *value_;
    return Status::Ok();
  }
  Status Reserve(std::string_view, uint64_t initial, uint64_t count, uint64_t* start) override {
    std::lock_guard lock(mutex_);
    *start = value_.value_or(initial);
    value_ = *start + count;
    ++reserves_;
    return Status::Ok();
  }
  Status Store(std::string_view, uint64_t value) override {
    std::lock_guard lock(mutex_);
    value_ = value;
    return Status::Ok();
  }

  std::optional<uint64_t> value() {
    std::lock_guard lock(mutex_);
    return value_;
  }
  int reserves() {
    std::lock_guard lock(mutex_);
    return reserves_;
  }

 private:
  std::mutex mutex_;  // guards value_ and reserves_
  std::optional<uint64_t> value_;
  int reserves_ = 0;
};

// An allocator over `counter`, as one process opens the store.
struct Process {
  explicit Process(Counter* counter) { REQUIRE(sequences.Open(counter, &fence).ok()); }

  uint64_t Next() {
    uint64_t n = 0;
    REQUIRE(sequences.Next(&n).ok());
    return n;
  }

  WriteFence fence;
  SequenceAllocator sequences;
};

TEST_CASE("an allocator starts at 1 on a new store and leaves the next block stored",
          "[sequence_allocator]") {
  SharedCounter counter;
  SequenceAllocator unopened;
  CHECK(unopened.Peek() == 1);
  Process one(&counter);
  CHECK(one.sequences.Peek() == 1);
  CHECK(one.Next() == 1);
  CHECK(counter.value() == 1 + kLease);  // the bytes a store held before blocks
}

TEST_CASE("an allocator resumes above the stored lease and moves into the next block",
          "[sequence_allocator]") {
  SharedCounter counter;
  REQUIRE(counter.Store("", 500).ok());
  Process one(&counter);
  CHECK(one.Next() == 500);
  for (uint64_t i = 2; i < kLease; ++i) one.Next();
  CHECK(one.Next() == 500 + kLease - 1);  // the block's last
  CHECK(one.sequences.Peek() == 500 + kLease);
  CHECK(one.Next() == 500 + kLease);  // one process: blocks are contiguous
  CHECK(counter.value() == 500 + 2 * kLease);
}

// The bug this guards: leases were contiguous ranges raised to a bound, so
// a process whose block ran out raised the bound over a block another
// process had leased meanwhile and handed out its numbers again.
TEST_CASE("a process whose block runs out skips the block another process reserved",
          "[sequence_allocator]") {
  SharedCounter counter;
  Process a(&counter);
  Process b(&counter);  // takes [1 + kLease, 1 + 2 * kLease)
  for (uint64_t i = 1; i < kLease; ++i) a.Next();
  CHECK(a.Next() == kLease);  // a's last
  const uint64_t bound = a.sequences.Peek();
  const uint64_t next = a.Next();
  CHECK(next == 1 + 2 * kLease);
  CHECK(next >= bound);
  CHECK(b.Next() == 1 + kLease);
}

TEST_CASE("two allocators on one counter never hand out a number twice, under threads",
          "[sequence_allocator]") {
  SharedCounter counter;
  Process a(&counter);
  Process b(&counter);
  // Each allocator hands out 1.5 blocks: each moves past its first block.
  constexpr int kThreads = 4;
  constexpr uint64_t kPerThread = 3 * kLease / kThreads;
  std::vector<std::vector<uint64_t>> taken(kThreads);
  std::atomic<int> failures{0};
  std::atomic<int> below_peek{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<uint64_t>& mine = taken[static_cast<size_t>(t)];
      mine.reserve(kPerThread);
      for (uint64_t i = 0; i < kPerThread; ++i) {
        SequenceAllocator& sequences = ((t + static_cast<int>(i)) % 2 == 0 ? a : b).sequences;
        const uint64_t bound = sequences.Peek();
        uint64_t n = 0;
        if (!sequences.Next(&n).ok()) {
          ++failures;
          return;
        }
        if (n < bound) ++below_peek;
        mine.push_back(n);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  REQUIRE(failures == 0);
  CHECK(below_peek == 0);

  std::vector<uint64_t> all;
  all.reserve(kThreads * kPerThread);
  for (const std::vector<uint64_t>& mine : taken) all.insert(all.end(), mine.begin(), mine.end());
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
  CHECK(all.size() == kThreads * kPerThread);
  CHECK(counter.reserves() == 4);  // a first block each, then one more each
  CHECK(all.front() >= 1);
  CHECK(all.back() < counter.value().value_or(0));  // every number was reserved
}

}  // namespace
}  // namespace cellfs::storage
