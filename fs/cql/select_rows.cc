// SelectRowReader: a SELECT's rows streamed from one snapshot.
#include "fs/cql/select_rows.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "engine/cql/big_endian.h"
#include "engine/cql/collection_codec.h"
#include "engine/cql/key_codec.h"
#include "engine/store/cell.h"
#include "engine/store/partition_ref.h"
#include "fs/cql/select_like.h"
#include "fs/cql/value_order.h"

namespace cellfs::fs {
namespace {

using Op = SelectRelation::Op;

}  // namespace

SelectRowReader::SelectRowReader(ReadView view, SelectQuery query)
    : view_(std::move(view)), query_(std::move(query)) {}

SelectRowReader::~SelectRowReader() = default;

bool SelectRowReader::Fail(Status status) {
  status_ = std::move(status);
  done_ = true;
  return false;
}

bool SelectRowReader::Next(SelectRow* row) {
  while (!done_) {
    if (query_.limit != 0 && emitted_ >= query_.limit) {
      done_ = true;
      break;
    }
    if (!in_partition_) {
      if (!NextPartition()) {
        done_ = true;
        break;
      }
      in_partition_ = true;
    }
    if (NextRowInPartition(row)) {
      ++emitted_;
      ++partition_rows_;
      return true;
    }
    in_partition_ = false;
  }
  return false;
}

bool SelectRowReader::NextPartition() {
  const TableHandle& table = query_.table;
  static_row_.reset();
  rows_.reset();
  slice_ = 0;
  partition_rows_ = 0;
  partition_had_row_ = false;
  auto in_token_range = [&](int64_t token, bool* past_end) {
    *past_end = false;
    if (query_.token_lower && (token < *query_.token_lower ||
                               (token == *query_.token_lower && !query_.token_lower_inclusive))) {
      return false;
    }
    if (query_.token_upper && (token > *query_.token_upper ||
                               (token == *query_.token_upper && !query_.token_upper_inclusive))) {
      *past_end = true;
      return false;
    }
    return true;
  };
  if (query_.partitions == SelectPlan::Partitions::kKeys) {
    while (next_key_ < query_.keys.size()) {
      partition_key_ = query_.keys[next_key_++];
      Result<PartitionRef> ref = PartitionRef::Make(*table, partition_key_);
      if (!ref.ok()) return Fail(ref.status());
      bool past_end = false;
      if (!in_token_range(ref->token(), &past_end)) continue;
      token_ = ref->token();
      Result<std::optional<RowFragment>> statics = view_.GetStaticRow(table, *ref);
      if (!statics.ok()) return Fail(statics.status());
      static_row_ = std::move(statics).value();
      return true;
    }
    return false;
  }
  if (query_.index) return NextIndexedPartition();
  if (!scan_started_) {
    scan_started_ = true;
    scan_ = view_.NewPartitionIterator(table);
  } else if (scan_->Valid()) {
    scan_->Next();
  }
  for (; scan_->Valid(); scan_->Next()) {
    bool past_end = false;
    if (!in_token_range(scan_->token(), &past_end)) {
      if (past_end) return false;
      continue;
    }
    token_ = scan_->token();
    Status decoded = scan_->DecodePartitionKey(&partition_key_);
    if (!decoded.ok()) return Fail(decoded);
    if (!scan_->static_row().cells.empty()) static_row_ = scan_->static_row();
    return true;
  }
  if (!scan_->status().ok()) return Fail(scan_->status());
  return false;
}

bool SelectRowReader::NextIndexedPartition() {
  const TableHandle& table = query_.table;
  if (!scan_started_) {
    scan_started_ = true;
    auto opened = IndexedPartitions::Open(view_, table, *query_.index, query_.index_bounds);
    if (!opened.ok() && IndexUnusable(opened.status())) {
      // Dropped or unbuilt since the query was planned: scan instead (the
      // filters give the same rows).
      query_.index.reset();
      scan_started_ = false;
      return NextPartition();
    }
    if (!opened.ok()) return Fail(opened.status());
    indexed_ = std::move(opened).value();
  }
  if (!indexed_->Next()) return indexed_->status().ok() ? false : Fail(indexed_->status());
  partition_key_ = indexed_->partition_key();
  Result<PartitionRef> ref = PartitionRef::Make(*table, partition_key_);
  if (!ref.ok()) return Fail(ref.status());
  token_ = ref->token();
  Result<std::optional<RowFragment>> statics = view_.GetStaticRow(table, *ref);
  if (!statics.ok()) return Fail(statics.status());
  static_row_ = std::move(statics).value();
  return true;
}

bool SelectRowReader::NextRowInPartition(SelectRow* row) {
  if (query_.per_partition_limit != 0 && partition_rows_ >= query_.per_partition_limit) {
    return false;
  }
  static const RowFragment kNoRow;
  static const std::vector<std::string> kNoClustering;
  if (query_.distinct) {
    // One row per live partition: its key and static columns.
    if (partition_rows_ > 0) return false;
    bool live = static_row_.has_value();
    if (!live) {
      Result<bool> found = view_.IsPartitionLive(query_.table, partition_key_);
      if (!found.ok()) return Fail(found.status());
      live = *found;
    }
    if (!live || !Keep(kNoClustering, &kNoRow)) return false;
    return Emit(kNoClustering, &kNoRow, row);
  }
  std::vector<std::string> clustering;
  while (true) {
    if (rows_ == nullptr) {
      if (slice_ == query_.slices.size()) {
        // Cassandra's row for a partition with live static cells and no
        // live row, when the query does not restrict the clustering.
        const bool static_only = !partition_had_row_ && static_row_.has_value() &&
                                 !query_.clustering_restricted &&
                                 query_.table->clustering_count() > 0;
        partition_had_row_ = true;  // at most once
        if (!static_only || !Keep(kNoClustering, &kNoRow)) return false;
        return Emit(kNoClustering, &kNoRow, row);
      }
      if (!OpenSlice()) return false;
    }
    for (; rows_->Valid(); rows_->Next()) {
      partition_had_row_ = true;
      Status decoded = rows_->DecodeClustering(&clustering);
      if (!decoded.ok()) return Fail(decoded);
      if (!Keep(clustering, &rows_->row())) continue;
      if (!Emit(clustering, &rows_->row(), row)) return false;
      rows_->Next();
      return true;
    }
    if (!rows_->status().ok()) return Fail(rows_->status());
    rows_.reset();
  }
}

bool SelectRowReader::OpenSlice() {
  Result<std::unique_ptr<RowIterator>> rows =
      view_.NewRowIterator(query_.table, partition_key_, query_.slices[slice_++]);
  if (!rows.ok()) return Fail(rows.status());
  rows_ = std::move(rows).value();
  return true;
}

// The value of column `index` in the current partition and row.
static std::optional<std::string_view> ValueOf(const TableSchema& table, size_t index,
                                               const std::vector<std::string>& partition_key,
                                               const std::vector<std::string>& clustering,
                                               const std::optional<RowFragment>& static_row,
                                               const RowFragment* row, const Cell** cell_out) {
  const ColumnDef& column = table.column(index);
  const auto position = static_cast<size_t>(column.position);
  *cell_out = nullptr;
  if (column.kind == ColumnKind::kPartitionKey) return partition_key[position];
  if (column.kind == ColumnKind::kClustering) {
    if (position < clustering.size()) return clustering[position];
    return std::nullopt;
  }
  const RowFragment* source =
      column.kind == ColumnKind::kStatic ? (static_row ? &*static_row : nullptr) : row;
  const RowCell* cell = source != nullptr ? source->FindCell(table.column_ids[index]) : nullptr;
  if (cell == nullptr || cell->cell.is_tombstone()) return std::nullopt;
  *cell_out = &cell->cell;
  return std::string_view(cell->cell.value);
}

bool SelectRowReader::Keep(const std::vector<std::string>& clustering,
                           const RowFragment* row) const {
  const TableSchema& table = *query_.table;
  for (const TypedFilter& filter : query_.filters) {
    std::vector<std::string_view> values;
    for (size_t column : filter.columns) {
      const Cell* cell = nullptr;
      auto value = ValueOf(table, column, partition_key_, clustering, static_row_, row, &cell);
      if (!value) return false;  // a null never matches
      values.push_back(*value);
    }
    if (filter.map_entry) {
      // The map holds the key, with the value.
      const CqlType& type = *table.column(filter.columns[0]).type;
      std::vector<std::string_view> items;
      if (!UnpackCollection(values[0], 2, &items).ok()) return false;
      bool found = false;
      for (size_t i = 0; i + 1 < items.size() && !found; i += 2) {
        found = CompareValues(*type.params()[0], items[i], filter.values[0]) == 0 &&
                CompareValues(*type.params()[1], items[i + 1], filter.values[1]) == 0;
      }
      if (!found) return false;
      continue;
    }
    if (filter.op == Op::kLike || filter.analyzer) {
      if (!TextFilterMatches(filter, values[0])) return false;
      continue;
    }
    if (filter.op == Op::kContains || filter.op == Op::kContainsKey) {
      const CqlType& type = *table.column(filter.columns[0]).type;
      const bool is_map = type.kind() == TypeKind::kMap;
      std::vector<std::string_view> items;
      if (!UnpackCollection(values[0], is_map ? 2 : 1, &items).ok()) return false;
      bool found = false;
      const size_t start = is_map && filter.op == Op::kContains ? 1 : 0;
      for (size_t i = start; i < items.size() && !found; i += is_map ? 2 : 1) {
        found = CompareValues(*filter.compared_type, items[i], filter.values[0]) == 0;
      }
      if (!found) return false;
      continue;
    }
    // Tuples compare column by column; an IN lists whole tuples.
    const size_t width = filter.columns.size();
    bool any = false;
    for (size_t offset = 0; offset + width <= filter.values.size() && !any; offset += width) {
      int order = 0;
      for (size_t i = 0; i < width && order == 0; ++i) {
        order = CompareValues(*table.column(filter.columns[i]).type, values[i],
                              filter.values[offset + i]);
      }
      any = OrderSatisfies(filter.op, order);
    }
    if (!any) return false;
  }
  return true;
}

Status SelectRowReader::Evaluate(const OutputColumn& output,
                                 const std::vector<std::string>& clustering, const RowFragment* row,
                                 std::optional<std::string>* out) const {
  using Source = OutputColumn::Source;
  out->reset();
  switch (output.source) {
    case Source::kToken:
      *out = BigEndianBytes(static_cast<uint64_t>(token_), 8);
      return Status::Ok();
    case Source::kConstant:
      *out = output.constant;
      return Status::Ok();
    case Source::kFunction: {
      std::vector<std::optional<std::string>> args(output.args.size());
      std::vector<TypePtr> types;
      for (size_t i = 0; i < output.args.size(); ++i) {
        CELLFS_RETURN_IF_ERROR(Evaluate(output.args[i], clustering, row, &args[i]));
        types.push_back(output.args[i].type);
      }
      return ApplyFunction(output.function, types, args, out);
    }
    case Source::kCount:
    case Source::kAggregate:
      return Status::Ok();  // never asked for (select_rows.h)
    case Source::kColumn:
    case Source::kWriteTime:
    case Source::kTtl:
      break;
  }
  const Cell* cell = nullptr;
  auto value =
      ValueOf(*query_.table, output.column, partition_key_, clustering, static_row_, row, &cell);
  if (!value) return Status::Ok();
  if (output.source == Source::kColumn) {
    *out = cell != nullptr && cell->is_counter() ? std::string(cell->value) : std::string(*value);
  } else if (output.source == Source::kWriteTime) {
    if (cell != nullptr) *out = BigEndianBytes(static_cast<uint64_t>(cell->write_time), 8);
  } else if (cell != nullptr && cell->is_expiring()) {
    const int64_t left =
        std::max<int64_t>(cell->local_deletion_time - FloorSeconds(view_.now()), 0);
    *out = BigEndianBytes(static_cast<uint64_t>(left), 4);
  }
  return Status::Ok();
}

bool SelectRowReader::Emit(const std::vector<std::string>& clustering, const RowFragment* row,
                           SelectRow* out) {
  out->assign(query_.outputs.size(), std::nullopt);
  for (size_t i = 0; i < query_.outputs.size(); ++i) {
    Status status = Evaluate(query_.outputs[i], clustering, row, &(*out)[i]);
    if (!status.ok()) return Fail(std::move(status));
  }
  return true;
}

}  // namespace cellfs::fs
