// Durability modes: every commit reaches the OS at once (Durability::kNone;
// LevelDB: its log, written through); Storage::SyncCommitted makes commits
// survive an OS crash, either per write (batch: a synced commit), per group
// of writers (group), or on a timer (periodic).
#include "engine/store/internal/commit_policy.h"

#include <chrono>

#include "engine/store/storage/storage.h"

namespace cellfs::storage {

CommitPolicy::CommitPolicy(Storage* storage, WriteFence* fence, const EngineOptions& options)
    : storage_(storage),
      fence_(fence),
      mode_(options.commit_mode),
      interval_ms_(options.commit_mode == CommitMode::kGroup ? options.group_window_ms
                                                             : options.commit_period_ms) {
  if (mode_ != CommitMode::kBatch) syncer_ = std::thread([this] { SyncerLoop(); });
}

CommitPolicy::~CommitPolicy() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (syncer_.joinable()) syncer_.join();
  (void)SyncLog();
}

Status CommitPolicy::Write(Batch* batch, uint64_t* ticket) {
  *ticket = 0;
  CELLFS_RETURN_IF_ERROR(fence_->Check());
  const Durability durability =
      mode_ == CommitMode::kBatch ? Durability::kSynced : Durability::kNone;
  CELLFS_RETURN_IF_ERROR(
      fence_->Record(storage_->Commit(batch, durability).WithContext("write failed")));
  if (mode_ == CommitMode::kBatch) return Status::Ok();
  std::lock_guard lock(mutex_);
  dirty_ = true;
  // Group: the write needs a sync that starts after it.
  if (mode_ == CommitMode::kGroup) *ticket = syncs_started_ + 1;
  return Status::Ok();
}

Status CommitPolicy::AwaitDurable(uint64_t ticket) {
  if (ticket == 0) return Status::Ok();
  std::unique_lock lock(mutex_);
  ++waiters_;
  changed_.notify_all();
  changed_.wait(lock, [&] { return syncs_done_ >= ticket || stopping_; });
  --waiters_;
  if (syncs_done_ < ticket) return Status::IOError("engine closing before the write was synced");
  if (first_failed_sync_ != 0 && ticket >= first_failed_sync_) return first_sync_error_;
  return Status::Ok();
}

Status CommitPolicy::Sync() { return SyncLog(); }

Status CommitPolicy::SyncLog() {
  CELLFS_RETURN_IF_ERROR(fence_->Check());
  return fence_->Record(storage_->SyncCommitted().WithContext("sync failed"));
}

void CommitPolicy::SyncerLoop() {
  const auto interval = std::chrono::milliseconds(interval_ms_);
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (mode_ == CommitMode::kGroup) {
      // Sleep until a writer waits, then gather writers for one window.
      changed_.wait(lock, [&] { return waiters_ > 0 || stopping_; });
      if (stopping_) break;
    }
    changed_.wait_for(lock, interval, [&] { return stopping_; });
    if (stopping_) break;
    if (!dirty_) continue;
    dirty_ = false;
    ++syncs_started_;
    lock.unlock();
    Status synced = SyncLog();
    lock.lock();
    ++syncs_done_;
    if (!synced.ok() && first_failed_sync_ == 0) {
      first_failed_sync_ = syncs_done_;
      first_sync_error_ = synced;
    }
    changed_.notify_all();
  }
  // Release writers still waiting; the destructor syncs once more for them.
  changed_.notify_all();
}

}  // namespace cellfs::storage
