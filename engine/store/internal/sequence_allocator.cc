// Leased sequence numbers: one synced metadata write per kLeaseSize numbers.
#include "engine/store/internal/sequence_allocator.h"

#include <algorithm>

#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/counter.h"

namespace cellfs::storage {

Status SequenceAllocator::Open(Counter* counter, WriteFence* fence) {
  counter_ = counter;
  fence_ = fence;
  return Lease(&unopened_);
}

Status SequenceAllocator::Next(uint64_t* sequence) {
  Block* block = current_.load(std::memory_order_acquire);
  uint64_t n = block->next.fetch_add(1, std::memory_order_relaxed);
  while (n >= block->end) {
    CELLFS_RETURN_IF_ERROR(Lease(block));
    block = current_.load(std::memory_order_acquire);
    n = block->next.fetch_add(1, std::memory_order_relaxed);
  }
  if (n > kMaxSequence) return Status::IOError("sequence numbers exhausted");
  *sequence = n;
  return Status::Ok();
}

// A lower bound because this process's blocks increase: a block reserved
// later starts at or above the stored value, which was at least the current
// block's end when it was reserved (on one process: exactly that end). So a
// later Next() returns either a later add to the current block (at least the
// `next` read here, below `end`) or a number of a later block (at least
// `end`). `next` passes `end` once the block is used up, hence the min.
uint64_t SequenceAllocator::Peek() const {
  const Block* block = current_.load(std::memory_order_acquire);
  return std::min(block->next.load(std::memory_order_relaxed), block->end);
}

Status SequenceAllocator::Lease(const Block* exhausted) {
  std::lock_guard lock(mutex_);
  if (current_.load(std::memory_order_relaxed) != exhausted) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(fence_->Check());
  uint64_t start = 0;
  CELLFS_RETURN_IF_ERROR(
      fence_->Record(counter_->Reserve(kSequenceLeaseName, /*initial=*/1, kLeaseSize, &start)
                         .WithContext("storing the sequence lease")));
  Block& block = blocks_.emplace_back(start, start + kLeaseSize);
  current_.store(&block, std::memory_order_release);
  return Status::Ok();
}

}  // namespace cellfs::storage
