// Filesystem::Impl: the state behind fs/ops/filesystem.h and the helpers its
// operation files share (node resolution, attributes, invalidation). Only
// fs/*.cc include this.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/engine.h"
#include "fs/ops/filesystem.h"
#include "fs/ops/handle_table.h"
#include "fs/tree/node_id.h"

namespace cellfs::fs {

// A node with what resolving it needs: the table's current schema for
// kTable and below.
class OpenFile;    // fs/files/open_file.h
struct DirHandle;  // fs/ops/directories.cc: an open directory

struct Node {
  NodeId id;
  TableHandle table;  // null above kTable
  // At or below a partition: its key prepared for the engine, when the node
  // came from NodeOf (kept with the inode) or KeyChild; may be null, then
  // Partition() prepares it.
  std::shared_ptr<const PartitionRef> partition;

  // The prepared partition key: `partition`, or made from id.partition_key.
  // REQUIRES: table set and id at or below kPartition.
  Result<std::shared_ptr<const PartitionRef>> Partition() const;

  // Key column types, in key order (valid when `table` is set).
  std::vector<const CqlType*> PartitionTypes() const;
  std::vector<const CqlType*> ClusteringTypes() const;
  bool clustered() const { return table && table->clustering_count() > 0; }
  // The column of a kCell node (index in table->def.columns).
  std::optional<size_t> column() const;
  // Whether this is a row's @json: a row's, or the partition's of a table
  // without clustering columns (the partition is the row). It is read and
  // written as one object; every other @json is an export.
  bool IsRowJson() const {
    return id.kind == NodeKind::kVirtualFile && id.file == VirtualName::Kind::kJson &&
           (id.directory == NodeKind::kRow ||
            (id.directory == NodeKind::kPartition && !clustered()));
  }
};

// The one rule for which nodes take writes (docs/FILESYSTEM.md, "Errors"):
// cells, @cql, @insert and a row's @json do; directories do not (EISDIR);
// every other file is read-only (EACCES, root included). Open for writing,
// truncation, create and stat's mode bits all ask this; the errno a writer
// gets is Filesystem::Impl::WriteRefusal's. Defined in fs/tree/node_state.cc.
enum class Writability { kWritable, kDirectory, kReadOnlyFile };
Writability WritabilityOf(const Node& node);

// What a live node looks like at a read view: its attributes (inode left
// 0) and when it stops being what the kernel cached (expiry of the TTL that
// keeps it alive, in microseconds; INT64_MAX when none).
struct NodeState {
  NodeAttr attr;
  int64_t valid_until_micros = INT64_MAX;
};

struct Filesystem::Impl {
  Impl(Filesystem* owner, Engine* engine, Notifier* notifier);

  Filesystem* fs;
  Engine* engine;
  Notifier* notifier;
  int64_t mount_micros;

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
  // The table a node id names, checked against its table id.
  Result<TableHandle> TableOf(const NodeId& id) const;

  // ---- Attributes (fs/tree/node_state.cc).
  // NotFound when the node is not live at `view` (nor kept).
  // `held`: the kernel holds the node and asks for its attributes
  // (getattr), so a directory whose attributes do not depend on its content
  // (table, a clustered partition, slice) is answered without reading it;
  // its existence is judged when its name is looked up again. This keeps
  // getattr of a partition O(1) however many deleted rows it holds.
  Status StateOf(const Node& node, const ReadView& view, NodeState* state, bool held = false) const;
  // Fills an Entry for a live node: acquires a lookup and bounds the
  // timeouts by the state's validity.
  void MakeEntry(const Node& node, const NodeState& state, int64_t now_micros, Entry* out);
  void FinishAttr(uint64_t inode, NodeAttr* attr) const;  // owner, mode for read-only
  double TimeoutFor(const Node& node, const NodeState& state, int64_t now_micros,
                    double bound) const;

  // ---- Kept directories: key directories made by mkdir (or emptied by
  // rm) stay visible while the kernel holds their inode, though nothing
  // live is stored under them, so `mkdir -p a/b` and `rm -r` work.
  void Keep(const NodeId& id);
  void Unkeep(const NodeId& id);
  bool IsKept(const NodeId& id) const;
  // The kernel let go of the inode of `identity`: its kept mark goes,
  // unless the identity is held again (a new inode). Judged under `mutex`,
  // so a concurrent maker that acquires its inode before it calls Keep
  // (MkDir, Create, Unlink, RmDir do) never loses its mark.
  void Forgotten(const std::string& identity);

  // ---- Invalidation after a change that other kernel objects may cache.
  void InvalidateNode(const NodeId& id);  // its attributes and data, if the kernel has it
  void InvalidateName(const NodeId& parent, const std::string& name);
  // The kernel should look the cell's plain name up again (its entry
  // timeout was bounded by a TTL that changed).
  void InvalidateCellName(const Node& cell);
  // Returns once the invalidations asked so far reached the kernel (at most
  // a second): for writes whose writer must see their effect through the
  // kernel's caches when its syscall returns (@insert's close, DDL).
  void AwaitInvalidations();

  // ---- Appends (`>>`) read the cell, merge and write it back; this lock,
  // one of a fixed set chosen by the cell's identity, serialises those
  // steps for one cell. No other fs lock is taken while it is held, but it
  // is held across the engine read and the Apply of an append, so the
  // engine's locks (schema_mutex shared, the commit policy's) are taken
  // under it: an exception to "no lock across engine I/O", bounded to
  // appends (docs/FILESYSTEM.md "Locks").
  std::mutex& AppendLock(const NodeId& cell);

  // ---- Open files and directories the kernel has not released, by the
  // handle it holds (fuse_file_info::fh): a handle released, or never
  // issued, finds nothing (EBADF). At shutdown (a signal can end the
  // session with handles still open) the Filesystem releases them before
  // the engine closes: what files were given is stored, no batch of theirs
  // is still being applied, and no directory listing still holds an engine
  // snapshot or iterator.
  HandleTable<OpenFile> files;
  HandleTable<DirHandle> dirs;

  // ---- Writes.
  Status CheckWritable() const;  // ReadOnly when mounted read-only
  // Whether `node` may be opened for writing or truncated, as an errno: 0;
  // EISDIR for a directory; EROFS on a read-only mount; EACCES for a
  // read-only file. In that order, as Linux's open(2) checks them.
  int WriteRefusal(const Node& node) const;
  Status Apply(Mutation&& mutation);

  // Bytes of memory held by the write buffers of all open files (a cell's
  // value, a row's @json object) until they are stored, dropped or freed;
  // fs/files/open_file.cc charges it and refuses growth past its budget.
  std::atomic<uint64_t> write_buffer_bytes{0};

  // Guards `kept`. Held for set operations and, in Forgotten, one
  // inode-table probe (the inode table's lock comes after it in the lock
  // order); never across a call out of the fs.
  mutable std::mutex mutex;
  std::unordered_set<std::string> kept;  // identities
  std::array<std::mutex, 64> append_locks;
};

// The name of a column, for listings. Shared by listings and invalidation.
const std::string& ColumnName(const TableSchema& table, size_t column);

// States of directories (keyspace, table, partition...), of rows (mtime:
// newest write; valid until the last TTL ends) and of cells.
NodeState DirectoryState(int64_t mtime_micros, nlink_t nlink);
NodeState RowState(const RowFragment& row);
NodeState CellState(const CqlType& type, const RowCell& cell);

// Runs one DDL statement given as CQL text.
Status RunStatement(Engine* engine, const std::string& cql);

// What @schema shows for a keyspace or table node (DESCRIBE text).
Result<std::string> SchemaText(const Engine& engine, const Node& node);

}  // namespace cellfs::fs
