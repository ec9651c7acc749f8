// Leased sequence numbers: one synced metadata write per kLeaseSize numbers.
#include "engine/store/internal/sequence_allocator.h"

#include <optional>

#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/counter.h"

namespace cellfs::storage {

Status SequenceAllocator::Open(Counter* counter, WriteFence* fence) {
  counter_ = counter;
  fence_ = fence;
  std::optional<uint64_t> stored;
  CELLFS_RETURN_IF_ERROR(
      counter_->Load(kSequenceLeaseName, &stored).WithContext("reading the sequence lease"));
  const uint64_t start = stored.value_or(1);
  next_.store(start);
  leased_.store(start);
  std::lock_guard lock(mutex_);
  return Lease(start + kLeaseSize);
}

Status SequenceAllocator::Next(uint64_t* sequence) {
  uint64_t n = next_.fetch_add(1, std::memory_order_relaxed);
  if (n >= leased_.load(std::memory_order_acquire)) {
    std::lock_guard lock(mutex_);
    if (n >= leased_.load(std::memory_order_relaxed)) {
      CELLFS_RETURN_IF_ERROR(Lease(n + kLeaseSize));
    }
  }
  if (n > kMaxSequence) return Status::IOError("sequence numbers exhausted");
  *sequence = n;
  return Status::Ok();
}

Status SequenceAllocator::Lease(uint64_t limit) {
  CELLFS_RETURN_IF_ERROR(fence_->Check());
  uint64_t bound = 0;
  CELLFS_RETURN_IF_ERROR(fence_->Record(counter_->Raise(kSequenceLeaseName, limit, &bound)
                                            .WithContext("storing the sequence lease")));
  leased_.store(bound, std::memory_order_release);
  return Status::Ok();
}

}  // namespace cellfs::storage
