// BatchApplier (fs/formats/batch_applier.h): a worker thread and a one-batch
// hand-over slot under a mutex and condition variable.
#include "fs/formats/batch_applier.h"

#include <pthread.h>

#include <cassert>
#include <utility>

namespace cellfs::fs {

BatchApplier::BatchApplier(Engine* engine) : engine_(engine) {}

BatchApplier::~BatchApplier() {
  (void)Wait();  // a batch still in flight finishes; its caller has gone
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BatchApplier::Start(Mutation&& batch) {
  assert(!started_);
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  {
    std::lock_guard lock(mutex_);
    batch_.emplace(std::move(batch));
  }
  started_ = true;
  changed_.notify_all();
}

Status BatchApplier::Wait() {
  if (!started_) return Status::Ok();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !batch_ && !applying_; });
  started_ = false;
  return std::exchange(result_, Status::Ok());
}

void BatchApplier::Run() {
  pthread_setname_np(pthread_self(), kThreadName);  // seen in top -H, gdb, /proc
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return batch_ || stopping_; });
    if (!batch_) return;  // stopping, nothing left
    Mutation batch = std::move(*batch_);
    batch_.reset();
    applying_ = true;
    lock.unlock();
    Status applied = engine_->Apply(std::move(batch));
    lock.lock();
    applying_ = false;
    result_ = std::move(applied);
    changed_.notify_all();
  }
}

}  // namespace cellfs::fs
