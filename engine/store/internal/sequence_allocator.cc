// Leased sequence numbers: one synced metadata write per kLeaseSize numbers.
#include "engine/store/internal/sequence_allocator.h"

#include <leveldb/db.h>

#include <string>

#include "engine/cql/internal/big_endian.h"
#include "engine/store/internal/leveldb_status.h"
#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {

Status SequenceAllocator::Open(leveldb::DB* db, WriteFence* fence) {
  db_ = db;
  fence_ = fence;
  std::string stored;
  leveldb::Status s = db_->Get(leveldb::ReadOptions(), MetaKey(kSequenceLeaseName), &stored);
  uint64_t start = 1;
  if (s.ok()) {
    if (stored.size() != 8) return Status::Corruption("sequence lease is not 8 bytes");
    start = ReadBigEndian(stored);
  } else if (!s.IsNotFound()) {
    return FromLevelDb(s, "reading the sequence lease");
  }
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
  std::string value;
  AppendBigEndian(limit, 8, &value);
  CELLFS_RETURN_IF_ERROR(fence_->Check());
  leveldb::WriteOptions options;
  options.sync = true;
  leveldb::Status s = db_->Put(options, MetaKey(kSequenceLeaseName), value);
  CELLFS_RETURN_IF_ERROR(fence_->Record(FromLevelDb(s, "storing the sequence lease")));
  leased_.store(limit, std::memory_order_release);
  return Status::Ok();
}

}  // namespace cellfs::storage
