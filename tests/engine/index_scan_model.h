// The answers a secondary index must give, computed from a full scan of the
// table (partition and row iterators) with Cassandra's rules, written apart
// from the engine's index code: the model of truth for the index tests.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/store/index_iterator.h"
#include "engine/store/read_view.h"
#include "engine/store/row_fragment.h"

namespace cellfs::testing {

struct ScannedRow {
  std::vector<std::string> clustering;
  RowFragment row;  // live content
};

struct ScannedPartition {
  std::vector<std::string> key;
  RowFragment static_row;  // live static cells (empty when none)
  std::vector<ScannedRow> rows;
};

// Every live partition of `table` in token order with its live rows in
// clustering order, as the partition and row iterators return them. Errors
// are returned as text in `*error` (empty when none).
inline std::vector<ScannedPartition> ScanWholeTable(const ReadView& view, const TableHandle& table,
                                                    std::string* error) {
  std::vector<ScannedPartition> out;
  auto partitions = view.NewPartitionIterator(table);
  for (; partitions->Valid(); partitions->Next()) {
    ScannedPartition p;
    Status s = partitions->DecodePartitionKey(&p.key);
    if (!s.ok()) {
      *error = "partition key: " + s.ToString();
      return out;
    }
    p.static_row = partitions->static_row();
    auto rows = view.NewRowIterator(table, p.key);
    if (!rows.ok()) {
      *error = "row iterator: " + rows.status().ToString();
      return out;
    }
    for (RowIterator& it = *rows.value(); it.Valid(); it.Next()) {
      ScannedRow row;
      s = it.DecodeClustering(&row.clustering);
      if (!s.ok()) {
        *error = "clustering: " + s.ToString();
        return out;
      }
      row.row = it.row();
      p.rows.push_back(std::move(row));
    }
    if (!rows.value()->status().ok()) {
      *error = "rows: " + rows.value()->status().ToString();
      return out;
    }
    out.push_back(std::move(p));
  }
  if (!partitions->status().ok()) *error = "partitions: " + partitions->status().ToString();
  return out;
}

inline std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (char c : bytes) {
    out += kDigits[static_cast<uint8_t>(c) >> 4];
    out += kDigits[static_cast<uint8_t>(c) & 0xF];
  }
  return out;
}

// A key value as text: an int as its number, anything else (the empty
// value included) as hex.
inline std::string KeyText(std::string_view value) {
  if (value.size() != 4) return Hex(value);
  uint32_t v = 0;
  for (char c : value) v = (v << 8) | static_cast<uint8_t>(c);
  return std::to_string(static_cast<int32_t>(v));
}

// One match, one line: "pk,pk2/c {row}" or "pk,pk2/* {static row}".
inline std::string RenderMatch(const TableSchema& table, std::span<const std::string> pk,
                               bool partition_match, std::span<const std::string> clustering,
                               const RowFragment& row) {
  std::string out;
  for (size_t i = 0; i < pk.size(); ++i) out += (i ? "," : "") + KeyText(pk[i]);
  out += '/';
  if (partition_match) {
    out += '*';
  } else {
    for (size_t i = 0; i < clustering.size(); ++i) out += (i ? "," : "") + KeyText(clustering[i]);
  }
  out += " {";
  if (row.marker) out += "marker@" + std::to_string(row.marker->write_time);
  for (const RowCell& cell : row.cells) {
    auto column = table.ColumnIndexById(cell.column_id);
    out += " " + (column ? table.column(*column).name : "#" + std::to_string(cell.column_id));
    out += "=" + Hex(cell.cell.value) + "@" + std::to_string(cell.cell.write_time);
    if (cell.cell.ttl != 0) out += "/ttl" + std::to_string(cell.cell.ttl);
  }
  return out + "}\n";
}

// The live cell of column `column` in `row`, or null.
inline const RowCell* LiveCellOf(const TableSchema& table, const RowFragment& row, size_t column) {
  for (const RowCell& cell : row.cells) {
    if (cell.column_id == table.column_ids[column] && !cell.cell.is_tombstone()) return &cell;
  }
  return nullptr;
}

// The items of a serialized frozen collection (i32 count, then i32 length
// and bytes per item: a list's or set's elements, a map's keys and values
// alternating); nullopt when it does not parse.
inline std::optional<std::vector<std::string>> CollectionItems(std::string_view bytes,
                                                               bool is_map) {
  auto read_i32 = [&](int32_t* out) {
    if (bytes.size() < 4) return false;
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(bytes[i]);
    bytes.remove_prefix(4);
    *out = static_cast<int32_t>(v);
    return true;
  };
  int32_t count = 0;
  if (!read_i32(&count) || count < 0) return std::nullopt;
  std::vector<std::string> items;
  for (int32_t i = 0; i < count * (is_map ? 2 : 1); ++i) {
    int32_t length = 0;
    if (!read_i32(&length) || length < 0 || static_cast<size_t>(length) > bytes.size()) {
      return std::nullopt;
    }
    items.emplace_back(bytes.substr(0, static_cast<size_t>(length)));
    bytes.remove_prefix(static_cast<size_t>(length));
  }
  if (!bytes.empty()) return std::nullopt;
  return items;
}

// Cassandra's order of two values of a simple type: int (the empty value
// first, then signed) or anything else compared as unsigned bytes (text).
inline int CompareValues(const CqlType& type, const std::string& a, const std::string& b) {
  if (type.kind() == TypeKind::kInt) {
    if (a.empty() || b.empty()) return (a.empty() ? 0 : 1) - (b.empty() ? 0 : 1);
    auto decode = [](const std::string& bytes) {
      uint32_t v = 0;
      for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
      return static_cast<int32_t>(v);
    };
    const int32_t x = decode(a), y = decode(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const int order = a.compare(b);
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

inline bool InBounds(const CqlType& type, const std::string& value, const IndexBounds& bounds) {
  if (bounds.lower) {
    const int order = CompareValues(type, value, *bounds.lower);
    if (order < 0 || (order == 0 && !bounds.lower_inclusive)) return false;
  }
  if (bounds.upper) {
    const int order = CompareValues(type, value, *bounds.upper);
    if (order > 0 || (order == 0 && !bounds.upper_inclusive)) return false;
  }
  return true;
}

// Does the live collection `cell` of column type `type` hold `value` in the
// way `target` looks at it (VALUES: an element / a map's value; KEYS: a
// map's key; ENTRIES: `value` is a frozen map of one entry)?
inline bool CollectionHolds(const CqlType& type, IndexTargetKind target, const std::string& cell,
                            const std::string& value) {
  const bool is_map = type.kind() == TypeKind::kMap;
  auto items = CollectionItems(cell, is_map);
  if (!items) return false;
  std::vector<std::string> entry;
  if (target == IndexTargetKind::kEntries) {
    auto parsed = CollectionItems(value, true);
    if (!parsed || parsed->size() != 2) return false;
    entry = *parsed;
  }
  for (size_t i = 0; i < items->size(); i += is_map ? 2 : 1) {
    switch (target) {
      case IndexTargetKind::kKeys:
        if ((*items)[i] == value) return true;
        break;
      case IndexTargetKind::kEntries:
        if ((*items)[i] == entry[0] && (*items)[i + 1] == entry[1]) return true;
        break;
      default:
        if ((*items)[is_map ? i + 1 : i] == value) return true;
        break;
    }
  }
  return false;
}

// What index `index` of `table` must answer for `bounds` over the scanned
// table `scan`, rendered by RenderMatch, in order: by value (ranges on
// simple columns only), then the scan's order (token, clustering).
inline std::string ExpectedMatches(const TableSchema& table, const IndexSchema& index,
                                   const std::vector<ScannedPartition>& scan,
                                   const IndexBounds& bounds) {
  const ColumnDef& column = table.column(index.column);
  std::vector<std::pair<std::string, std::string>> found;  // (value, rendered match)
  auto simple = [&](const std::optional<std::string>& value, std::span<const std::string> pk,
                    bool partition_match, std::span<const std::string> clustering,
                    const RowFragment& row) {
    if (!value || !InBounds(*column.type, *value, bounds)) return;
    found.emplace_back(*value, RenderMatch(table, pk, partition_match, clustering, row));
  };
  for (const ScannedPartition& p : scan) {
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        simple(p.key[static_cast<size_t>(column.position)], p.key, true, {}, p.static_row);
        continue;
      case ColumnKind::kStatic: {
        const RowCell* cell = LiveCellOf(table, p.static_row, index.column);
        simple(cell ? std::optional(cell->cell.value) : std::nullopt, p.key, true, {},
               p.static_row);
        continue;
      }
      default:
        break;
    }
    for (const ScannedRow& r : p.rows) {
      if (column.kind == ColumnKind::kClustering) {
        simple(r.clustering[static_cast<size_t>(column.position)], p.key, false, r.clustering,
               r.row);
        continue;
      }
      const RowCell* cell = LiveCellOf(table, r.row, index.column);
      if (cell == nullptr) continue;
      if (!column.type->is_multi_cell()) {
        simple(cell->cell.value, p.key, false, r.clustering, r.row);
        continue;
      }
      // Collections answer equality only.
      if (CollectionHolds(*column.type, index.target, cell->cell.value, *bounds.lower)) {
        found.emplace_back(*bounds.lower, RenderMatch(table, p.key, false, r.clustering, r.row));
      }
    }
  }
  std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
    return CompareValues(*column.type, a.first, b.first) < 0;
  });
  std::string out;
  for (const auto& match : found) out += match.second;
  return out;
}

// What the engine's index answers, rendered the same way; an error as a
// line starting with '!'.
inline std::string ActualMatches(const ReadView& view, const TableHandle& table,
                                 size_t index_number, const IndexBounds& bounds) {
  auto made = view.NewIndexIterator(table, index_number, bounds);
  if (!made.ok()) return "!" + made.status().ToString() + "\n";
  std::string out;
  IndexIterator& it = *made.value();
  for (; it.Valid(); it.Next()) {
    out += RenderMatch(*table, it.partition_key(), it.partition_match(), it.clustering(), it.row());
  }
  if (!it.status().ok()) out += "!" + it.status().ToString() + "\n";
  return out;
}

// The position of index `name` in the table's def.indexes; nullopt if none.
inline std::optional<size_t> IndexNumberOf(const TableSchema& table, const std::string& name) {
  for (size_t i = 0; i < table.def.indexes.size(); ++i) {
    if (table.def.indexes[i].name == name) return i;
  }
  return std::nullopt;
}

}  // namespace cellfs::testing
