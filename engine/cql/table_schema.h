// TableSchema: a table's definition as the storage layer sees it, with the
// stable ids that its stored data carries. Handles are immutable snapshots:
// a DDL change makes a new one, and holders of the old one keep a
// consistent view.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/schema.h"

namespace cellfs {

// A secondary index as the storage layer sees it: where its entries live
// and what of which column they hold (docs/FORMAT.md "Index entries").
struct IndexSchema {
  // Unique for the life of the store, drawn from the table ids: the
  // entries' space. A TRUNCATE gives the index a fresh one with its table.
  uint32_t id = 0;
  size_t column = 0;  // index in TableDef::columns
  IndexTargetKind target = IndexTargetKind::kSimple;
  // False while entries for the data written before CREATE INDEX are still
  // being added: then a read through it would miss rows.
  bool built = false;
};

// Immutable after construction; share freely between threads.
struct TableSchema {
  TableDef def;
  // Unique for the life of the store: never reused, even after a drop, so
  // data of a dropped table can never surface in a new one.
  uint32_t id = 0;
  // Parallel to def.columns: the stable id of each static or regular column
  // (>= 1, unique within the table, never reused after a drop, so a column
  // dropped and added again starts empty, as in Cassandra); 0 for key columns.
  std::vector<uint32_t> column_ids;
  // Parallel to def.indexes.
  std::vector<IndexSchema> indexes;

  size_t partition_key_count() const { return def.partition_key_count(); }
  size_t clustering_count() const { return def.clustering_count(); }
  const ColumnDef& column(size_t index) const { return def.columns[index]; }

  // The storage view of the index named `name`; nullptr when none.
  const IndexSchema* FindIndex(const std::string& name) const;

  // The index in def.columns of the column with stable id `id`; nullopt for
  // ids of dropped columns (their stored cells are ignored and purged).
  std::optional<size_t> ColumnIndexById(uint32_t column_id) const;
};

using TableHandle = std::shared_ptr<const TableSchema>;

}  // namespace cellfs
