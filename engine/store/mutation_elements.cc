// Mutation's element operations on non-frozen collections and UDTs: add,
// prepend, remove, and single elements by key, field or list path, each a
// cell of its own (docs/FORMAT.md "Element cells").
#include <algorithm>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"
#include "engine/store/internal/element_cells.h"
#include "engine/store/internal/mutation_batch.h"
#include "engine/store/internal/mutation_steps.h"
#include "engine/store/mutation.h"

namespace cellfs {

using namespace mutation_steps;  // NOLINT(google-build-using-namespace): Mutation's own steps

namespace {

std::string_view KindName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kList:
      return "list";
    case TypeKind::kSet:
      return "set";
    case TypeKind::kMap:
      return "map";
    default:
      return "UDT";
  }
}

}  // namespace

Status Mutation::BeginElementWrite(const TableSchema& table,
                                   std::span<const std::string> partition_key, size_t column,
                                   std::optional<TypeKind> kind, std::string_view what) {
  CELLFS_RETURN_IF_ERROR(CheckDataColumn(table, column));
  const ColumnDef& def = table.column(column);
  if (!def.type->is_multi_cell()) {
    return Status::InvalidArgument("Invalid operation (" + std::string(what) + ") for " +
                                   (def.type->frozen() ? "frozen " : "non collection ") +
                                   "column " + def.name);
  }
  if (kind && def.type->kind() != *kind) {
    return Status::InvalidArgument("Invalid operation (" + std::string(what) + ") for non " +
                                   std::string(KindName(*kind)) + " column " + def.name);
  }
  CELLFS_RETURN_IF_ERROR(ResolvePartition(table, partition_key, &batch_->prefix));
  batch_->row.Reset();
  batch_->static_row.Reset();
  return Status::Ok();
}

void Mutation::PutElementCell(const TableSchema& table, size_t column, std::string path,
                              const std::optional<std::string>& value, int64_t timestamp,
                              uint32_t ttl) {
  const int64_t now_s = FloorSeconds(now_);
  RowCell& slot = AddCell(table, column, &batch_->row, &batch_->static_row);
  if (value) {
    SetCell(&slot, CellKind::kRegular, timestamp, ttl == 0 ? 0 : now_s + ttl, ttl, *value);
  } else {
    SetCell(&slot, CellKind::kTombstone, timestamp, now_s, 0, {});
  }
  slot.path = std::move(path);
}

Status Mutation::AddElementCells(const TableSchema& table, size_t column, std::string_view value,
                                 int64_t timestamp, uint32_t ttl, bool prepend) {
  const ColumnDef& def = table.column(column);
  Status valid = ValidateValue(*def.type, value);
  if (!valid.ok()) return valid.WithContext("column " + def.name);
  const int64_t list_time = prepend ? storage::PrependTime(write_time_) : write_time_;
  // The k-th prepend of this mutation sorts before the ones before it.
  int32_t nudge = 0;
  if (prepend) {
    if (prepends_ >= 512) {
      return Status::InvalidArgument("more than 512 list prepends in one batch");
    }
    nudge = -static_cast<int32_t>(prepends_++);
  }
  return AppendElementCells(table, column, value, timestamp, ttl, FloorSeconds(now_), list_time,
                            &list_order_, &batch_->row, &batch_->static_row, nudge);
}

Status Mutation::AddElements(const TableHandle& table, std::span<const std::string> partition_key,
                             std::span<const std::string> clustering, size_t column,
                             std::string_view value, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(BeginElementWrite(t, partition_key, column, std::nullopt, "add"));
  if (t.column(column).type->kind() == TypeKind::kUdt) {
    return Status::InvalidArgument("Invalid operation (add) for UDT column " +
                                   t.column(column).name + ": set its fields");
  }
  CELLFS_RETURN_IF_ERROR(
      AddElementCells(t, column, value, attributes.timestamp.value_or(write_time_), ttl, false));
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &batch_->row, &batch_->static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::PrependElements(const TableHandle& table,
                                 std::span<const std::string> partition_key,
                                 std::span<const std::string> clustering, size_t column,
                                 std::string_view value, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(BeginElementWrite(t, partition_key, column, TypeKind::kList, "prepend"));
  CELLFS_RETURN_IF_ERROR(
      AddElementCells(t, column, value, attributes.timestamp.value_or(write_time_), ttl, true));
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &batch_->row, &batch_->static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::RemoveElements(const TableHandle& table,
                                std::span<const std::string> partition_key,
                                std::span<const std::string> clustering, size_t column,
                                std::string_view value, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  CELLFS_RETURN_IF_ERROR(CheckTimestamp(attributes));
  CELLFS_RETURN_IF_ERROR(BeginElementWrite(t, partition_key, column, std::nullopt, "remove"));
  const ColumnDef& def = t.column(column);
  const TypeKind kind = def.type->kind();
  if (kind != TypeKind::kSet && kind != TypeKind::kMap) {
    return Status::InvalidArgument(
        "Invalid operation (remove) for " + std::string(KindName(kind)) + " column " + def.name +
        (kind == TypeKind::kList ? ": remove list elements by index" : ": set its fields to null"));
  }
  // The elements of a set, the keys of a map: a set<element or key type>.
  const TypePtr keys = CqlType::Set(def.type->params()[0], /*frozen=*/true);
  Status valid = ValidateValue(*keys, value);
  if (!valid.ok()) return valid.WithContext("column " + def.name);
  std::vector<std::string_view> items;
  CELLFS_RETURN_IF_ERROR(UnpackCollection(value, 1, &items));
  std::vector<std::string> paths;
  paths.reserve(items.size());
  for (std::string_view item : items) {
    paths.push_back(storage::KeyElementPath(*def.type->params()[0], item));
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  const int64_t timestamp = attributes.timestamp.value_or(write_time_);
  for (std::string& path : paths) {
    PutElementCell(t, column, std::move(path), std::nullopt, timestamp, 0);
  }
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &batch_->row, &batch_->static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::SetElement(const TableHandle& table, std::span<const std::string> partition_key,
                            std::span<const std::string> clustering, size_t column,
                            std::string_view key, const std::optional<std::string>& value,
                            const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(BeginElementWrite(t, partition_key, column, std::nullopt, "set element"));
  const ColumnDef& def = t.column(column);
  std::string path;
  const CqlType* value_type = nullptr;
  switch (def.type->kind()) {
    case TypeKind::kMap: {
      Status valid = ValidateValue(*def.type->params()[0], key);
      if (!valid.ok()) return valid.WithContext("key of column " + def.name);
      path = storage::KeyElementPath(*def.type->params()[0], key);
      value_type = def.type->params()[1].get();
      break;
    }
    case TypeKind::kUdt: {
      const auto& names = def.type->field_names();
      auto field = std::find(names.begin(), names.end(), key);
      if (field == names.end()) {
        return Status::InvalidArgument("Unknown field " + std::string(key) + " in column " +
                                       def.name + " of type " + def.type->ToCql());
      }
      const auto index = static_cast<size_t>(field - names.begin());
      path = storage::FieldPath(index);
      value_type = def.type->params()[index].get();
      break;
    }
    default:
      return Status::InvalidArgument(
          "Invalid operation (set element) for " + std::string(KindName(def.type->kind())) +
          " column " + def.name +
          (def.type->kind() == TypeKind::kList ? ": set list elements by index"
                                               : ": add or remove elements"));
  }
  if (value) {
    Status valid = ValidateValue(*value_type, *value);
    if (!valid.ok()) return valid.WithContext("column " + def.name);
  }
  PutElementCell(t, column, std::move(path), value, attributes.timestamp.value_or(write_time_),
                 ttl);
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &batch_->row, &batch_->static_row));
  return FinishCellWrite(t, clustering);
}

Status Mutation::SetElementAt(const TableHandle& table, std::span<const std::string> partition_key,
                              std::span<const std::string> clustering, size_t column,
                              std::string_view path, const std::optional<std::string>& value,
                              const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  uint32_t ttl = 0;
  CELLFS_RETURN_IF_ERROR(ResolveTtl(t, attributes, &ttl));
  CELLFS_RETURN_IF_ERROR(
      BeginElementWrite(t, partition_key, column, TypeKind::kList, "set element by index"));
  const ColumnDef& def = t.column(column);
  if (path.size() != 16) {
    return Status::InvalidArgument("list element path of column " + def.name + " is not 16 bytes");
  }
  if (value) {
    Status valid = ValidateValue(*def.type->params()[0], *value);
    if (!valid.ok()) return valid.WithContext("column " + def.name);
  }
  PutElementCell(t, column, std::string(path), value, attributes.timestamp.value_or(write_time_),
                 ttl);
  CELLFS_RETURN_IF_ERROR(FinishCells(t, &batch_->row, &batch_->static_row));
  return FinishCellWrite(t, clustering);
}

}  // namespace cellfs
