// Sequence numbers for data keys: unique for the life of the store, across
// restarts, without a write per number (leases of a block at a time).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "engine/status.h"
#include "engine/store/internal/write_fence.h"

namespace cellfs::storage {
class Counter;
}

namespace cellfs::storage {

// Thread-safe. Next() is one atomic add; every kLeaseSize numbers it makes
// one durable Counter::Raise recording the new lease, so after a crash the
// store resumes above anything it may have handed out.
class SequenceAllocator {
 public:
  static constexpr uint64_t kLeaseSize = uint64_t{1} << 20;

  // Reads the stored lease (none: start at 1) and leases a first block.
  // Lease writes pass `fence` like every other write (a torn lease record
  // must stop later writes too). REQUIRES: called once, before Next();
  // `counter` and `fence` outlive this object.
  Status Open(Counter* counter, WriteFence* fence);

  // A sequence never returned before. IOError when a lease cannot be stored.
  Status Next(uint64_t* sequence);

  // A bound on what Next() hands out from now on: every sequence a call
  // that starts after this one returns is at least the value returned.
  uint64_t Peek() const { return next_.load(std::memory_order_acquire); }

 private:
  Status Lease(uint64_t limit);  // REQUIRES: mutex_ held

  Counter* counter_ = nullptr;
  WriteFence* fence_ = nullptr;
  std::atomic<uint64_t> next_{1};
  // Guards leased_ and lease writes; held across a lease's synced counter
  // write, inside which only the write fence's lock is taken.
  std::mutex mutex_;
  std::atomic<uint64_t> leased_{0};  // numbers below this are leased
};

}  // namespace cellfs::storage
