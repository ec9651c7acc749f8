// DmlWriter's INSERT (VALUES) and UPDATE: values typed per column, the
// key checked, and each assignment turned into its engine operation.
#include "fs/cql/dml_writer.h"

#include <algorithm>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/store/partition_ref.h"

namespace cellfs::fs {
namespace {

// A counter's serialized value (8 bytes, big-endian) as a signed delta.
int64_t CounterDelta(const std::string& value) {
  uint64_t bits = 0;
  for (char byte : value) bits = (bits << 8) | static_cast<uint8_t>(byte);
  return static_cast<int64_t>(bits);
}

// How Cassandra shows an operation in "Invalid operation (...)".
std::string OperationText(const Assignment& a) {
  std::string target = a.target.name;
  if (a.target.index) target += "[" + a.target.index->text + "]";
  if (!a.target.field.empty()) target += "." + a.target.field;
  switch (a.kind) {
    case Assignment::Kind::kSet:
      return target + " = " + a.value.text;
    case Assignment::Kind::kAdd:
      return target + " = " + target + " + " + a.value.text;
    case Assignment::Kind::kSubtract:
      return target + " = " + target + " - " + a.value.text;
    case Assignment::Kind::kPrepend:
      return target + " = " + a.value.text + " + " + target;
  }
  return target;
}

}  // namespace

Status DmlWriter::Insert(const TableHandle& table, const InsertStatement& statement,
                         const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  const size_t pk_count = t.partition_key_count();
  const size_t ck_count = t.clustering_count();
  if (statement.json) return InsertJson(table, statement, attributes);
  if (statement.columns.size() != statement.values.size()) {
    return ErrorAt(statement.table_position, "Unmatched column names/values");
  }
  std::vector<std::optional<std::string>> keys(pk_count + ck_count);
  std::vector<bool> given(t.def.columns.size(), false);
  std::vector<ColumnValue> cells;
  bool regular = false;
  for (size_t i = 0; i < statement.columns.size(); ++i) {
    size_t index = 0;
    CELLFS_RETURN_IF_ERROR(
        FindColumnIndex(t, statement.columns[i], statement.column_positions[i], &index));
    if (given[index]) {
      return ErrorAt(statement.column_positions[i], "The column names contains duplicates");
    }
    given[index] = true;
    const ColumnDef& def = t.column(index);
    std::string value;
    bool is_null = false;
    CELLFS_RETURN_IF_ERROR(
        ParseValueTerm(*def.type, statement.values[i], def.name, &value, &is_null));
    if (def.is_primary_key()) {
      if (is_null) {
        return ErrorAt(statement.values[i].position,
                       std::string("Invalid null value for ") +
                           (def.kind == ColumnKind::kPartitionKey ? "partition" : "clustering") +
                           " key part " + QuoteIdentifier(def.name));
      }
      keys[index] = std::move(value);
      continue;
    }
    regular = regular || def.kind == ColumnKind::kRegular;
    cells.push_back({index, is_null ? std::nullopt : std::optional<std::string>(std::move(value))});
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < pk_count; ++i) {
    if (!keys[i]) missing.push_back(QuoteIdentifier(t.column(i).name));
  }
  std::string joined;
  for (const std::string& name : missing) joined += (joined.empty() ? "" : ", ") + name;
  if (!missing.empty()) {
    return ErrorAt(statement.table_position, "Some partition key parts are missing: " + joined);
  }
  bool any_clustering = false;
  for (size_t i = pk_count; i < pk_count + ck_count; ++i) {
    if (keys[i]) any_clustering = true;
    if (!keys[i]) missing.push_back(QuoteIdentifier(t.column(i).name));
  }
  Key key;
  for (size_t i = 0; i < pk_count; ++i) key.partition.push_back(std::move(*keys[i]));
  // The partition key and static columns only: the static row alone.
  const bool static_only = ck_count > 0 && !any_clustering && !regular && !cells.empty();
  if (!static_only && !missing.empty()) {
    joined.clear();
    for (const std::string& name : missing) joined += (joined.empty() ? "" : ", ") + name;
    return ErrorAt(statement.table_position, "Some clustering keys are missing: " + joined);
  }
  if (!static_only) {
    for (size_t i = pk_count; i < pk_count + ck_count; ++i) {
      key.clustering.push_back(std::move(*keys[i]));
    }
  }
  Status s = static_only
                 ? mutation_->Update(table, key.partition, {}, cells, attributes)
                 : mutation_->Insert(table, key.partition, key.clustering, cells, attributes);
  if (!s.ok()) return ErrorAt(statement.table_position, s.message());
  std::vector<size_t> columns;
  for (const ColumnValue& cell : cells) columns.push_back(cell.column);
  return Touch(table, DmlTouched::Scope::kCells, key, std::move(columns), statement.table_position);
}

Status DmlWriter::Update(const TableHandle& table, const UpdateStatement& statement,
                         const WriteAttributes& attributes) {
  std::vector<Key> keys;
  CELLFS_RETURN_IF_ERROR(ParseKeys(table, statement.where, statement.where_position, false, &keys));
  for (const Key& key : keys) CELLFS_RETURN_IF_ERROR(UpdateKey(table, statement, key, attributes));
  return Status::Ok();
}

Status DmlWriter::UpdateKey(const TableHandle& table, const UpdateStatement& statement,
                            const Key& key, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  bool all_static = true;
  std::vector<size_t> columns;
  for (const Assignment& assignment : statement.assignments) {
    size_t index = 0;
    CELLFS_RETURN_IF_ERROR(
        FindColumnIndex(t, assignment.target.name, assignment.target.position, &index));
    const ColumnDef& def = t.column(index);
    if (def.is_primary_key()) {
      return ErrorAt(assignment.target.position,
                     "PRIMARY KEY part " + QuoteIdentifier(def.name) + " found in SET part");
    }
    all_static = all_static && def.kind == ColumnKind::kStatic;
    columns.push_back(index);
  }
  if (all_static && t.clustering_count() > 0 && !key.clustering.empty()) {
    return ErrorAt(statement.where_position,
                   "Invalid restrictions on clustering columns since the UPDATE statement "
                   "modifies only static columns");
  }
  if (!all_static) {
    CELLFS_RETURN_IF_ERROR(RequireClustering(table, key, statement.where_position));
  }
  if (t.def.has_counters()) {
    if (attributes.ttl) {
      return ErrorAt(statement.using_clause.ttl_position,
                     "Cannot provide custom TTL for counter updates");
    }
    if (attributes.timestamp) {
      return ErrorAt(statement.using_clause.timestamp_position,
                     "Cannot provide custom timestamp for counter updates");
    }
  }
  // Plain `c = v` assignments go in one UPDATE; the others one by one.
  std::vector<ColumnValue> cells;
  for (size_t i = 0; i < statement.assignments.size(); ++i) {
    const Assignment& a = statement.assignments[i];
    const ColumnDef& def = t.column(columns[i]);
    const bool whole = !a.target.index && a.target.field.empty();
    if (a.kind == Assignment::Kind::kSet && whole && def.type->kind() != TypeKind::kCounter) {
      std::string value;
      bool is_null = false;
      CELLFS_RETURN_IF_ERROR(ParseValueTerm(*def.type, a.value, def.name, &value, &is_null));
      cells.push_back(
          {columns[i], is_null ? std::nullopt : std::optional<std::string>(std::move(value))});
      continue;
    }
    CELLFS_RETURN_IF_ERROR(Assign(table, key, a, attributes));
  }
  if (!cells.empty()) {
    Status s = mutation_->Update(table, key.partition, key.clustering, cells, attributes);
    if (!s.ok()) return ErrorAt(statement.table_position, s.message());
  }
  return Touch(table, DmlTouched::Scope::kCells, key, std::move(columns), statement.table_position);
}

Status DmlWriter::Assign(const TableHandle& table, const Key& key, const Assignment& a,
                         const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  size_t column = 0;
  CELLFS_RETURN_IF_ERROR(FindColumnIndex(t, a.target.name, a.target.position, &column));
  const ColumnDef& def = t.column(column);
  const CqlType& type = *def.type;
  const std::string name = QuoteIdentifier(def.name);
  const SourcePosition& at = a.target.position;
  auto invalid = [&](std::string_view what) {
    return ErrorAt(
        at, "Invalid operation (" + OperationText(a) + ") for " + std::string(what) + " " + name);
  };
  std::string value;
  bool is_null = false;
  Status s;
  const std::span<const std::string> pk = key.partition;
  const std::span<const std::string> ck = key.clustering;
  if (a.target.index) {  // l[i] = v, m[k] = v
    if (type.kind() != TypeKind::kList && type.kind() != TypeKind::kMap) {
      return invalid("non collection column");
    }
    if (!type.is_multi_cell()) return invalid("frozen collection column");
    if (type.kind() == TypeKind::kMap) {
      std::string map_key;
      bool key_null = false;
      CELLFS_RETURN_IF_ERROR(
          ParseValueTerm(*type.params()[0], *a.target.index, def.name, &map_key, &key_null));
      if (key_null) return ErrorAt(a.target.index->position, "Invalid null map key");
      CELLFS_RETURN_IF_ERROR(
          ParseValueTerm(*type.params()[1], a.value, def.name, &value, &is_null));
      s = mutation_->SetElement(table, pk, ck, column, map_key,
                                is_null ? std::nullopt : std::optional<std::string>(value),
                                attributes);
    } else {
      CELLFS_RETURN_IF_ERROR(
          ParseValueTerm(*type.params()[0], a.value, def.name, &value, &is_null));
      std::string path;
      CELLFS_RETURN_IF_ERROR(ListIndexPath(table, key, column, *a.target.index, &path));
      s = mutation_->SetElementAt(table, pk, ck, column, path,
                                  is_null ? std::nullopt : std::optional<std::string>(value),
                                  attributes);
    }
  } else if (!a.target.field.empty()) {  // u.f = v
    if (type.kind() != TypeKind::kUdt) return invalid("non-UDT column");
    if (!type.is_multi_cell()) return invalid("frozen UDT column");
    const auto& names = type.field_names();
    auto found = std::find(names.begin(), names.end(), a.target.field);
    if (found == names.end()) {
      return ErrorAt(at, "UDT column " + name + " does not have a field named " +
                             QuoteIdentifier(a.target.field));
    }
    const CqlType& field_type = *type.params()[static_cast<size_t>(found - names.begin())];
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(field_type, a.value, def.name, &value, &is_null));
    s = mutation_->SetElement(table, pk, ck, column, a.target.field,
                              is_null ? std::nullopt : std::optional<std::string>(value),
                              attributes);
  } else if (type.kind() == TypeKind::kCounter) {
    if (a.kind == Assignment::Kind::kSet || a.kind == Assignment::Kind::kPrepend) {
      return ErrorAt(at, "Cannot set the value of counter column " + name +
                             " (counters can only be incremented/decremented, not set)");
    }
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(type, a.value, def.name, &value, &is_null));
    if (is_null) return ErrorAt(a.value.position, "Invalid null value for counter increment");
    int64_t delta = CounterDelta(value);
    if (a.kind == Assignment::Kind::kSubtract) {
      if (delta == INT64_MIN) {
        return ErrorAt(a.value.position, "The negation of " + a.value.text + " overflows");
      }
      delta = -delta;
    }
    s = mutation_->AddToCounter(table, pk, ck, column, delta, attributes);
  } else {
    const bool collection = type.is_collection() && type.is_multi_cell();
    if (a.kind == Assignment::Kind::kPrepend && type.kind() != TypeKind::kList) {
      return invalid("non list column");
    }
    if (!collection) return invalid("non counter column");
    const TypeKind kind = type.kind();
    if (a.kind == Assignment::Kind::kSubtract && kind == TypeKind::kMap) {
      // m = m - {k, ...}: a set of keys.
      const TypePtr keys = CqlType::Set(type.params()[0], false);
      CELLFS_RETURN_IF_ERROR(ParseValueTerm(*keys, a.value, def.name, &value, &is_null));
    } else {
      CELLFS_RETURN_IF_ERROR(ParseValueTerm(type, a.value, def.name, &value, &is_null));
    }
    if (is_null) return Status::Ok();  // adding or removing nothing
    if (a.kind == Assignment::Kind::kAdd) {
      s = mutation_->AddElements(table, pk, ck, column, value, attributes);
    } else if (a.kind == Assignment::Kind::kPrepend) {
      s = mutation_->PrependElements(table, pk, ck, column, value, attributes);
    } else if (kind != TypeKind::kList) {
      s = mutation_->RemoveElements(table, pk, ck, column, value, attributes);
    } else {  // l = l - [...]: every element equal to one given, found by a read
      std::vector<std::string_view> removed;
      CELLFS_RETURN_IF_ERROR(UnpackCollection(value, 1, &removed));
      auto elements = ListElements(table, key, column);
      if (!elements.ok()) return ErrorAt(at, elements.status().message());
      for (const RowCell& element : elements.value()) {
        if (std::find(removed.begin(), removed.end(), element.cell.value) == removed.end()) {
          continue;
        }
        s = mutation_->SetElementAt(table, pk, ck, column, element.path, std::nullopt, attributes);
        if (!s.ok()) break;
      }
    }
  }
  if (!s.ok()) return ErrorAt(at, s.message());
  return Status::Ok();
}

Status DmlWriter::DeleteElement(const TableHandle& table, const Key& key, const ColumnRef& ref,
                                size_t column, const WriteAttributes& attributes) {
  const ColumnDef& def = table->column(column);
  const CqlType& type = *def.type;
  const std::string name = QuoteIdentifier(def.name);
  Status s;
  if (ref.index) {
    if (type.kind() != TypeKind::kList && type.kind() != TypeKind::kMap) {
      return ErrorAt(ref.position, "Invalid operation (" + ref.name + "[" + ref.index->text +
                                       "]) for non collection column " + name);
    }
    if (!type.is_multi_cell()) {
      return ErrorAt(ref.position, "Invalid operation (" + ref.name + "[" + ref.index->text +
                                       "]) for frozen collection column " + name);
    }
    if (type.kind() == TypeKind::kMap) {
      std::string map_key;
      bool is_null = false;
      CELLFS_RETURN_IF_ERROR(
          ParseValueTerm(*type.params()[0], *ref.index, def.name, &map_key, &is_null));
      if (is_null) return ErrorAt(ref.index->position, "Invalid null map key");
      s = mutation_->SetElement(table, key.partition, key.clustering, column, map_key, std::nullopt,
                                attributes);
    } else {
      std::string path;
      CELLFS_RETURN_IF_ERROR(ListIndexPath(table, key, column, *ref.index, &path));
      s = mutation_->SetElementAt(table, key.partition, key.clustering, column, path, std::nullopt,
                                  attributes);
    }
  } else {
    if (type.kind() != TypeKind::kUdt || !type.is_multi_cell()) {
      return ErrorAt(ref.position, "Invalid deletion operation for non-UDT column " + name);
    }
    const auto& names = type.field_names();
    if (std::find(names.begin(), names.end(), ref.field) == names.end()) {
      return ErrorAt(ref.position, "UDT column " + name + " does not have a field named " +
                                       QuoteIdentifier(ref.field));
    }
    s = mutation_->SetElement(table, key.partition, key.clustering, column, ref.field, std::nullopt,
                              attributes);
  }
  if (!s.ok()) return ErrorAt(ref.position, s.message());
  return Status::Ok();
}

Result<std::vector<RowCell>> DmlWriter::ListElements(const TableHandle& table, const Key& key,
                                                     size_t column) {
  Result<PartitionRef> partition = PartitionRef::Make(*table, key.partition);
  if (!partition.ok()) return partition.status();
  return engine_->NewReadView().GetElements(table, partition.value(), key.clustering,
                                            table->column_ids[column]);
}

Status DmlWriter::ListIndexPath(const TableHandle& table, const Key& key, size_t column,
                                const CqlTerm& index, std::string* path) {
  std::string bytes;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseValueTerm(*CqlType::Native(TypeKind::kInt), index,
                                        table->column(column).name, &bytes, &is_null));
  if (is_null) return ErrorAt(index.position, "Invalid null value for list index");
  const int32_t at = static_cast<int32_t>(CounterDelta(bytes));
  auto elements = ListElements(table, key, column);
  if (!elements.ok()) return ErrorAt(index.position, elements.status().message());
  const size_t size = elements.value().size();
  if (at < 0 || static_cast<size_t>(at) >= size) {
    return ErrorAt(index.position, "List index " + std::to_string(at) +
                                       " out of bound, list has size " + std::to_string(size));
  }
  *path = std::move(elements.value()[static_cast<size_t>(at)].path);
  return Status::Ok();
}

}  // namespace cellfs::fs
