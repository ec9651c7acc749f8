// InvalidateRows and InvalidateDeletion (fs/files/row_invalidation.h).
#include "fs/files/row_invalidation.h"

#include <vector>

#include "fs/formats/key_name.h"

namespace cellfs::fs {
namespace {

NodeId PartitionOf(const NodeId& table, std::span<const std::string> partition_key) {
  NodeId partition = table;
  partition.kind = NodeKind::kPartition;
  partition.file = VirtualName::Kind::kCql;
  partition.directory = NodeKind::kRoot;
  partition.write = {};
  partition.partition_key.assign(partition_key.begin(), partition_key.end());
  return partition;
}

void InvalidateRow(FileContext* context, const TableSchema& table, const NodeId& partition,
                   const TouchedRows::Reader& row) {
  NodeId dir = partition;
  bool row_held = true;
  if (!row.clustering().empty()) {
    dir.kind = NodeKind::kRow;
    dir.clustering = row.clustering();
    row_held = context->inodes().Find(EncodeNodeId(dir)).has_value();
    if (row_held) context->InvalidateNode(dir);  // its mtime is its newest write
  }
  for (size_t column : row.columns()) {
    const bool is_static = table.column(column).kind == ColumnKind::kStatic;
    if (!is_static && !row_held) continue;
    NodeId cell = is_static ? partition : dir;
    cell.kind = NodeKind::kCell;
    cell.column_id = table.column_ids[column];
    if (!context->inodes().Find(EncodeNodeId(cell))) continue;
    // A null deleted it: the kernel must look the name up again.
    context->InvalidateNamedNode(is_static ? partition : dir, ColumnName(table, column), cell);
  }
}

// The name of the key made of `values` for the key columns from `first`.
std::optional<std::string> KeyName(const TableSchema& table, size_t first,
                                   std::span<const std::string> values) {
  std::vector<const CqlType*> types;
  for (size_t i = 0; i < values.size(); ++i) types.push_back(table.column(first + i).type.get());
  Result<std::string> name = FormatKeyName(types, values);
  if (!name.ok()) return std::nullopt;
  return std::move(name.value());
}

}  // namespace

void InvalidateRows(FileContext* context, const NodeId& table, const TableSchema& schema,
                    const TouchedRows& rows) {
  bool partition_held = false;
  NodeId partition = PartitionOf(table, {});
  for (TouchedRows::Reader row(rows); row.Next();) {
    if (row.new_partition()) {
      partition.partition_key = row.partition_key();
      partition_held = context->inodes().Find(EncodeNodeId(partition)).has_value();
      if (partition_held) context->InvalidateNode(partition);
    }
    if (partition_held) InvalidateRow(context, schema, partition, row);
  }
}

void InvalidateDeletion(FileContext* context, const NodeId& table, const TableSchema& schema,
                        std::span<const std::string> partition_key,
                        std::span<const std::string> clustering, bool whole_partition) {
  const NodeId partition = PartitionOf(table, partition_key);
  if (whole_partition) {
    if (auto name = KeyName(schema, 0, partition_key)) context->InvalidateName(table, *name);
  }
  if (!context->inodes().Find(EncodeNodeId(partition))) return;
  context->InvalidateNode(partition);
  if (clustering.empty()) return;
  NodeId row = partition;
  row.kind = NodeKind::kRow;
  row.clustering.assign(clustering.begin(), clustering.end());
  if (auto name = KeyName(schema, schema.partition_key_count(), clustering)) {
    context->InvalidateNamedNode(partition, *name, row);
  } else {
    context->InvalidateNode(row);
  }
}

}  // namespace cellfs::fs
