// CREATE TABLE / ALTER TABLE semantics: key layout, column rules, options.
#include "engine/cql/internal/table_builder.h"

#include <algorithm>
#include <set>

#include "engine/cql/internal/index_schema.h"
#include "engine/cql/internal/schema_options.h"
#include "engine/cql/internal/type_resolver.h"
#include "engine/cql/internal/view_schema.h"

namespace cellfs {
namespace {

Status Invalid(const SourcePosition& position, const std::string& message) {
  return Status::InvalidArgument(AtPosition(position, message));
}

// Partition key, then clustering, then static and regular columns by name.
void SortColumns(std::vector<ColumnDef>* columns) {
  std::stable_sort(columns->begin(), columns->end(), [](const ColumnDef& a, const ColumnDef& b) {
    auto rank = [](const ColumnDef& c) {
      return c.kind == ColumnKind::kPartitionKey ? 0 : c.kind == ColumnKind::kClustering ? 1 : 2;
    };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    if (rank(a) < 2) return a.position < b.position;
    return a.name < b.name;
  });
}

// Counter tables hold only counters outside the key; a TTL makes no sense there.
Status CheckCounterRules(const TableDef& table, const SourcePosition& position) {
  bool counters = false;
  bool others = false;
  for (const auto& c : table.columns) {
    if (c.is_primary_key()) continue;
    (c.type->kind() == TypeKind::kCounter ? counters : others) = true;
  }
  if (counters && others) {
    return Invalid(position, "cannot mix counter and non-counter columns in the same table " +
                                 table.keyspace + "." + table.name);
  }
  if (counters && table.options.default_time_to_live != 0) {
    return Invalid(position, "cannot set default_time_to_live on table " + table.keyspace + "." +
                                 table.name + " because it has counter columns");
  }
  return Status::Ok();
}

Status CheckStatic(const ColumnExpr& column, const TableDef& table) {
  if (!column.is_static) return Status::Ok();
  if (table.clustering_count() == 0) {
    return Invalid(column.position,
                   "static column " + column.name +
                       " is not allowed: static columns are only useful (and thus allowed) "
                       "if the table has at least one clustering column");
  }
  return Status::Ok();
}

// Assigns key kinds and positions from the PRIMARY KEY clause or inline key.
Status AssignPrimaryKey(const CreateTable& statement, std::vector<ColumnDef>* columns) {
  std::vector<std::string> partition = statement.partition_key;
  std::vector<std::string> clustering = statement.clustering;
  SourcePosition position = statement.primary_key_position;
  int inline_keys = 0;
  for (const auto& c : statement.columns) {
    if (!c.inline_primary_key) continue;
    ++inline_keys;
    partition = {c.name};
    clustering.clear();
    position = c.position;
  }
  const int declared = inline_keys + (statement.has_primary_key_clause ? 1 : 0);
  if (declared == 0) {
    return Invalid(statement.table.position, "no PRIMARY KEY specified for table " +
                                                 statement.table.name + " (exactly one required)");
  }
  if (declared > 1) {
    return Invalid(position, "multiple PRIMARY KEYs specified for table " + statement.table.name +
                                 " (exactly one required)");
  }
  std::set<std::string> seen;
  auto assign = [&](const std::vector<std::string>& names, ColumnKind kind) -> Status {
    for (size_t i = 0; i < names.size(); ++i) {
      auto it = std::find_if(columns->begin(), columns->end(),
                             [&](const ColumnDef& c) { return c.name == names[i]; });
      if (it == columns->end()) {
        return Invalid(position, "unknown column " + names[i] + " referenced in PRIMARY KEY");
      }
      if (!seen.insert(names[i]).second) {
        return Invalid(position, "column " + names[i] + " appears more than once in PRIMARY KEY");
      }
      it->kind = kind;
      it->position = static_cast<int>(i);
    }
    return Status::Ok();
  };
  CELLFS_RETURN_IF_ERROR(assign(partition, ColumnKind::kPartitionKey));
  return assign(clustering, ColumnKind::kClustering);
}

Status ApplyClusteringOrder(const CreateTable& statement, TableDef* table) {
  const auto& order = statement.clustering_order;
  std::vector<ColumnDef*> clustering;
  for (auto& c : table->columns) {
    if (c.kind == ColumnKind::kClustering) clustering.push_back(&c);
  }
  // Columns are still in declaration order here; the directive follows key order.
  std::sort(clustering.begin(), clustering.end(),
            [](const ColumnDef* a, const ColumnDef* b) { return a->position < b->position; });
  for (size_t i = 0; i < order.size(); ++i) {
    const ColumnDef* named = table->FindColumn(order[i].column);
    if (named == nullptr || named->kind != ColumnKind::kClustering) {
      return Invalid(order[i].position,
                     "only clustering columns can be named in CLUSTERING ORDER "
                     "BY, and " +
                         order[i].column + " is not one");
    }
    if (i >= clustering.size() || clustering[i]->name != order[i].column) {
      return Invalid(order[i].position,
                     "CLUSTERING ORDER BY must list the clustering columns in their key order");
    }
    clustering[i]->order = order[i].descending ? SortOrder::kDesc : SortOrder::kAsc;
  }
  return Status::Ok();
}

Result<ColumnDef> ResolveColumn(const ColumnExpr& expr, const KeyspaceDef& keyspace) {
  auto type = ResolveType(expr.type, keyspace);
  if (!type.ok()) return type.status();
  ColumnDef column;
  column.name = expr.name;
  column.type = std::move(type).value();
  column.kind = expr.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
  return column;
}

Status CheckKeyColumns(const TableDef& table, const std::vector<ColumnExpr>& exprs) {
  for (const auto& expr : exprs) {
    const ColumnDef* c = table.FindColumn(expr.name);
    if (!c->is_primary_key()) continue;
    if (expr.is_static) {
      return Invalid(expr.position,
                     "static column " + c->name + " cannot be part of the PRIMARY KEY");
    }
    Status key_capable = c->type->CheckKeyCapable();
    if (!key_capable.ok()) {
      return Invalid(expr.position,
                     "invalid PRIMARY KEY column " + c->name + ": " + key_capable.message());
    }
  }
  return Status::Ok();
}

Result<TableDef> AddColumns(const AlterTable& statement, const KeyspaceDef& keyspace,
                            TableDef table) {
  for (const auto& expr : statement.added) {
    if (table.FindColumn(expr.name) != nullptr) {
      if (statement.if_column_not_exists) continue;
      return Invalid(expr.position, "column " + expr.name + " already exists in table " +
                                        table.keyspace + "." + table.name);
    }
    CELLFS_RETURN_IF_ERROR(CheckStatic(expr, table));
    auto column = ResolveColumn(expr, keyspace);
    if (!column.ok()) return column.status();
    table.columns.push_back(std::move(column).value());
  }
  SortColumns(&table.columns);
  CELLFS_RETURN_IF_ERROR(CheckCounterRules(table, statement.action_position));
  return table;
}

Result<TableDef> DropColumns(const AlterTable& statement, const KeyspaceDef& keyspace,
                             TableDef table) {
  for (const auto& name : statement.dropped) {
    auto it = std::find_if(table.columns.begin(), table.columns.end(),
                           [&](const ColumnDef& c) { return c.name == name; });
    if (it == table.columns.end()) {
      if (statement.if_column_exists) continue;
      return Invalid(statement.action_position, "column " + name + " was not found in table " +
                                                    table.keyspace + "." + table.name);
    }
    if (it->is_primary_key()) {
      return Invalid(statement.action_position, "cannot drop PRIMARY KEY column " + name);
    }
    CELLFS_RETURN_IF_ERROR(CheckNoDependentIndexes(table, name, "drop"));
    CELLFS_RETURN_IF_ERROR(CheckDropColumnWithViews(keyspace, table, name));
    table.columns.erase(it);
  }
  return table;
}

Result<TableDef> RenameColumns(const AlterTable& statement, TableDef table) {
  for (const auto& [from, to] : statement.renamed) {
    auto it = std::find_if(table.columns.begin(), table.columns.end(),
                           [&from = from](const ColumnDef& c) { return c.name == from; });
    if (it == table.columns.end()) {
      if (statement.if_column_exists) continue;
      return Invalid(statement.action_position, "column " + from + " was not found in table " +
                                                    table.keyspace + "." + table.name);
    }
    if (!it->is_primary_key()) {
      return Invalid(statement.action_position, "cannot rename non PRIMARY KEY column " + from +
                                                    " (Cassandra allows "
                                                    "renaming key columns only)");
    }
    CELLFS_RETURN_IF_ERROR(CheckNoDependentIndexes(table, from, "rename"));
    if (table.FindColumn(to) != nullptr) {
      return Invalid(statement.action_position, "cannot rename " + from + " to " + to +
                                                    ": a column of that name already exists");
    }
    it->name = to;
  }
  return table;
}

}  // namespace

Status CheckSchemaObjectName(const std::string& kind, const std::string& name,
                             const SourcePosition& position) {
  const bool valid = !name.empty() && name.size() <= 48 &&
                     std::all_of(name.begin(), name.end(),
                                 [](unsigned char c) { return std::isalnum(c) || c == '_'; });
  if (!valid) {
    return Invalid(position,
                   kind + " name \"" + name + "\" must be 1 to 48 letters, digits or underscores");
  }
  return Status::Ok();
}

Result<TableDef> BuildTable(const CreateTable& statement, const KeyspaceDef& keyspace) {
  CELLFS_RETURN_IF_ERROR(
      CheckSchemaObjectName("table", statement.table.name, statement.table.position));
  if (statement.compact_storage) {
    return Status::NotSupported(AtPosition(
        statement.table.position, "COMPACT STORAGE is not supported (Cassandra 4.0 removed it)"));
  }
  TableDef table;
  table.keyspace = keyspace.name;
  table.name = statement.table.name;
  std::set<std::string> names;
  for (const auto& expr : statement.columns) {
    if (!names.insert(expr.name).second) {
      return Invalid(expr.position, "multiple definition of identifier " + expr.name);
    }
    auto column = ResolveColumn(expr, keyspace);
    if (!column.ok()) return column.status();
    table.columns.push_back(std::move(column).value());
  }
  CELLFS_RETURN_IF_ERROR(AssignPrimaryKey(statement, &table.columns));
  CELLFS_RETURN_IF_ERROR(CheckKeyColumns(table, statement.columns));
  for (const auto& expr : statement.columns) CELLFS_RETURN_IF_ERROR(CheckStatic(expr, table));
  CELLFS_RETURN_IF_ERROR(ApplyClusteringOrder(statement, &table));
  CELLFS_RETURN_IF_ERROR(ApplyTableOptions(statement.options, &table.options));
  SortColumns(&table.columns);
  CELLFS_RETURN_IF_ERROR(CheckCounterRules(table, statement.table.position));
  return table;
}

Result<TableDef> AlterTableDef(const AlterTable& statement, const KeyspaceDef& keyspace,
                               const TableDef& table) {
  switch (statement.action) {
    case AlterTable::Action::kAdd:
      return AddColumns(statement, keyspace, table);
    case AlterTable::Action::kDrop:
      return DropColumns(statement, keyspace, table);
    case AlterTable::Action::kRename:
      return RenameColumns(statement, table);
    case AlterTable::Action::kWith: {
      TableDef updated = table;
      CELLFS_RETURN_IF_ERROR(ApplyTableOptions(statement.options, &updated.options));
      CELLFS_RETURN_IF_ERROR(CheckCounterRules(updated, statement.action_position));
      return updated;
    }
  }
  return Status::InvalidArgument("unknown ALTER TABLE action");
}

}  // namespace cellfs
