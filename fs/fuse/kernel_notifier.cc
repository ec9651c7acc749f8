// Sends the fs's kernel invalidations (fuse_lowlevel_notify_inval_*) from a
// dedicated thread, never from the request handler that asked for them:
// queued names first, then attributes (fs/files/notifier.h).
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
  Push(parent, std::move(name));
}

void KernelNotifierThread::InvalidateInode(uint64_t inode) { Push(inode, std::string()); }

void KernelNotifierThread::Push(uint64_t inode, std::string name) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!sender_) return;
    const bool entry = !name.empty();
    (entry ? entries_ : inodes_).push_back(Item{inode, std::move(name), ++pushed_});
  }
  wake_.notify_one();
}

bool KernelNotifierThread::SentThrough(uint64_t sequence) const {
  // Each queue is in the order asked, so its front is its oldest item.
  auto waiting = [sequence](const std::deque<Item>& queue) {
    return !queue.empty() && queue.front().sequence <= sequence;
  };
  return !waiting(entries_) && !waiting(inodes_) && (sending_ == 0 || sending_ > sequence);
}

void KernelNotifierThread::AwaitSent(int limit_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t target = pushed_;
  sent_cv_.wait_for(lock, std::chrono::milliseconds(limit_ms),
                    [this, target] { return SentThrough(target); });
}

void KernelNotifierThread::Start(fuse_session* session) {
  Start([session](uint64_t inode, const std::string& name) { SendToKernel(session, inode, name); });
}

void KernelNotifierThread::Start(Sender sender) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sender_ = std::move(sender);
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
    sender_ = nullptr;
    stopping_ = true;
    entries_.clear();
    inodes_.clear();
  }
  wake_.notify_one();
  sent_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void KernelNotifierThread::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !entries_.empty() || !inodes_.empty(); });
    if (stopping_) return;
    std::deque<Item>& queue = entries_.empty() ? inodes_ : entries_;  // names first
    Item item = std::move(queue.front());
    queue.pop_front();
    sending_ = item.sequence;
    Sender sender = sender_;
    lock.unlock();
    sender(item.inode, item.name);
    lock.lock();
    sending_ = 0;
    sent_cv_.notify_all();
  }
}

void KernelNotifierThread::SendToKernel(fuse_session* session, uint64_t inode,
                                        const std::string& name) {
  int rc = name.empty()
               ? fuse_lowlevel_notify_inval_inode(session, inode, 0, 0)
               : fuse_lowlevel_notify_inval_entry(session, inode, name.c_str(), name.size());
  // ENOENT: the kernel had nothing cached, the usual case. ENOTCONN: the
  // connection is not initialised yet or already gone.
  if (rc == 0 || rc == -ENOENT || rc == -ENOTCONN) return;
  fuse_log(FUSE_LOG_WARNING, "cellfs: kernel invalidation of inode %llu failed: %s\n",
           static_cast<unsigned long long>(inode), std::strerror(-rc));
}

}  // namespace cellfs::fs
