// PlanSelect: SelectStatement.prepare's order of checks in Cassandra 4.x:
// selectors and ORDER BY names, the WHERE clause (internal/select_where.h),
// selector functions, DISTINCT, ORDER BY, filtering, then the limits.
#include "engine/cql/select_plan.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <utility>

#include "engine/cql/internal/index_schema.h"
#include "engine/cql/internal/select_where.h"
#include "engine/cql/sasi_options.h"

namespace cellfs {
namespace {

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

int IndexOf(const TableDef& table, const ColumnDef* def) {
  return static_cast<int>(def - table.columns.data());
}

// Resolves the names in `selector` (Selectable.Raw.prepare): every column
// must exist. `columns` collects the columns read, once each, in order.
Status Resolve(const TableDef& table, const Selector& selector, ResolvedSelector* out,
               std::vector<int>* columns) {
  using Kind = Selector::Kind;
  out->kind = selector.kind;
  out->alias = selector.alias;
  out->term = selector.term;
  if (selector.kind == Kind::kColumn || selector.kind == Kind::kWriteTime ||
      selector.kind == Kind::kTtl) {
    const ColumnDef* def = table.FindColumn(selector.name);
    if (def == nullptr) return UndefinedColumn(table, selector.name);
    out->column = IndexOf(table, def);
    if (std::find(columns->begin(), columns->end(), out->column) == columns->end()) {
      columns->push_back(out->column);
    }
    return Status::Ok();
  }
  if (selector.kind == Kind::kFunction || selector.kind == Kind::kCast) out->name = selector.name;
  for (const Selector& arg : selector.args) {
    out->args.emplace_back();
    CELLFS_RETURN_IF_ERROR(Resolve(table, arg, &out->args.back(), columns));
  }
  return Status::Ok();
}

bool IsAggregate(const ResolvedSelector& selector) {
  if (selector.kind == Selector::Kind::kCountRows) return true;
  static constexpr std::string_view kAggregates[] = {"count", "min", "max", "sum", "avg"};
  if (selector.kind == Selector::Kind::kFunction &&
      std::find(std::begin(kAggregates), std::end(kAggregates), selector.name) !=
          std::end(kAggregates)) {
    return true;
  }
  return std::any_of(selector.args.begin(), selector.args.end(), IsAggregate);
}

// The selector factories' checks (Selectable.WritetimeOrTTL, token()).
Status CheckFunctions(const TableDef& table, const ResolvedSelector& selector) {
  using Kind = Selector::Kind;
  if (selector.kind == Kind::kWriteTime || selector.kind == Kind::kTtl) {
    const ColumnDef& def = table.columns[static_cast<size_t>(selector.column)];
    const std::string function = selector.kind == Kind::kWriteTime ? "writeTime" : "ttl";
    if (def.is_primary_key()) {
      return Invalid("Cannot use selection function " + function + " on PRIMARY KEY part " +
                     def.name);
    }
    if (def.type->is_multi_cell()) {
      return Invalid("Cannot use selection function " + function + " on non-frozen " +
                     (def.type->is_collection() ? "collection " : "UDT ") + def.name);
    }
  }
  if (selector.kind == Kind::kToken && selector.args.size() != table.partition_key_count()) {
    return Invalid("Invalid number of arguments in call to function system.token: " +
                   std::to_string(table.partition_key_count()) + " required but " +
                   std::to_string(selector.args.size()) + " provided");
  }
  for (const ResolvedSelector& arg : selector.args) {
    CELLFS_RETURN_IF_ERROR(CheckFunctions(table, arg));
  }
  return Status::Ok();
}

// validateDistinctSelection.
Status CheckDistinct(const TableDef& table, const std::vector<int>& columns,
                     const SelectWhere& where) {
  if (where.has_clustering_restrictions() ||
      (where.has_other_restrictions() && !where.others_all_static())) {
    return Invalid(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
        "static columns.");
  }
  for (int column : columns) {
    const ColumnDef& def = table.columns[static_cast<size_t>(column)];
    if (def.kind != ColumnKind::kPartitionKey && def.kind != ColumnKind::kStatic) {
      return Invalid(
          "SELECT DISTINCT queries must only request partition key columns and/or static columns "
          "(not " +
          def.name + ")");
    }
  }
  if (!where.key_range()) return Status::Ok();
  for (size_t i = 0; i < table.partition_key_count(); ++i) {
    if (std::find(columns.begin(), columns.end(), static_cast<int>(i)) == columns.end()) {
      return Invalid(
          "SELECT DISTINCT queries must request all the partition key columns (missing " +
          table.columns[i].name + ")");
    }
  }
  return Status::Ok();
}

// verifyOrderingIsAllowed and isReversed.
Status PlanOrdering(const TableDef& table, const std::vector<const ColumnDef*>& ordering,
                    const SelectStatement& select, const SelectWhere& where, bool* reversed) {
  if (where.key_range()) {
    return Invalid(
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  }
  size_t next = 0;  // the next clustering position ORDER BY may name
  std::optional<bool> direction;
  for (size_t i = 0; i < ordering.size(); ++i) {
    const ColumnDef& def = *ordering[i];
    if (def.kind != ColumnKind::kClustering) {
      return Invalid(
          "Order by is currently only supported on the clustered columns of the PRIMARY KEY, "
          "got " +
          def.name);
    }
    const size_t position = static_cast<size_t>(def.position);
    while (next != position) {
      if (next >= table.clustering_count() || !where.IsClusteringRestrictedByEq(next)) {
        return Invalid(
            "Order by currently only supports the ordering of columns following their declared "
            "order in the PRIMARY KEY");
      }
      ++next;
    }
    ++next;
    const bool flipped = select.order_by[i].descending != (def.order == SortOrder::kDesc);
    if (direction && *direction != flipped) return Invalid("Unsupported order by relation");
    direction = flipped;
  }
  *reversed = direction.value_or(false);
  return Status::Ok();
}

Status ParseLimit(const CqlTerm& term, std::string_view what, std::optional<int32_t>* out) {
  int32_t value = 0;
  const char* end = term.text.data() + term.text.size();
  auto [stop, error] = std::from_chars(term.text.data(), end, value);
  if (error != std::errc() || stop != end) {
    return Invalid("Unable to make int from '" + term.text + "'");
  }
  if (value <= 0) return Invalid(std::string(what) + " must be strictly positive");
  *out = value;
  return Status::Ok();
}

}  // namespace

Status PlanSelect(const TableDef& table, const SelectStatement& select, SelectPlan* plan) {
  *plan = SelectPlan();
  plan->json = select.json;
  plan->distinct = select.distinct;
  plan->wildcard = select.wildcard;
  std::vector<int> columns;  // read by the selection
  for (const Selector& selector : select.selectors) {
    plan->selectors.emplace_back();
    CELLFS_RETURN_IF_ERROR(Resolve(table, selector, &plan->selectors.back(), &columns));
  }
  if (select.wildcard) {
    for (size_t i = 0; i < table.columns.size(); ++i) columns.push_back(static_cast<int>(i));
  }
  std::vector<const ColumnDef*> ordering;
  for (const Ordering& order : select.order_by) {
    const ColumnDef* def = table.FindColumn(order.column);
    if (def == nullptr) return UndefinedColumn(table, order.column);
    ordering.push_back(def);
  }
  // Selection.containsOnlyStaticColumns: some static, nothing but key and static.
  bool only_statics = !select.wildcard;
  bool any_static = false;
  for (int column : columns) {
    const ColumnKind kind = table.columns[static_cast<size_t>(column)].kind;
    any_static = any_static || kind == ColumnKind::kStatic;
    only_statics =
        only_statics && (kind == ColumnKind::kStatic || kind == ColumnKind::kPartitionKey);
  }
  SelectWhere where(table, select.allow_filtering);
  for (const SelectRelation& relation : select.where) CELLFS_RETURN_IF_ERROR(where.Add(relation));
  CELLFS_RETURN_IF_ERROR(where.Finish(only_statics && any_static, plan));
  for (const ResolvedSelector& selector : plan->selectors) {
    CELLFS_RETURN_IF_ERROR(CheckFunctions(table, selector));
    plan->aggregate = plan->aggregate || IsAggregate(selector);
  }
  if (select.distinct) {
    if (select.per_partition_limit) {
      return Invalid("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
    }
    CELLFS_RETURN_IF_ERROR(CheckDistinct(table, columns, where));
  }
  if (plan->aggregate && select.per_partition_limit) {
    return Invalid("PER PARTITION LIMIT is not allowed with aggregate queries.");
  }
  if (!ordering.empty() && where.uses_index()) {
    return Invalid("ORDER BY with 2ndary indexes is not supported.");
  }
  if (!ordering.empty()) {
    CELLFS_RETURN_IF_ERROR(PlanOrdering(table, ordering, select, where, &plan->reversed));
  }
  // checkNeedsFiltering: a range of partitions, or a read through an index,
  // that checks more than one restriction row by row.
  if (!select.allow_filtering && (where.key_range() || where.uses_index()) &&
      where.needs_filtering()) {
    return where.RequiresAllowFiltering();
  }
  if (select.per_partition_limit) {
    CELLFS_RETURN_IF_ERROR(
        ParseLimit(*select.per_partition_limit, "PER PARTITION LIMIT", &plan->per_partition_limit));
  }
  if (select.limit) CELLFS_RETURN_IF_ERROR(ParseLimit(*select.limit, "LIMIT", &plan->limit));
  if (!ordering.empty() && where.has_partition_key_in()) {
    // cqlsh pages every query, and Cassandra cannot page this one.
    return Invalid(
        "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you "
        "must either remove the ORDER BY or the IN and sort client side, or disable paging for "
        "this query");
  }
  return Status::Ok();
}

}  // namespace cellfs

namespace cellfs {

bool IndexAnswersRanges(const IndexDef& index, const CqlType& type, bool reversed) {
  if (index.target != IndexTargetKind::kSimple) return false;  // FULL: equality only
  const TypeKind kind = type.kind();
  const bool text = kind == TypeKind::kText || kind == TypeKind::kAscii;
  const bool composite = !type.params().empty() || kind == TypeKind::kUdt;
  switch (IndexFamilyOf(index.custom_class)) {
    case IndexFamily::kPlain:
      return false;
    case IndexFamily::kSai:
      // IndexTermType: text, ascii, boolean, uuid and frozen composites
      // are "literal", with equality only.
      return !text && !composite && kind != TypeKind::kBoolean && kind != TypeKind::kUuid;
    case IndexFamily::kSasi: {
      // Literal columns and CONTAINS mode answer no ranges.
      const SasiOptions options = ReadSasiOptions(index);
      return !SasiIsLiteral(options, type, reversed) && !composite &&
             options.mode != SasiOptions::Mode::kContains;
    }
  }
  return false;
}

bool IndexAnswersEquality(const IndexDef& index, const CqlType& type) {
  if (index.target != IndexTargetKind::kSimple && index.target != IndexTargetKind::kFull) {
    return false;
  }
  return IndexFamilyOf(index.custom_class) != IndexFamily::kSasi ||
         SasiAnalysisOf(ReadSasiOptions(index), type, false) != SasiAnalysis::kTokens;
}

bool IndexAnswersLike(const IndexDef& index, const CqlType& type, bool reversed) {
  return index.target == IndexTargetKind::kSimple &&
         IndexFamilyOf(index.custom_class) == IndexFamily::kSasi &&
         SasiIsLiteral(ReadSasiOptions(index), type, reversed);
}

}  // namespace cellfs
