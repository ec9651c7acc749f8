// Node: a node id with the table schema it resolved against, and what the
// tree knows of it without an operation around it: whether it takes writes
// and what stat shows for it (NodeState). Resolved by fs/tree/tree_context.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/store/partition_ref.h"
#include "fs/tree/node_attr.h"
#include "fs/tree/node_id.h"

namespace cellfs::fs {

// A node with what resolving it needs: the table's current schema for
// kTable and below.
struct Node {
  NodeId id;
  TableHandle table;  // null above kTable
  // At or below a partition: its key prepared for the engine, when the node
  // came from NodeOf (kept with the inode) or from a parent that had it;
  // may be null, then Partition() prepares it.
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
  // Whether this is the @json of a clustered partition whose table has
  // static columns: read, the partition's rows as JSON Lines (an export);
  // written, one JSON object of its static columns (docs/FILESYSTEM.md,
  // "Virtual files"). Without static columns it is read-only.
  bool IsStaticJson() const {
    if (id.kind != NodeKind::kVirtualFile || id.file != VirtualName::Kind::kJson ||
        id.directory != NodeKind::kPartition || !clustered() || !id.slice.empty()) {
      return false;
    }
    for (const ColumnDef& column : table->def.columns) {
      if (column.kind == ColumnKind::kStatic) return true;
    }
    return false;
  }
};

// The one rule for which nodes take writes (docs/FILESYSTEM.md, "Errors"):
// cells, @cql, @insert, a row's @json and a clustered partition's @json
// (its static columns) do; directories do not (EISDIR);
// every other file is read-only (EACCES, root included), and so is every
// file beneath a query directory (FileContext::QueryViewRefusal: EROFS). Open for writing,
// truncation, create and stat's mode bits all ask this; the errno a writer
// gets is FileContext::WriteRefusal's (fs/files/file_context.h). Defined in
// fs/tree/node_state.cc.
enum class Writability { kWritable, kDirectory, kReadOnlyFile };
Writability WritabilityOf(const Node& node);

// What a live node looks like at a read view: its attributes (inode left
// 0) and when it stops being what the kernel cached (expiry of the TTL that
// keeps it alive, in microseconds; INT64_MAX when none).
struct NodeState {
  NodeAttr attr;
  int64_t valid_until_micros = INT64_MAX;
};

// The name of a column, for listings. Shared by listings and invalidation.
const std::string& ColumnName(const TableSchema& table, size_t column);

// States of directories (keyspace, table, partition...), of rows (mtime:
// newest write; valid until the last TTL ends) and of cells.
NodeState DirectoryState(int64_t mtime_micros, nlink_t nlink);
NodeState RowState(const RowFragment& row);
NodeState CellState(const CqlType& type, const RowCell& cell);

// What @schema shows for a keyspace or table node (DESCRIBE text).
Result<std::string> SchemaText(const Engine& engine, const Node& node);

}  // namespace cellfs::fs
