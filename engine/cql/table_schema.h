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

// A materialized view as the storage layer sees it (docs/FORMAT.md "View
// entries"): how its primary key maps onto its base table's row. A view
// row is read through its base row, so what it holds never disagrees with
// the base table (docs/ENGINE.md "Materialized views").
struct ViewSchema {
  uint32_t base_table_id = 0;
  // For each view primary key column (partition key, then clustering, in
  // key order): the index in the base's def.columns of the column it is.
  std::vector<size_t> base_column;
  // For each base primary key column, in key order: its position among the
  // view's primary key columns.
  std::vector<size_t> view_key_position;
  // The view primary key column that is a regular base column (position
  // among the view's key columns), and that column's base column id; none
  // when the view's key is the base's own key columns.
  std::optional<size_t> regular_key;
  uint32_t regular_key_column_id = 0;
  // False while entries for base rows written before CREATE MATERIALIZED
  // VIEW are still being added.
  bool built = false;
};

struct TableSchema;
using TableHandle = std::shared_ptr<const TableSchema>;

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
  // Set when this table is a materialized view (def.view is set). Its
  // static and regular columns carry their base columns' ids, so a base
  // row's cells are the view row's.
  std::optional<ViewSchema> view;
  // The materialized views of this base table, by name.
  std::vector<TableHandle> views;

  size_t partition_key_count() const { return def.partition_key_count(); }
  size_t clustering_count() const { return def.clustering_count(); }
  const ColumnDef& column(size_t index) const { return def.columns[index]; }

  // The storage view of the index named `name`; nullptr when none.
  const IndexSchema* FindIndex(const std::string& name) const;

  // The index in def.columns of the column with stable id `id`; nullopt for
  // ids of dropped columns (their stored cells are ignored and purged).
  std::optional<size_t> ColumnIndexById(uint32_t column_id) const;
};

}  // namespace cellfs
