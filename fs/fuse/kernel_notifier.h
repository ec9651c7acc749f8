// KernelNotifierThread: the Notifier a FuseSession owns (fs/fuse/fuse_binding.h).
// Internal to the FUSE binding, which starts it once the mount is live and
// stops it before the session goes away.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "fs/files/notifier.h"

struct fuse_session;

namespace cellfs::fs {

// Queues invalidations and sends them to the kernel from a thread of its
// own: the fs calls from inside request handlers, and the kernel may wait
// on a lock that such a request holds. Calls while stopped are dropped
// (nothing is mounted, so nothing is cached).
//
// Thread-safe. mutex_ guards the queue and the session; it is never held
// while a notification is sent.
class KernelNotifierThread final : public Notifier {
 public:
  KernelNotifierThread() = default;
  ~KernelNotifierThread() override;
  KernelNotifierThread(const KernelNotifierThread&) = delete;
  KernelNotifierThread& operator=(const KernelNotifierThread&) = delete;

  void InvalidateEntry(uint64_t parent, std::string name) override;
  void InvalidateInode(uint64_t inode) override;
  void AwaitSent(int limit_ms) override;

  // Starts sending to `session`. REQUIRES: stopped; the session is mounted
  // and outlives the matching Stop().
  void Start(fuse_session* session);
  // Drops what is queued and joins the thread; a no-op when stopped.
  void Stop();

 private:
  struct Item {
    uint64_t inode;    // the parent directory for an entry
    std::string name;  // empty: invalidate the inode itself
  };

  void Push(Item item);
  void Run();
  static void Send(fuse_session* session, const Item& item);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable sent_cv_;  // signalled when `done_` grows
  std::deque<Item> queue_;           // guarded by mutex_
  uint64_t pushed_ = 0;              // guarded by mutex_: items ever queued
  uint64_t done_ = 0;                // guarded by mutex_: items sent or dropped
  fuse_session* session_ = nullptr;  // guarded by mutex_; null when stopped
  bool stopping_ = false;            // guarded by mutex_
  std::thread thread_;               // touched only by Start and Stop
};

}  // namespace cellfs::fs
