// Notifier: how the fs tells the kernel that something it may have cached
// changed behind its back (another open file, DDL, expiry). The FUSE binding
// implements it with fuse_lowlevel_notify_inval_*; tests record the calls.
#pragma once

#include <cstdint>
#include <string>

namespace cellfs::fs {

// Implementations must be thread-safe and must not call into the kernel
// from the calling thread: the fs calls these from inside request handlers,
// and invalidating from inside a related request can deadlock. The binding
// queues them and a thread of its own sends them.
//
// Names before attributes: an implementation that queues sends every
// queued entry invalidation before the inode invalidations still waiting.
// The kernel checks the permissions of a cached name's inode with a
// GETATTR once that inode's attributes are stale; a node deleted through
// another name (`rm col@timestamp=T`, a CQL DELETE) must not be met that
// way while the name's own invalidation still waits behind an attribute
// one, or `echo v > col` fails where it should create the cell. Sending a
// name's invalidation early is always safe: the kernel only looks it up
// again.
class Notifier {
 public:
  virtual ~Notifier() = default;
  // The kernel should forget `name` in directory `parent` (its dentry).
  virtual void InvalidateEntry(uint64_t parent, std::string name) = 0;
  // The kernel should drop its cached attributes and data of `inode`.
  virtual void InvalidateInode(uint64_t inode) = 0;
  // Waits until what was asked before this call has reached the kernel, at
  // most `limit_ms`, so that the syscall whose request calls it returns
  // only once the kernel has dropped what it cached (a close of @insert, a
  // DDL write to @cql). REQUIRES: the calling request holds nothing the
  // invalidations need (no directory of theirs is locked by its syscall).
  virtual void AwaitSent(int limit_ms) { (void)limit_ms; }
};

// A Notifier that does nothing (no kernel: unit tests that do not look).
class NullNotifier final : public Notifier {
 public:
  void InvalidateEntry(uint64_t, std::string) override {}
  void InvalidateInode(uint64_t) override {}
};

}  // namespace cellfs::fs
