// CREATE / DROP / ALTER MATERIALIZED VIEW against the schema model, and the
// view rules of the table statements, in Cassandra's order and words
// (docs/CQL.md "Materialized views").
#include "engine/cql/internal/view_schema.h"

#include <algorithm>
#include <set>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/internal/schema_options.h"
#include "engine/cql/internal/table_builder.h"
#include "engine/cql/internal/view_where.h"

namespace cellfs {
namespace {

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

std::string Join(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : separator) + name;
  return out;
}

bool ReferencesDuration(const CqlType& type) {
  if (type.kind() == TypeKind::kDuration) return true;
  return std::any_of(type.params().begin(), type.params().end(),
                     [](const TypePtr& p) { return ReferencesDuration(*p); });
}

// The names the SELECT clause makes columns of the view, in canonical
// (base) order; Cassandra keeps them in a set, so repeats are harmless.
Status SelectedColumns(const CreateView& s, const TableDef& base, std::set<std::string>* out) {
  if (s.select_all) {
    for (const ColumnDef& c : base.columns) out->insert(c.name);
  }
  for (size_t i = 0; i < s.selected.size(); ++i) {
    const Selector& selector = s.selected[i];
    if (!selector.alias.empty()) {
      return Invalid("Cannot use aliases when defining a materialized view (got " + s.written[i] +
                     ")");
    }
    if (selector.kind != Selector::Kind::kColumn) {
      return Invalid("Can only select columns by name when defining a materialized view (got " +
                     s.written[i] + ")");
    }
    if (base.FindColumn(selector.name) == nullptr) {
      return Invalid("Undefined column name " + QuoteIdentifier(selector.name) + " in table " +
                     base.keyspace + "." + base.name);
    }
    out->insert(selector.name);
  }
  for (const ColumnDef& c : base.columns) {
    if (c.kind == ColumnKind::kStatic && out->contains(c.name)) {
      return Invalid("Cannot include static column '" + c.name + "' in materialized view '" +
                     s.view.name + "'");
    }
  }
  return Status::Ok();
}

// The PRIMARY KEY clause's columns, each checked as Cassandra checks them.
Status CheckKeyColumns(const CreateView& s, const TableDef& base,
                       const std::set<std::string>& selected) {
  std::set<std::string> seen;
  std::vector<std::string> key = s.layout.partition_key;
  key.insert(key.end(), s.layout.clustering.begin(), s.layout.clustering.end());
  for (const std::string& name : key) {
    const ColumnDef* column = base.FindColumn(name);
    if (column == nullptr || !selected.contains(name)) {
      return Invalid("Unknown column '" + name +
                     "' referenced in PRIMARY KEY for materialized view '" + s.view.name + "'");
    }
    if (!seen.insert(name).second) {
      return Invalid("Duplicate column '" + name +
                     "' in PRIMARY KEY clause for materialized view '" + s.view.name + "'");
    }
    const CqlType& type = *column->type;
    if (type.is_multi_cell()) {
      return Invalid(std::string(type.is_collection() ? "Invalid non-frozen collection type '"
                                                      : "Invalid non-frozen user-defined type '") +
                     type.ToCql() + "' for PRIMARY KEY column '" + name + "'");
    }
    if (ReferencesDuration(type)) {
      return Invalid("duration type is not supported for PRIMARY KEY column '" + name + "'");
    }
  }
  std::vector<std::string> order;
  for (const ClusteringOrderExpr& o : s.layout.clustering_order) order.push_back(o.column);
  if (!order.empty() && order != s.layout.clustering) {
    return Invalid(
        "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive");
  }
  std::vector<std::string> missing;
  for (const ColumnDef& c : base.columns) {
    if (c.is_primary_key() && !seen.contains(c.name)) missing.push_back(c.name);
  }
  if (!missing.empty()) {
    return Invalid("Cannot create materialized view '" + s.view.name +
                   "' without primary key columns " + Join(missing, ", ") + " from base table '" +
                   base.name + "'");
  }
  std::vector<std::string> regular;
  for (const std::string& name : key) {
    if (!base.FindColumn(name)->is_primary_key()) regular.push_back(name);
  }
  if (regular.size() > 1) {
    return Invalid(
        "Cannot include more than one non-primary key column in materialized view primary key "
        "(got " +
        Join(regular, ", ") + ")");
  }
  return Status::Ok();
}

// The WHERE clause: each relation's column and values typed, every view
// key column restricted, base non-key columns by IS NOT NULL only.
Status ApplyWhere(const CreateView& s, const TableDef& base, ViewDef* view) {
  std::set<std::string> restricted;
  std::vector<std::string> illegal;
  std::vector<std::string> texts;
  ViewRelationMerger merger;
  for (const ViewRelation& relation : s.where) {
    const ColumnDef* column = base.FindColumn(relation.relation.column);
    if (column == nullptr) {
      return Invalid("Undefined column name " + QuoteIdentifier(relation.relation.column) +
                     " in table " + base.keyspace + "." + base.name);
    }
    restricted.insert(column->name);
    texts.push_back(ViewRelationText(relation));
    if (relation.is_not_null) {
      CELLFS_RETURN_IF_ERROR(merger.Add(relation, column->name));
      continue;
    }
    ViewRestriction restriction;
    CELLFS_RETURN_IF_ERROR(TypeViewRelation(*column, relation.relation, &restriction));
    CELLFS_RETURN_IF_ERROR(merger.Add(relation, column->name));
    if (!column->is_primary_key() &&
        std::find(illegal.begin(), illegal.end(), column->name) == illegal.end()) {
      illegal.push_back(column->name);
    }
    view->restrictions.push_back(std::move(restriction));
  }
  std::vector<std::string> unrestricted;
  std::vector<std::string> key = s.layout.partition_key;
  key.insert(key.end(), s.layout.clustering.begin(), s.layout.clustering.end());
  for (const std::string& name : key) {
    if (!restricted.contains(name)) unrestricted.push_back(name);
  }
  if (!unrestricted.empty()) {
    return Invalid("Primary key columns " + Join(unrestricted, ", ") +
                   " must be restricted with 'IS NOT NULL' or otherwise");
  }
  if (!illegal.empty()) {
    return Invalid("Non-primary key columns can only be restricted with 'IS NOT NULL' (got: " +
                   Join(illegal, ",") + " restricted illegally)");
  }
  view->where_text = Join(texts, " AND ");
  return Status::Ok();
}

// The view's columns: its key as declared (a clustering column keeps its
// base order unless CLUSTERING ORDER BY says otherwise), then the other
// selected columns by name.
std::vector<ColumnDef> ViewColumns(const CreateView& s, const TableDef& base,
                                   const std::set<std::string>& selected) {
  std::vector<ColumnDef> columns;
  for (size_t i = 0; i < s.layout.partition_key.size(); ++i) {
    ColumnDef c = *base.FindColumn(s.layout.partition_key[i]);
    c.kind = ColumnKind::kPartitionKey;
    c.position = static_cast<int>(i);
    c.order = SortOrder::kAsc;
    columns.push_back(std::move(c));
  }
  for (size_t i = 0; i < s.layout.clustering.size(); ++i) {
    const ColumnDef& from = *base.FindColumn(s.layout.clustering[i]);
    ColumnDef c = from;
    c.kind = ColumnKind::kClustering;
    c.position = static_cast<int>(i);
    c.order = from.kind == ColumnKind::kClustering ? from.order : SortOrder::kAsc;
    if (i < s.layout.clustering_order.size()) {
      c.order = s.layout.clustering_order[i].descending ? SortOrder::kDesc : SortOrder::kAsc;
    }
    columns.push_back(std::move(c));
  }
  for (const std::string& name : selected) {  // a std::set: by name
    const bool in_key = std::any_of(columns.begin(), columns.end(),
                                    [&](const ColumnDef& c) { return c.name == name; });
    if (in_key) continue;
    ColumnDef c = *base.FindColumn(name);
    c.kind = ColumnKind::kRegular;
    c.position = 0;
    c.order = SortOrder::kAsc;
    columns.push_back(std::move(c));
  }
  return columns;
}

bool HasOption(const std::vector<TableOption>& options, const std::string& name) {
  return std::any_of(options.begin(), options.end(),
                     [&](const TableOption& o) { return o.name == name; });
}

}  // namespace

Status ViewStatementKeyspace(const CreateView& s, const std::string& current,
                             std::string* keyspace) {
  *keyspace = s.view.keyspace.empty() ? current : s.view.keyspace;
  if (keyspace->empty()) {
    return Invalid(
        "No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename");
  }
  if (!s.base.keyspace.empty() && s.base.keyspace != *keyspace) {
    return Invalid("Cannot create a materialized view on a table in a different keyspace");
  }
  return Status::Ok();
}

Status AddView(const CreateView& s, KeyspaceDef* keyspace, bool* added) {
  *added = false;
  std::set<std::string> ordered;
  for (const ClusteringOrderExpr& o : s.layout.clustering_order) {
    if (!ordered.insert(o.column).second) {
      return Invalid("Duplicate column '" + o.column +
                     "' in CLUSTERING ORDER BY clause for view '" + s.view.name + "'");
    }
  }
  if (s.layout.compact_storage) {
    return Invalid("COMPACT STORAGE tables are not allowed starting with version 4.0");
  }
  auto found = keyspace->tables.find(s.base.name);
  if (found == keyspace->tables.end() || found->second.view) {
    return Invalid("Base table '" + s.base.name + "' doesn't exist");
  }
  const TableDef& base = found->second;
  auto existing = keyspace->tables.find(s.view.name);
  if (existing != keyspace->tables.end()) {
    if (!existing->second.view) {
      return Invalid("Cannot create materialized view '" + s.view.name +
                     "' - a table with the same name already exists");
    }
    if (s.if_not_exists) return Status::Ok();
    return Status::AlreadyExists("Cannot add already existing table \"" + s.view.name +
                                 "\" to keyspace \"" + keyspace->name + "\"");
  }
  CELLFS_RETURN_IF_ERROR(CheckSchemaObjectName("materialized view", s.view.name, s.view.position));
  if (base.has_counters()) return Invalid("Materialized views are not supported on counter tables");
  if (base.options.gc_grace_seconds == 0) {
    return Invalid("Cannot create materialized view '" + s.view.name + "' for base table '" +
                   base.name +
                   "' with gc_grace_seconds of 0, since this value is used to TTL undelivered "
                   "updates. Setting gc_grace_seconds too low might cause undelivered updates to "
                   "expire before being replayed.");
  }
  std::set<std::string> selected;
  CELLFS_RETURN_IF_ERROR(SelectedColumns(s, base, &selected));
  if (s.layout.partition_key.empty()) {
    return Invalid("Must provide at least one partition key column for materialized view '" +
                   s.view.name + "'");
  }
  CELLFS_RETURN_IF_ERROR(CheckKeyColumns(s, base, selected));
  TableDef view;
  view.keyspace = keyspace->name;
  view.name = s.view.name;
  view.view.emplace();
  view.view->base_table = base.name;
  view.view->select_all = s.select_all;
  CELLFS_RETURN_IF_ERROR(ApplyWhere(s, base, &*view.view));
  CELLFS_RETURN_IF_ERROR(ApplyTableOptions(s.layout.options, &view.options));
  if (HasOption(s.layout.options, "default_time_to_live")) {
    return Invalid(
        "Cannot set default_time_to_live for a materialized view. Data in a materialized view "
        "always expire at the same time than the corresponding data in the parent table.");
  }
  view.columns = ViewColumns(s, base, selected);
  keyspace->tables.emplace(view.name, std::move(view));
  *added = true;
  return Status::Ok();
}

Status AlterViewOptions(const AlterView& s, TableDef* view) {
  TableOptions options = view->options;
  CELLFS_RETURN_IF_ERROR(ApplyTableOptions(s.options, &options));
  if (options.gc_grace_seconds == 0) {
    return Invalid(
        "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to "
        "TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered "
        "updates to expire before being replayed.");
  }
  if (options.default_time_to_live > 0) {
    return Invalid(
        "Forbidden default_time_to_live detected for a materialized view. Data in a materialized "
        "view always expire at the same time than the corresponding data in the parent table. "
        "default_time_to_live must be set to zero, see CASSANDRA-12868 for more information");
  }
  view->options = std::move(options);
  return Status::Ok();
}

std::vector<std::string> ViewsOf(const KeyspaceDef& keyspace, const std::string& table) {
  std::vector<std::string> names;
  for (const auto& [name, def] : keyspace.tables) {
    if (def.view && def.view->base_table == table) names.push_back(name);
  }
  return names;
}

Status CheckDropTable(const KeyspaceDef& keyspace, const TableDef& table) {
  if (table.view) {
    return Invalid(
        "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW "
        "instead.");
  }
  // Cassandra's format has one %s for two arguments, so only the keyspace
  // shows; the message is kept as Cassandra prints it.
  if (!ViewsOf(keyspace, table.name).empty()) {
    return Invalid("Cannot drop a table when materialized views still depend on it (" +
                   keyspace.name + ")");
  }
  return Status::Ok();
}

Status CheckAlterTable(const KeyspaceDef& keyspace, const TableDef& table,
                       const AlterTable& statement) {
  if (table.view) {
    return Invalid(
        "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
  }
  // Cassandra takes a static column into a base with a SELECT * view and
  // leaves it out of the view; the view's CREATE statement then names a
  // base with a static column, which no CREATE can replay, and cellfs
  // stores a keyspace as those statements.
  if (statement.action == AlterTable::Action::kAdd) {
    for (const ColumnExpr& added : statement.added) {
      if (!added.is_static || table.FindColumn(added.name) != nullptr) continue;
      for (const std::string& name : ViewsOf(keyspace, table.name)) {
        if (!keyspace.tables.at(name).view->select_all) continue;
        return Status::NotSupported("cannot add static column " + added.name + " to table " +
                                    table.name + ": its materialized view " + name +
                                    " selects *, and cellfs could not store that view");
      }
    }
  }
  if (statement.action == AlterTable::Action::kWith && !ViewsOf(keyspace, table.name).empty()) {
    TableOptions options = table.options;
    if (ApplyTableOptions(statement.options, &options).ok() && options.gc_grace_seconds == 0) {
      return Invalid(
          "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since "
          "this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might "
          "cause undelivered updates to expire before being replayed.");
    }
  }
  return Status::Ok();
}

Status CheckDropColumnWithViews(const KeyspaceDef& keyspace, const TableDef& table,
                                const std::string& column) {
  if (ViewsOf(keyspace, table.name).empty()) return Status::Ok();
  return Invalid("Cannot drop column " + column + " on base table " + table.name +
                 " with materialized views");
}

void PropagateAlterTable(const AlterTable& statement, const TableDef& before, const TableDef& after,
                         KeyspaceDef* keyspace) {
  for (const std::string& name : ViewsOf(*keyspace, after.name)) {
    TableDef& view = keyspace->tables.at(name);
    if (statement.action == AlterTable::Action::kAdd && view.view->select_all) {
      for (const ColumnDef& c : after.columns) {
        if (c.kind != ColumnKind::kRegular || before.FindColumn(c.name) != nullptr) continue;
        if (view.FindColumn(c.name) != nullptr) continue;
        ColumnDef added = c;
        view.columns.push_back(std::move(added));
      }
      auto regular = std::find_if(view.columns.begin(), view.columns.end(),
                                  [](const ColumnDef& c) { return !c.is_primary_key(); });
      std::sort(regular, view.columns.end(),
                [](const ColumnDef& a, const ColumnDef& b) { return a.name < b.name; });
    }
    if (statement.action == AlterTable::Action::kRename) {
      for (const auto& [from, to] : statement.renamed) {
        if (before.FindColumn(from) == nullptr || after.FindColumn(to) == nullptr) continue;
        RenameViewColumn(from, to, &view);
      }
    }
  }
}

Status CheckIndexableTable(const TableDef& table) {
  if (table.view) return Invalid("Secondary indexes on materialized views aren't supported");
  return Status::Ok();
}

Status CheckTruncatableTable(const TableDef& table) {
  if (table.view) {
    return Invalid("Cannot TRUNCATE materialized view directly; must truncate base table instead");
  }
  return Status::Ok();
}

}  // namespace cellfs
