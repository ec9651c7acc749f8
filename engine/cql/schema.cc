// Schema model helpers: key counts, column lookup and structural equality.
#include "engine/cql/schema.h"

#include <algorithm>

#include "engine/cql/cql_identifier.h"

namespace cellfs {
namespace {

size_t CountKind(const TableDef& table, ColumnKind kind) {
  return static_cast<size_t>(std::count_if(table.columns.begin(), table.columns.end(),
                                           [kind](const ColumnDef& c) { return c.kind == kind; }));
}

bool SameTypes(const std::vector<TypePtr>& a, const std::vector<TypePtr>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const TypePtr& x, const TypePtr& y) { return x->Equals(*y); });
}

}  // namespace

size_t TableDef::partition_key_count() const { return CountKind(*this, ColumnKind::kPartitionKey); }

size_t TableDef::clustering_count() const { return CountKind(*this, ColumnKind::kClustering); }

bool TableDef::has_counters() const {
  return std::any_of(columns.begin(), columns.end(),
                     [](const ColumnDef& c) { return c.type->kind() == TypeKind::kCounter; });
}

const ColumnDef* TableDef::FindColumn(const std::string& column_name) const {
  for (const auto& c : columns) {
    if (c.name == column_name) return &c;
  }
  return nullptr;
}

const IndexDef* TableDef::FindIndex(const std::string& index_name) const {
  for (const auto& index : indexes) {
    if (index.name == index_name) return &index;
  }
  return nullptr;
}

std::string IndexTargetText(const IndexDef& index) {
  std::string column = QuoteIdentifier(index.column);
  switch (index.target) {
    case IndexTargetKind::kSimple:
      return column;
    case IndexTargetKind::kKeys:
      return "keys(" + column + ")";
    case IndexTargetKind::kValues:
      return "values(" + column + ")";
    case IndexTargetKind::kEntries:
      return "entries(" + column + ")";
    case IndexTargetKind::kFull:
      return "full(" + column + ")";
  }
  return column;
}

TypePtr UserTypeDef::AsType(bool frozen) const {
  return CqlType::Udt(keyspace, name, field_names, field_types, frozen);
}

bool SameTable(const TableDef& a, const TableDef& b) {
  if (a.keyspace != b.keyspace || a.name != b.name || !(a.options == b.options) ||
      a.indexes != b.indexes || a.view != b.view) {
    return false;
  }
  return std::equal(a.columns.begin(), a.columns.end(), b.columns.begin(), b.columns.end(),
                    [](const ColumnDef& x, const ColumnDef& y) {
                      return x.name == y.name && x.kind == y.kind && x.position == y.position &&
                             x.order == y.order && x.type->Equals(*y.type);
                    });
}

bool SameKeyspace(const KeyspaceDef& a, const KeyspaceDef& b) {
  if (a.name != b.name || a.replication != b.replication || a.durable_writes != b.durable_writes ||
      a.routines != b.routines || a.type_order != b.type_order) {
    return false;
  }
  if (a.types.size() != b.types.size() || a.tables.size() != b.tables.size()) return false;
  for (const auto& [name, type] : a.types) {
    auto it = b.types.find(name);
    if (it == b.types.end() || type.field_names != it->second.field_names ||
        !SameTypes(type.field_types, it->second.field_types)) {
      return false;
    }
  }
  for (const auto& [name, table] : a.tables) {
    auto it = b.tables.find(name);
    if (it == b.tables.end() || !SameTable(table, it->second)) return false;
  }
  return true;
}

}  // namespace cellfs
