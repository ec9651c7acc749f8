// Sends the fs's kernel invalidations (fuse_lowlevel_notify_inval_*) from a
// dedicated thread, never from the request handler that asked for them.
#define FUSE_USE_VERSION 314

#include "fs/fuse/kernel_notifier.h"

#include <fuse_lowlevel.h>
#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

namespace cellfs::fs {

KernelNotifierThread::~KernelNotifierThread() { Stop(); }

void KernelNotifierThread::InvalidateEntry(uint64_t parent, std::string name) {
  if (name.empty()) return;  // would read as an inode invalidation
  Push(Item{parent, std::move(name)});
}

void KernelNotifierThread::InvalidateInode(uint64_t inode) { Push(Item{inode, std::string()}); }

void KernelNotifierThread::Push(Item item) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (session_ == nullptr) return;
    queue_.push_back(std::move(item));
    ++pushed_;
  }
  wake_.notify_one();
}

void KernelNotifierThread::AwaitSent(int limit_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = pushed_;
  sent_cv_.wait_for(lock, std::chrono::milliseconds(limit_ms),
                    [this, target] { return done_ >= target; });
}

void KernelNotifierThread::Start(fuse_session* session) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    session_ = session;
    stopping_ = false;
  }
  // The thread must not take SIGINT/SIGTERM/SIGHUP: libfuse's handler only
  // wakes the session loop when it runs on the loop's own thread.
  sigset_t blocked;
  sigset_t previous;
  sigemptyset(&blocked);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&blocked, sig);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  thread_ = std::thread([this] { Run(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void KernelNotifierThread::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    session_ = nullptr;
    stopping_ = true;
    done_ += queue_.size();
    queue_.clear();
  }
  wake_.notify_one();
  sent_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void KernelNotifierThread::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Item item = std::move(queue_.front());
    queue_.pop_front();
    fuse_session* session = session_;
    lock.unlock();
    Send(session, item);
    lock.lock();
    ++done_;
    sent_cv_.notify_all();
  }
}

void KernelNotifierThread::Send(fuse_session* session, const Item& item) {
  int rc = item.name.empty() ? fuse_lowlevel_notify_inval_inode(session, item.inode, 0, 0)
                             : fuse_lowlevel_notify_inval_entry(
                                   session, item.inode, item.name.c_str(), item.name.size());
  // ENOENT: the kernel had nothing cached, the usual case. ENOTCONN: the
  // connection is not initialised yet or already gone.
  if (rc == 0 || rc == -ENOENT || rc == -ENOTCONN) return;
  fuse_log(FUSE_LOG_WARNING, "cellfs: kernel invalidation of inode %llu failed: %s\n",
           static_cast<unsigned long long>(item.inode), std::strerror(-rc));
}

}  // namespace cellfs::fs
