// SelectWhere: Cassandra 4.x's WHERE rules for SELECT (StatementRestrictions,
// ClusteringColumnRestrictions, PartitionKeySingleRestrictionSet and the
// relations' own checks), with their InvalidRequest wording.
#include "engine/cql/internal/select_where.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "engine/cql/cql_identifier.h"

namespace cellfs {
namespace {

using Op = SelectRelation::Op;
using Kind = SelectWhere::Restriction::Kind;

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

std::string Join(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

// The relation as Cassandra prints it in messages: "c != 5", "(a, b) > (1, 2)".
std::string RelationText(const SelectRelation& relation) {
  std::string text = Join(relation.columns);
  if (relation.map_key) text += "[" + relation.map_key->text + "]";
  if (relation.target == SelectRelation::Target::kMultiColumn) text = "(" + text + ")";
  if (relation.target == SelectRelation::Target::kToken) text = "token(" + text + ")";
  text += " " + std::string(RelationOpText(relation.op)) + " ";
  if (relation.op != Op::kIn) return text + relation.value.text;
  std::vector<std::string> values;
  for (const CqlTerm& term : relation.in_list) values.push_back(term.text);
  return text + "(" + Join(values) + ")";
}

// The merged form of one relation, before merging with others.
SelectWhere::Restriction ToRestriction(SelectRelation relation, std::vector<size_t> columns) {
  // SingleColumnRelation.newINRestriction: "An IN restrictions with only
  // one element is the same than an EQ restriction".
  if (relation.op == Op::kIn && relation.in_list.size() == 1 &&
      relation.target == SelectRelation::Target::kColumn) {
    relation.op = Op::kEq;
    relation.value = std::move(relation.in_list[0]);
    relation.in_list.clear();
  }
  SelectWhere::Restriction r;
  r.columns = columns;
  r.multi_column = relation.target == SelectRelation::Target::kMultiColumn;
  const TermBound bound{relation.value, relation.op == Op::kLe || relation.op == Op::kGe,
                        columns.size()};
  switch (relation.op) {
    case Op::kEq:
      r.values = {relation.value};
      break;
    case Op::kIn:
      r.kind = Kind::kIn;
      r.values = relation.in_list;
      break;
    case Op::kLt:
    case Op::kLe:
      r.kind = Kind::kSlice;
      r.end = bound;
      break;
    case Op::kGt:
    case Op::kGe:
      r.kind = Kind::kSlice;
      r.start = bound;
      break;
    case Op::kContains:
    case Op::kContainsKey:
    case Op::kNe:
      r.kind = Kind::kContains;
      break;
    case Op::kLike:
      r.kind = Kind::kLike;
      break;
  }
  if (relation.map_key) {
    r.kind = Kind::kContains;  // ContainsRestriction's entries
    r.values.clear();
  }
  r.parts.push_back(RowFilter{std::move(columns), relation.op, relation.value, relation.in_list,
                              r.multi_column, relation.map_key});
  return r;
}

bool Overlaps(const SelectWhere::Restriction& a, const SelectWhere::Restriction& b) {
  for (size_t column : a.columns) {
    if (std::find(b.columns.begin(), b.columns.end(), column) != b.columns.end()) return true;
  }
  return false;
}

}  // namespace

std::string UnsupportedIndexRestriction(const std::vector<std::string>& columns) {
  const std::string tail =
      " not support the operators specified in the query. If you want to execute this query "
      "despite the performance unpredictability, use ALLOW FILTERING";
  if (columns.size() == 1) return "Column '" + columns[0] + "' has an index but does" + tail;
  return "Columns [" + Join(columns) + "] have indexes but do" + tail;
}

Status UndefinedColumn(const TableDef& table, const std::string& name) {
  return Invalid("Undefined column name " + QuoteIdentifier(name) + " in table " +
                 QuoteIdentifier(table.keyspace) + "." + QuoteIdentifier(table.name));
}

Status SelectWhere::Add(const SelectRelation& relation) {
  // Cassandra refuses != before it looks at the column.
  if (relation.op == Op::kNe) {
    return Invalid("Unsupported \"!=\" relation: " + RelationText(relation));
  }
  std::vector<size_t> columns;
  for (const std::string& name : relation.columns) {
    const ColumnDef* def = table_.FindColumn(name);
    if (def == nullptr) return UndefinedColumn(table_, name);
    columns.push_back(static_cast<size_t>(def - table_.columns.data()));
  }
  switch (relation.target) {
    case SelectRelation::Target::kToken:
      return AddToken(relation, std::move(columns));
    case SelectRelation::Target::kMultiColumn:
      CELLFS_RETURN_IF_ERROR(CheckTuple(relation, columns));
      return AddClustering(ToRestriction(relation, std::move(columns)));
    case SelectRelation::Target::kColumn:
      break;
  }
  const ColumnDef& def = table_.columns[columns[0]];
  if (relation.map_key) CELLFS_RETURN_IF_ERROR(CheckMapEntry(relation, def));
  CELLFS_RETURN_IF_ERROR(CheckColumnType(relation, def));
  if (relation.op == Op::kLike) CELLFS_RETURN_IF_ERROR(CheckLikeIndexed(relation, columns[0]));
  Restriction added = ToRestriction(relation, std::move(columns));
  if (def.kind == ColumnKind::kClustering) return AddClustering(std::move(added));
  if (def.kind == ColumnKind::kPartitionKey) {
    partition_.resize(table_.partition_key_count());
    std::optional<Restriction>& slot = partition_[Position(added.columns[0])];
    if (!slot) {
      slot = std::move(added);
      return Status::Ok();
    }
    return Merge(&*slot, std::move(added));
  }
  for (Restriction& existing : others_) {
    if (existing.columns == added.columns) return Merge(&existing, std::move(added));
  }
  others_.push_back(std::move(added));
  return Status::Ok();
}

Status SelectWhere::AddToken(const SelectRelation& relation, std::vector<size_t> columns) {
  std::vector<std::string> key;
  for (size_t i = 0; i < table_.partition_key_count(); ++i) key.push_back(Name(i));
  if (relation.columns != key) {
    return Invalid("The token function arguments must be in the partition key order: " + Join(key));
  }
  Restriction added = ToRestriction(relation, std::move(columns));
  if (!token_) {
    token_ = std::move(added);
    return Status::Ok();
  }
  return Merge(&*token_, std::move(added));
}

// MultiColumnRelation's checks: clustering columns, each once, in key order.
Status SelectWhere::CheckTuple(const SelectRelation& relation,
                               const std::vector<size_t>& columns) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnDef& def = table_.columns[columns[i]];
    if (def.kind != ColumnKind::kClustering) {
      return Invalid(
          "Multi-column relations can only be applied to clustering columns but was applied "
          "to: " +
          def.name);
    }
    const auto before = columns.begin() + static_cast<std::ptrdiff_t>(i);
    if (std::find(columns.begin(), before, columns[i]) != before) {
      return Invalid("Column \"" + def.name +
                     "\" appeared twice in a relation: " + RelationText(relation));
    }
    if (i > 0 && Position(columns[i]) != Position(columns[i - 1]) + 1) {
      return Invalid(
          "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: " +
          RelationText(relation));
    }
  }
  return Status::Ok();
}

// SingleColumnRelation.toReceivers on `m[key] op value`.
Status SelectWhere::CheckMapEntry(const SelectRelation& relation, const ColumnDef& def) const {
  const CqlType& type = *def.type;
  if (type.kind() == TypeKind::kList) {
    return Invalid("Indexes on list entries (" + def.name +
                   "[index] = value) are not currently supported.");
  }
  if (type.kind() != TypeKind::kMap)
    return Invalid("Column " + def.name + " cannot be used as a map");
  if (!type.is_multi_cell()) {
    return Invalid("Map-entry equality predicates on frozen map column " + def.name +
                   " are not supported");
  }
  if (relation.op != Op::kEq) return Invalid("Only EQ relations are supported on map entries");
  return Status::Ok();
}

// SingleColumnRelation's receiver checks: what a column's type can be
// restricted by.
Status SelectWhere::CheckColumnType(const SelectRelation& relation, const ColumnDef& def) const {
  const CqlType& type = *def.type;
  const bool contains = relation.op == Op::kContains || relation.op == Op::kContainsKey ||
                        relation.map_key.has_value();
  if (type.kind() == TypeKind::kUdt && type.is_multi_cell()) {
    return Invalid("Non-frozen UDT column '" + def.name + "' (" + type.ToCql() +
                   ") cannot be restricted by any relation");
  }
  if (relation.op == Op::kContainsKey && type.kind() != TypeKind::kMap) {
    return Invalid("Cannot use CONTAINS KEY on non-map column " + def.name);
  }
  if (relation.op == Op::kContains && !type.is_collection()) {
    return Invalid("Cannot use CONTAINS on non-collection column " + def.name);
  }
  if (type.is_collection() && type.is_multi_cell() && !contains) {
    return Invalid("Collection column '" + def.name + "' (" + type.ToCql() +
                   ") cannot be restricted by a '" + std::string(RelationOpText(relation.op)) +
                   "' relation");
  }
  return Status::Ok();
}

Status SelectWhere::CheckLikeIndexed(const SelectRelation& relation, size_t column) const {
  bool indexed = false;
  for (const IndexDef& index : table_.indexes) {
    if (index.column != Name(column)) continue;
    if (IndexAnswersLike(index, *table_.columns[column].type, Reversed(column))) {
      return Status::Ok();
    }
    indexed = true;
  }
  if (indexed)
    return Invalid("Index on column " + Name(column) + " does not support LIKE restrictions.");
  return Invalid("LIKE restriction is only supported on properly indexed columns. " +
                 RelationText(relation) + " is not valid.");
}

// The existing restriction's kind decides, as in Cassandra's doMergeWith.
Status SelectWhere::Merge(Restriction* existing, Restriction added) const {
  std::vector<std::string> common;
  for (size_t column : existing->columns) {
    if (std::find(added.columns.begin(), added.columns.end(), column) != added.columns.end()) {
      common.push_back(Name(column));
    }
  }
  const std::string names = Join(common);
  switch (existing->kind) {
    case Kind::kEq:
      return Invalid(names +
                     " cannot be restricted by more than one relation if it includes an Equal");
    case Kind::kIn:
      return Invalid(names + " cannot be restricted by more than one relation if it includes a IN");
    case Kind::kLike:
      return Invalid(names +
                     " cannot be restricted by more than one relation if it includes a LIKE");
    case Kind::kContains:
      if (added.kind != Kind::kContains) {
        return Invalid("Collection column " + names +
                       " can only be restricted by CONTAINS, CONTAINS KEY, or map-entry equality");
      }
      break;
    case Kind::kSlice: {
      if (added.kind != Kind::kSlice) {
        return Invalid("Column \"" + names +
                       "\" cannot be restricted by both an equality and an inequality relation");
      }
      if ((existing->multi_column || added.multi_column) &&
          existing->columns[0] != added.columns[0]) {
        const size_t later = std::max(existing->columns[0], added.columns[0]);
        return Invalid("Column \"" + Name(later) +
                       "\" cannot be restricted by two inequalities not starting with the same "
                       "column");
      }
      if (existing->start && added.start) {
        return Invalid("More than one restriction was found for the start bound on " + names);
      }
      if (existing->end && added.end) {
        return Invalid("More than one restriction was found for the end bound on " + names);
      }
      if (added.start) existing->start = std::move(added.start);
      if (added.end) existing->end = std::move(added.end);
      break;
    }
  }
  existing->multi_column = existing->multi_column || added.multi_column;
  for (size_t column : added.columns) {
    if (std::find(existing->columns.begin(), existing->columns.end(), column) ==
        existing->columns.end()) {
      existing->columns.push_back(column);
    }
  }
  std::sort(existing->columns.begin(), existing->columns.end());
  for (RowFilter& part : added.parts) existing->parts.push_back(std::move(part));
  return Status::Ok();
}

// ClusteringColumnRestrictions.mergeWith: without ALLOW FILTERING, nothing
// may follow a slice, and a slice may not precede a restricted column.
Status SelectWhere::CheckClusteringOrder(const Restriction& added) const {
  if (clustering_.empty() || allow_filtering_) return Status::Ok();
  const Restriction* last = &clustering_.front();
  for (const Restriction& r : clustering_) {
    if (r.columns.back() > last->columns.back()) last = &r;
  }
  const size_t last_start = last->columns[0];
  const size_t added_start = added.columns[0];
  if (last->kind == Kind::kSlice && added_start > last_start) {
    return Invalid("Clustering column \"" + Name(added_start) +
                   "\" cannot be restricted (preceding column \"" + Name(last_start) +
                   "\" is restricted by a non-EQ relation)");
  }
  if (added_start < last_start && added.kind == Kind::kSlice) {
    size_t next = last->columns.back();
    for (const Restriction& r : clustering_) {
      for (size_t column : r.columns) {
        if (column > added_start && column < next) next = column;
      }
    }
    return Invalid("PRIMARY KEY column \"" + Name(next) +
                   "\" cannot be restricted (preceding column \"" + Name(added_start) +
                   "\" is restricted by a non-EQ relation)");
  }
  return Status::Ok();
}

Status SelectWhere::AddClustering(Restriction added) {
  CELLFS_RETURN_IF_ERROR(CheckClusteringOrder(added));
  for (Restriction& existing : clustering_) {
    if (Overlaps(existing, added)) return Merge(&existing, std::move(added));
  }
  auto at = std::find_if(clustering_.begin(), clustering_.end(),
                         [&](const Restriction& r) { return r.columns[0] > added.columns[0]; });
  clustering_.insert(at, std::move(added));
  return Status::Ok();
}

bool SelectWhere::has_partition_key_in() const {
  return std::any_of(partition_.begin(), partition_.end(),
                     [](const auto& r) { return r && r->kind == Kind::kIn; });
}

bool SelectWhere::others_all_static() const {
  return std::all_of(others_.begin(), others_.end(), [&](const Restriction& r) {
    return table_.columns[r.columns[0]].kind == ColumnKind::kStatic;
  });
}

bool SelectWhere::IsClusteringRestrictedByEq(size_t position) const {
  const size_t column = table_.partition_key_count() + position;
  for (const Restriction& r : clustering_) {
    if (std::find(r.columns.begin(), r.columns.end(), column) != r.columns.end()) {
      return r.kind == Kind::kEq;
    }
  }
  return false;
}

}  // namespace cellfs
