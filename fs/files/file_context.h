// FileContext: what the open files (and the operations that write) share:
// the engine, the one rule for refusing writes, the cells' append locks, the
// write buffers' budget, and invalidation through the Notifier. Over the
// tree's context; nothing of the operations (fs/README.md, rooms).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "engine/engine.h"
#include "fs/files/notifier.h"
#include "fs/tree/mount_status.h"
#include "fs/tree/node.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Thread-safe: every method may be called concurrently. Locks: the append
// locks (below) and, through the tree, its kept directories' lock; the
// notifier only queues (fs/files/notifier.h).
class FileContext {
 public:
  // `tree` and `notifier` must outlive the context.
  FileContext(TreeContext* tree, Notifier* notifier);
  FileContext(const FileContext&) = delete;
  FileContext& operator=(const FileContext&) = delete;

  Engine* const engine;  // the tree's

  // ---- What the open files ask of the tree (fs/tree/tree_context.h).
  Result<TableHandle> TableOf(const NodeId& id) const { return tree_->TableOf(id); }
  bool IsKept(const NodeId& id) const { return tree_->IsKept(id); }
  void Unkeep(const NodeId& id) { tree_->Unkeep(id); }
  const InodeTable& inodes() const { return *tree_->inodes; }
  std::string RefusalsText() const { return tree_->refusals.Render(); }  // MOUNT/@errors
  std::string StatusText() const { return MountStatusText(*tree_); }     // MOUNT/@status

  // ---- Invalidation after a change that other kernel objects may cache.
  // The notifier sends names before attributes (fs/files/notifier.h).
  void InvalidateNode(const NodeId& id);  // its attributes and data, if the kernel has it
  void InvalidateName(const NodeId& parent, const std::string& name);
  // `name` in `parent` and the node it named (deleted, or changed).
  void InvalidateNamedNode(const NodeId& parent, const std::string& name, const NodeId& node);
  // The kernel should look the cell's plain name up again (its entry
  // timeout was bounded by a TTL that changed, or the cell is gone).
  void InvalidateCellName(const Node& cell);
  // The cell's plain name and its plain node.
  void InvalidateCell(const Node& cell);
  // Returns once the invalidations asked so far reached the kernel (at most
  // a second): for writes whose writer must see their effect through the
  // kernel's caches when its syscall returns (@insert's close, DDL).
  void AwaitInvalidations();

  // ---- Writes.
  Status CheckWritable() const;  // ReadOnly when mounted read-only
  // Whether `node` may be opened for writing or truncated, as an errno: 0;
  // EISDIR for a directory; EROFS on a read-only mount; EACCES for a
  // read-only file. In that order, as Linux's open(2) checks them.
  int WriteRefusal(const Node& node) const;
  // EROFS, noted with its reason, when `node` lies beneath a query
  // directory (@where, a table's @limit=N, @columns=) or in a materialized
  // view: read-only, whatever is asked of it (write, mkdir, rm, rmdir,
  // setxattr); else 0.
  int QueryViewRefusal(const Node& node) const;
  // CheckWritable, then the engine's Apply.
  Status Apply(Mutation&& mutation);
  // A removal (`rm` of a cell, `rmdir` of a row, partition or slice) in
  // `table` is about to be built: Engine::NoteFileRemoval, so a DROP that
  // follows keeps what the removals delete. Call it before the removal's
  // mutation is built (a Mutation takes its sequences as it is built).
  void NoteRemoval(const TableSchema& table) const;

  // ---- Appends (`>>`) read the cell, merge and write it back; this lock,
  // one of a fixed set chosen by the cell's identity without write
  // suffixes, serialises those steps for one cell. No other fs lock is
  // taken while it is held, but it is held across the engine read and the
  // Apply of an append, so the engine's locks (schema_mutex shared, the
  // commit policy's) are taken under it: an exception to "no lock across
  // engine I/O", bounded to appends (docs/FILESYSTEM.md "Locks").
  std::mutex& AppendLock(const NodeId& cell);

  // Bytes of memory held by the write buffers of all open files (a cell's
  // value, a row's @json object) until they are stored, dropped or freed;
  // fs/files/open_file.cc charges it and refuses growth past its budget.
  std::atomic<uint64_t> write_buffer_bytes{0};

 private:
  TreeContext* const tree_;
  Notifier* const notifier_;
  std::array<std::mutex, 64> append_locks_;
};

}  // namespace cellfs::fs
