// What a materialized view must hold, computed from a full scan of its base
// table with Cassandra's definition of a view (a base row whose view key
// columns are all non-null and that satisfies the view's WHERE, keyed by
// the view's key, holding the selected columns' cells with their write
// times and TTLs), written apart from the engine's view code: the model of
// truth for the view tests. The test states each view's shape itself
// (ViewSpec) rather than reading it from the engine's schema.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/read_view.h"
#include "tests/engine/index_scan_model.h"

namespace cellfs::testing {

struct ViewSpec {
  std::vector<std::string> key;      // the view's primary key columns, in key order
  std::vector<std::string> columns;  // the selected non-key columns
  // The WHERE restrictions beyond IS NOT NULL: given a base row's value of
  // each view key column (by position in `key`), whether the row is in.
  std::function<bool(const std::vector<std::string>&)> where;
};

// One view row, one line: "k1,k2,... {col=hex@time/ttl ...}"; the lines sorted.
inline std::string RenderViewRow(const std::vector<std::string>& key,
                                 const std::vector<std::pair<std::string, const RowCell*>>& cells) {
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) out += (i ? "," : "") + KeyText(key[i]);
  out += " {";
  for (const auto& [name, cell] : cells) {
    if (cell == nullptr) continue;
    out += " " + name + "=" + Hex(cell->cell.value) + "@" + std::to_string(cell->cell.write_time);
    if (cell->cell.ttl != 0) out += "/ttl" + std::to_string(cell->cell.ttl);
  }
  return out + "}";
}

inline std::string JoinSorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// The view's rows as the model defines them, from `scan` of `base`.
inline std::string ExpectedView(const TableSchema& base, const ViewSpec& spec,
                                const std::vector<ScannedPartition>& scan) {
  std::vector<std::string> lines;
  for (const ScannedPartition& partition : scan) {
    for (const ScannedRow& row : partition.rows) {
      std::vector<std::string> key;
      bool in = true;
      for (const std::string& name : spec.key) {
        const size_t column =
            static_cast<size_t>(base.def.FindColumn(name) - base.def.columns.data());
        const ColumnDef& def = base.column(column);
        if (def.kind == ColumnKind::kPartitionKey) {
          key.push_back(partition.key[static_cast<size_t>(def.position)]);
        } else if (def.kind == ColumnKind::kClustering) {
          key.push_back(row.clustering[static_cast<size_t>(def.position)]);
        } else if (const RowCell* cell = LiveCellOf(base, row.row, column); cell != nullptr) {
          key.push_back(cell->cell.value);
        } else {
          in = false;  // null in the view's key: no view row
          break;
        }
      }
      if (!in || (spec.where && !spec.where(key))) continue;
      std::vector<std::pair<std::string, const RowCell*>> cells;
      for (const std::string& name : spec.columns) {
        const size_t column =
            static_cast<size_t>(base.def.FindColumn(name) - base.def.columns.data());
        cells.emplace_back(name, LiveCellOf(base, row.row, column));
      }
      lines.push_back(RenderViewRow(key, cells));
    }
  }
  return JoinSorted(std::move(lines));
}

// The view's rows as the engine lists them; an order violation (partitions
// not strictly ascending by position, rows not by encoded clustering) or
// an error is a line of its own.
inline std::string ActualView(const ReadView& view, const TableHandle& table,
                              const ViewSpec& spec) {
  std::vector<std::string> lines;
  std::string last_position;
  auto partitions = view.NewPartitionIterator(table);
  for (bool first = true; partitions->Valid(); partitions->Next(), first = false) {
    const std::string position(partitions->position());
    if (!first && position <= last_position) lines.push_back("! partitions out of order");
    last_position = position;
    std::vector<std::string> pk;
    if (!partitions->DecodePartitionKey(&pk).ok()) lines.push_back("! partition key");
    auto rows = view.NewRowIterator(table, pk);
    if (!rows.ok()) {
      lines.push_back("! rows: " + rows.status().ToString());
      continue;
    }
    std::string last_clustering;
    size_t count = 0;
    for (RowIterator& it = *rows.value(); it.Valid(); it.Next(), ++count) {
      const std::string clustering(it.clustering_key());
      if (count > 0 && clustering <= last_clustering) lines.push_back("! rows out of order");
      last_clustering = clustering;
      std::vector<std::string> key = pk, values;
      if (!it.DecodeClustering(&values).ok()) lines.push_back("! clustering");
      key.insert(key.end(), values.begin(), values.end());
      std::vector<std::pair<std::string, const RowCell*>> cells;
      for (const std::string& name : spec.columns) {
        const size_t column =
            static_cast<size_t>(table->def.FindColumn(name) - table->def.columns.data());
        cells.emplace_back(name, LiveCellOf(*table, it.row(), column));
      }
      lines.push_back(RenderViewRow(key, cells));
    }
    if (!rows.value()->status().ok()) lines.push_back("! " + rows.value()->status().ToString());
    if (count == 0) lines.push_back("! a listed partition without rows");
  }
  if (!partitions->status().ok()) lines.push_back("! " + partitions->status().ToString());
  return JoinSorted(std::move(lines));
}

}  // namespace cellfs::testing
