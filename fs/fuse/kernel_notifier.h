// KernelNotifierThread: the Notifier a FuseSession owns (fs/fuse/fuse_binding.h).
// Internal to the FUSE binding, which starts it once the mount is live and
// stops it before the session goes away.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "fs/files/notifier.h"

struct fuse_session;

namespace cellfs::fs {

// Queues invalidations and sends them to the kernel from a thread of its
// own: the fs calls from inside request handlers, and the kernel may wait
// on a lock that such a request holds. Calls while stopped are dropped
// (nothing is mounted, so nothing is cached). Entry invalidations go
// before the inode invalidations still queued (notifier.h); each kind
// keeps the order it was asked in.
//
// Thread-safe. mutex_ guards the queues and the sender; it is never held
// while a notification is sent.
class KernelNotifierThread final : public Notifier {
 public:
  // Sends one invalidation: of `name` in directory `inode`, or of the
  // inode itself when `name` is empty.
  using Sender = std::function<void(uint64_t inode, const std::string& name)>;

  KernelNotifierThread() = default;
  ~KernelNotifierThread() override;
  KernelNotifierThread(const KernelNotifierThread&) = delete;
  KernelNotifierThread& operator=(const KernelNotifierThread&) = delete;

  void InvalidateEntry(uint64_t parent, std::string name) override;
  void InvalidateInode(uint64_t inode) override;
  void AwaitSent(int limit_ms) override;

  // Starts sending to `session` (fuse_lowlevel_notify_inval_*). REQUIRES:
  // stopped; the session is mounted and outlives the matching Stop().
  void Start(fuse_session* session);
  // Starts sending through `sender` (tests record or hold the sends).
  void Start(Sender sender);
  // Drops what is queued and joins the thread; a no-op when stopped.
  void Stop();

 private:
  struct Item {
    uint64_t inode;     // the parent directory for an entry
    std::string name;   // empty: invalidate the inode itself
    uint64_t sequence;  // the order it was asked in, from 1
  };

  void Push(uint64_t inode, std::string name);
  void Run();
  // Whether every item asked up to `sequence` was sent or dropped.
  bool SentThrough(uint64_t sequence) const;  // REQUIRES: mutex_ held
  static void SendToKernel(fuse_session* session, uint64_t inode, const std::string& name);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable sent_cv_;  // signalled when an item was sent
  std::deque<Item> entries_;         // guarded by mutex_: names, sent first
  std::deque<Item> inodes_;          // guarded by mutex_
  uint64_t pushed_ = 0;              // guarded by mutex_: items ever queued
  uint64_t sending_ = 0;             // guarded by mutex_: the item being sent, or 0
  Sender sender_;                    // guarded by mutex_; empty when stopped
  bool stopping_ = false;            // guarded by mutex_
  std::thread thread_;               // touched only by Start and Stop
};

}  // namespace cellfs::fs
