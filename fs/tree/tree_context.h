// TreeContext: what resolution, node state and listings share: the engine,
// the inode table, the mount's options and clock, and the kept directories.
// Nothing of the operations or the open files (fs/README.md, rooms).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>

#include "engine/engine.h"
#include "fs/tree/inode_table.h"
#include "fs/tree/node.h"
#include "fs/tree/node_attr.h"
#include "fs/tree/refusal_log.h"
#include "fs/tree/scratch_files.h"

namespace cellfs::fs {

// Thread-safe: every method may be called concurrently. The kept
// directories are guarded by kept_mutex_ (docs/FILESYSTEM.md "Locks": after
// a handle's and a cell's append lock, before the inode table's); the rest
// is fixed at construction.
class TreeContext {
 public:
  // `engine`, `inodes` and `options` must outlive the context. The mount
  // time (the mtime of directories that have no newer one) is read from
  // the engine's clock here.
  TreeContext(Engine* engine, InodeTable* inodes, const FilesystemOptions* options);
  TreeContext(const TreeContext&) = delete;
  TreeContext& operator=(const TreeContext&) = delete;

  Engine* const engine;
  InodeTable* const inodes;
  const FilesystemOptions* const options;
  const int64_t mount_micros;
  // The mount's latest refusals (MOUNT/@errors); thread-safe itself.
  RefusalLog refusals;
  // The scratch files beside cells (fs/tree/scratch_files.h); thread-safe.
  ScratchFiles scratch;

  // ---- Node resolution (fs/tree/node_resolver.cc).
  // The node the kernel's inode stands for; NotFound when forgotten or
  // when its table was dropped (a stale table id never resolves).
  Result<Node> NodeOf(uint64_t inode) const;
  // The child `name` of directory `parent`, without looking at data. For
  // data names, `split_suffixes` takes a trailing @ttl=/@timestamp= run
  // off the name first (the create paths); otherwise the whole name is the
  // key or column. NotFound for names that cannot exist here; the key
  // parser's InvalidArgument / NameTooLong for keys that do not parse.
  Status ChildOf(const Node& parent, std::string_view name, bool split_suffixes, Node* child) const;
  // Whether scratch files can be made in `dir`: a row, or the partition of
  // a table without clustering columns (in a clustered partition a name is
  // a row's key), not under a slice or a query, not in a materialized view.
  bool HoldsCells(const Node& dir) const;
  // The scratch file `name` of `dir` (REQUIRES: HoldsCells(dir)), whether
  // or not it exists.
  Node ScratchChild(const Node& dir, std::string_view name) const;
  // The identity ScratchFiles knows `dir` by: its id without write suffixes.
  std::string ScratchDirectory(const Node& dir) const;
  // The table a node id names, checked against its table id.
  Result<TableHandle> TableOf(const NodeId& id) const;

  // ---- Attributes (fs/tree/node_state.cc).
  // NotFound when the node is not live at `view` (nor kept).
  // `held`: the kernel holds the node and asks for its attributes
  // (getattr), so a directory whose attributes do not depend on its content
  // (table, a clustered partition, slice) is answered without reading it;
  // its existence is judged when its name is looked up again. This keeps
  // getattr of a partition O(1) however many deleted rows it holds.
  // Conversely only a held generated export (@json, @csv, @count) is
  // measured: its attributes time out at once, so what a lookup answers
  // (size 0) is never shown.
  Status StateOf(const Node& node, const ReadView& view, NodeState* state, bool held = false) const;
  // Fills an Entry for a live node: acquires a lookup and bounds the
  // timeouts by the state's validity.
  void MakeEntry(const Node& node, const NodeState& state, int64_t now_micros, Entry* out);
  void FinishAttr(uint64_t inode, NodeAttr* attr) const;  // owner, mode for read-only
  double TimeoutFor(const Node& node, const NodeState& state, int64_t now_micros,
                    double bound) const;

  // ---- Kept directories (fs/tree/tree_context.cc): key directories made by
  // mkdir (or emptied by rm) stay visible while the kernel holds their
  // inode, though nothing live is stored under them, so `mkdir -p a/b` and
  // `rm -r` work. A created cell is kept the same way until it is stored.
  void Keep(const NodeId& id);
  void Unkeep(const NodeId& id);
  bool IsKept(const NodeId& id) const;
  // The kernel takes back `count` lookups of `inode` (forget, or an entry
  // it never took). When that drops the inode its kept mark goes, unless
  // the identity is held again (a new inode). Judged under kept_mutex_, so
  // a concurrent maker that acquires its inode before it calls Keep
  // (MkDir, Create, Unlink, RmDir do) never loses its mark.
  void Forget(uint64_t inode, uint64_t count);

 private:
  // Guards kept_. Held for set operations and, in Forget, one inode-table
  // probe (the inode table's lock comes after it in the lock order); never
  // across a call out of the fs.
  mutable std::mutex kept_mutex_;
  std::unordered_set<std::string> kept_;  // identities
};

}  // namespace cellfs::fs
