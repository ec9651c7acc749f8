// InodeTable: the FUSE inode numbers of the tree's nodes, with the kernel's
// lookup counts (fuse_lowlevel.h: every reply that creates an entry adds one
// lookup; forget takes them back; at zero the inode is gone).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/store/partition_ref.h"
#include "fs/tree/node_id.h"

namespace cellfs::fs {

// What resolving an inode's identity computed, kept with the inode so that
// later requests on it skip the work: the decoded NodeId and, for a node at
// or below a partition, its partition key prepared for the engine (valid
// for id.table_id; a dropped table fails resolution before it is used).
// Immutable once made; shared by the requests that read it.
struct NodeMemo {
  NodeId id;
  std::shared_ptr<const PartitionRef> partition;  // null above kPartition
};

// A node's identity is an opaque byte string that the tree encodes (the
// node's kind and its path in keys, e.g. keyspace, table id, partition key,
// clustering key, column id). Equal identities are the same node, so the
// same node always has the same inode number while the kernel knows it.
//
// Inode numbers are never reused within a mount (a 64-bit counter), so a
// stale number from the kernel can only miss, never find another node.
// kRootInode (FUSE_ROOT_ID) is permanent and needs no lookups.
//
// Thread-safe: one mutex guards everything and is held only for map
// operations (never across a reply or engine call).
class InodeTable {
 public:
  static constexpr uint64_t kRootInode = 1;

  // `root_identity` names the mount root.
  explicit InodeTable(std::string root_identity);

  // The inode of `identity`, created if absent, with its lookup count
  // raised by one. Call once per reply that hands the entry to the kernel
  // (lookup, mkdir, mknod, create, symlink, link, each readdirplus entry
  // other than "." and ".."). Never returns kRootInode for another identity.
  uint64_t Acquire(std::string_view identity);

  // Takes back `count` lookups of `inode`; drops it at zero. Unknown inodes
  // and the root are ignored; a count above the current one drops it.
  // Returns the identity when this call dropped the inode, so the caller
  // can let go of what it keeps per node in the same step.
  std::optional<std::string> Forget(uint64_t inode, uint64_t count);

  // The identity of `inode`; nullopt when the kernel has forgotten it (or
  // it never existed).
  std::optional<std::string> Identity(uint64_t inode) const;

  // The memo kept with `inode` (Memoize), or null when there is none (yet)
  // or the inode is unknown.
  std::shared_ptr<const NodeMemo> Memo(uint64_t inode) const;

  // Keeps `memo` with `inode` until the inode is forgotten; ignored when
  // the inode is unknown. `memo` must describe the inode's identity.
  // Memory: about one more copy of the identity per memoized inode.
  void Memoize(uint64_t inode, std::shared_ptr<const NodeMemo> memo);

  // The inode of `identity` if the kernel holds it, without a new lookup.
  std::optional<uint64_t> Find(std::string_view identity) const;

  // Inodes currently held (the root included): for tests and memory checks.
  size_t size() const;

 private:
  struct Entry {
    std::string identity;
    uint64_t lookups = 0;
    std::shared_ptr<const NodeMemo> memo;  // null until Memoize
  };

  mutable std::mutex mutex_;  // guards everything below
  uint64_t next_inode_ = kRootInode + 1;
  std::unordered_map<uint64_t, Entry> by_inode_;
  std::unordered_map<std::string, uint64_t> by_identity_;
};

}  // namespace cellfs::fs
