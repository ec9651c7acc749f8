// DESCRIBE text for keyspaces, types and tables, in one canonical layout.
#include "engine/cql/describe.h"

#include "engine/cql/cql_identifier.h"
#include "engine/cql/internal/schema_options.h"

namespace cellfs {
namespace {

std::string Qualified(const std::string& keyspace, const std::string& name) {
  return QuoteIdentifier(keyspace) + "." + QuoteIdentifier(name);
}

std::string JoinNames(const std::vector<const ColumnDef*>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteIdentifier(columns[i]->name);
  }
  return out;
}

std::string PrimaryKeyClause(const TableDef& table) {
  std::vector<const ColumnDef*> partition;
  std::vector<const ColumnDef*> clustering;
  for (const auto& c : table.columns) {
    if (c.kind == ColumnKind::kPartitionKey) partition.push_back(&c);
    if (c.kind == ColumnKind::kClustering) clustering.push_back(&c);
  }
  std::string out = "PRIMARY KEY (";
  out += partition.size() == 1 ? JoinNames(partition) : "(" + JoinNames(partition) + ")";
  if (!clustering.empty()) out += ", " + JoinNames(clustering);
  return out + ")";
}

std::string ClusteringOrderClause(const TableDef& table) {
  std::string out;
  for (const auto& c : table.columns) {
    if (c.kind != ColumnKind::kClustering) continue;
    out += out.empty() ? "CLUSTERING ORDER BY (" : ", ";
    out += QuoteIdentifier(c.name) + (c.order == SortOrder::kDesc ? " DESC" : " ASC");
  }
  return out.empty() ? out : out + ")";
}

// Cassandra's IndexMetadata CQL: the plain form, or CUSTOM with its class
// and options.
std::string DescribeIndex(const TableDef& table, const IndexDef& index) {
  std::string out = index.custom_class.empty() ? "CREATE INDEX " : "CREATE CUSTOM INDEX ";
  out += QuoteIdentifier(index.name) + " ON " + Qualified(table.keyspace, table.name) + " (" +
         IndexTargetText(index) + ")";
  if (!index.custom_class.empty()) {
    out += " USING " + QuoteString(index.custom_class);
    if (!index.options.empty()) out += " WITH OPTIONS = " + StringMapText(index.options);
  }
  return out + ";\n";
}

}  // namespace

std::string DescribeKeyspaceStatement(const KeyspaceDef& keyspace) {
  std::vector<std::pair<std::string, std::string>> replication(keyspace.replication.begin(),
                                                               keyspace.replication.end());
  return "CREATE KEYSPACE " + QuoteIdentifier(keyspace.name) +
         " WITH replication = " + StringMapText(replication) +
         " AND durable_writes = " + (keyspace.durable_writes ? "true" : "false") + ";\n";
}

std::string DescribeType(const UserTypeDef& type) {
  std::string out = "CREATE TYPE " + Qualified(type.keyspace, type.name) + " (\n";
  for (size_t i = 0; i < type.field_names.size(); ++i) {
    out += "    " + QuoteIdentifier(type.field_names[i]) + " " + type.field_types[i]->ToCql();
    out += i + 1 < type.field_names.size() ? ",\n" : "\n";
  }
  return out + ");\n";
}

std::string DescribeTable(const TableDef& table) {
  if (table.view) return DescribeView(table);
  std::string out = "CREATE TABLE " + Qualified(table.keyspace, table.name) + " (\n";
  for (const auto& c : table.columns) {
    out += "    " + QuoteIdentifier(c.name) + " " + c.type->ToCql();
    if (c.kind == ColumnKind::kStatic) out += " static";
    out += ",\n";
  }
  out += "    " + PrimaryKeyClause(table) + "\n) WITH ";
  std::string order = ClusteringOrderClause(table);
  if (!order.empty()) out += order + "\n    AND ";
  out += "default_time_to_live = " + std::to_string(table.options.default_time_to_live);
  out += "\n    AND gc_grace_seconds = " + std::to_string(table.options.gc_grace_seconds);
  for (const auto& [name, text] : table.options.other) out += "\n    AND " + name + " = " + text;
  out += ";\n";
  for (const IndexDef& index : table.indexes) out += "\n" + DescribeIndex(table, index);
  return out;
}

// Cassandra's ViewMetadata CQL: the statement indented under AS, and the
// options after " WITH " at the start of a line (no default_time_to_live,
// which a view never has).
std::string DescribeView(const TableDef& view) {
  std::string out =
      "CREATE MATERIALIZED VIEW " + Qualified(view.keyspace, view.name) + " AS\n    SELECT ";
  if (view.view->select_all) {
    out += "*";
  } else {
    for (size_t i = 0; i < view.columns.size(); ++i) {
      out += (i > 0 ? ", " : "") + QuoteIdentifier(view.columns[i].name);
    }
  }
  out += "\n    FROM " + Qualified(view.keyspace, view.view->base_table);
  out += "\n    WHERE " + view.view->where_text;
  out += "\n    " + PrimaryKeyClause(view) + "\n WITH ";
  std::string order = ClusteringOrderClause(view);
  if (!order.empty()) out += order + "\n    AND ";
  out += "gc_grace_seconds = " + std::to_string(view.options.gc_grace_seconds);
  for (const auto& [name, text] : view.options.other) out += "\n    AND " + name + " = " + text;
  return out + ";\n";
}

std::string DescribeTableAndViews(const KeyspaceDef& keyspace, const TableDef& table) {
  std::string out = DescribeTable(table);
  for (const auto& [name, view] : keyspace.tables) {
    if (view.view && view.view->base_table == table.name) out += "\n" + DescribeView(view);
  }
  return out;
}

std::string DescribeKeyspace(const KeyspaceDef& keyspace) {
  std::string out = DescribeKeyspaceStatement(keyspace);
  for (const auto& name : keyspace.type_order) out += "\n" + DescribeType(keyspace.types.at(name));
  for (const auto& [name, table] : keyspace.tables) {
    if (!table.view) out += "\n" + DescribeTableAndViews(keyspace, table);
  }
  for (const auto& [key, routine] : keyspace.routines) out += "\n" + routine.text + ";\n";
  return out;
}

}  // namespace cellfs
