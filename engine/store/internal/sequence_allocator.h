// Sequence numbers for data keys: unique for the life of the store, across
// restarts and among processes sharing it, without a write per number
// (blocks reserved a lease at a time).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>

#include "engine/status.h"
#include "engine/store/internal/write_fence.h"

namespace cellfs::storage {
class Counter;
}

namespace cellfs::storage {

// Thread-safe. Next() is one atomic load and one atomic add; every
// kLeaseSize numbers it makes one durable Counter::Reserve of a new block,
// so after a crash the store resumes above anything it may have handed out,
// and a process sharing the store (RADOS mounts) gets blocks of its own.
// This process's blocks increase but need not be contiguous.
class SequenceAllocator {
 public:
  static constexpr uint64_t kLeaseSize = uint64_t{1} << 20;

  SequenceAllocator() = default;
  SequenceAllocator(const SequenceAllocator&) = delete;
  SequenceAllocator& operator=(const SequenceAllocator&) = delete;

  // Reserves a first block from the stored lease (none: from 1). Lease
  // writes pass `fence` like every other write (a torn lease record must
  // stop later writes too). REQUIRES: called once, before Next(); `counter`
  // and `fence` outlive this object.
  Status Open(Counter* counter, WriteFence* fence);

  // A sequence never returned before, by this object or by any other over
  // the same stored lease. IOError when a lease cannot be stored.
  Status Next(uint64_t* sequence);

  // A bound on what Next() hands out from now on: every sequence a call
  // that starts after this one returns is at least the value returned.
  // Before Open: 1.
  uint64_t Peek() const;

 private:
  // [next, end) is left to hand out; `next` runs past `end` once used up.
  struct Block {
    Block(uint64_t start, uint64_t limit) : end(limit), next(start) {}
    const uint64_t end;
    std::atomic<uint64_t> next;
  };

  // Reserves and publishes a new block unless `exhausted` is no longer the
  // current one (another thread did). REQUIRES: mutex_ not held.
  Status Lease(const Block* exhausted);

  Counter* counter_ = nullptr;
  WriteFence* fence_ = nullptr;
  Block unopened_{1, 1};  // current before Open: empty, Peek() is 1
  std::atomic<Block*> current_{&unopened_};
  // Guards blocks_ and lease writes; held across a lease's synced counter
  // write, inside which only the write fence's lock is taken.
  std::mutex mutex_;
  // Every block leased, kept for the object's life (16 bytes per 2^20
  // numbers): a thread that loaded an older current_ may still add to it.
  // emplace_back moves no element, so pointers into it stay valid.
  std::deque<Block> blocks_;
};

}  // namespace cellfs::storage
