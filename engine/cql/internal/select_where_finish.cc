// SelectWhere's second half: StatementRestrictions' processing of the merged
// restrictions into a plan's partitions, clustering steps and filters.
#include <algorithm>
#include <string>
#include <utility>

#include "engine/cql/internal/select_where.h"

namespace cellfs {
namespace {

using Kind = SelectWhere::Restriction::Kind;

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

}  // namespace

Status SelectWhere::Finish(bool selects_only_statics, SelectPlan* plan) {
  plan->allow_filtering = allow_filtering_;
  queriable_ = HasQueriableIndex();
  CELLFS_RETURN_IF_ERROR(FinishPartitions(plan));
  if (selects_only_statics && !clustering_.empty()) {
    return Invalid("Cannot restrict clustering columns when selecting only static columns");
  }
  CELLFS_RETURN_IF_ERROR(FinishClustering(plan));
  if (!others_.empty()) {
    // With an index answering some restriction, the others are checked row
    // by row; whether that needs ALLOW FILTERING is needs_filtering's.
    if (queriable_) {
      uses_index_ = true;
    } else if (!allow_filtering_) {
      return RequiresAllowFiltering();
    }
    filter_columns_ += ColumnCount(others_);
  }
  // StatementRestrictions.validateSecondaryIndexSelections.
  const bool clustering_in = std::any_of(clustering_.begin(), clustering_.end(),
                                         [](const auto& r) { return r.kind == Kind::kIn; });
  if (uses_index_ && (has_partition_key_in() || clustering_in)) {
    return Invalid(
        "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
  }
  if (uses_index_ && plan->partitions == SelectPlan::Partitions::kAll) {
    // The read visits the partitions one index names: a static or regular
    // column's first, else a clustering column's, else a partition key
    // component's. Its restriction is among the filters (a clustering
    // step is added to them), so every row is checked against all.
    plan->index = ChooseIndex();
    if (!plan->index) {
      for (const Restriction& r : clustering_) {
        if (std::optional<IndexQuery> index = IndexFor(r)) {
          plan->index = std::move(index);
          if (r.stepped) plan->filters.insert(plan->filters.end(), r.parts.begin(), r.parts.end());
          break;
        }
      }
    }
    if (!plan->index) plan->index = ChoosePartitionKeyIndex();
  }
  for (const Restriction& r : others_) {
    plan->filters.insert(plan->filters.end(), r.parts.begin(), r.parts.end());
  }
  return Status::Ok();
}

bool SelectWhere::needs_filtering() const {
  size_t contains = 0;
  for (const Restriction& r : others_) {
    if (r.kind == Kind::kContains) contains += r.parts.size();
  }
  if (filter_columns_ != 0 && SaiGroupAnswersAll()) return false;
  return filter_columns_ > 1 || (filter_columns_ == 0 && !clustering_.empty()) ||
         (filter_columns_ != 0 && contains > 1);
}

Status SelectWhere::RequiresAllowFiltering() const {
  // Cassandra's restriction sets order clustering columns by position,
  // then the other columns (no position) by name.
  std::vector<const Restriction*> ordered;
  for (const Restriction& r : clustering_) ordered.push_back(&r);
  std::vector<const Restriction*> others;
  for (const Restriction& r : others_) others.push_back(&r);
  std::sort(others.begin(), others.end(), [&](const Restriction* a, const Restriction* b) {
    return Name(a->columns[0]) < Name(b->columns[0]);
  });
  ordered.insert(ordered.end(), others.begin(), others.end());
  std::vector<std::string> unsupported;
  for (const Restriction* r : ordered) {
    if (HasSupportingIndex(*r)) continue;
    for (size_t column : r->columns) {
      const bool indexed =
          std::any_of(table_.indexes.begin(), table_.indexes.end(),
                      [&](const IndexDef& index) { return index.column == Name(column); });
      if (indexed &&
          std::find(unsupported.begin(), unsupported.end(), Name(column)) == unsupported.end()) {
        unsupported.push_back(Name(column));
      }
    }
  }
  if (unsupported.empty()) return Invalid(std::string(kRequiresAllowFiltering));
  return Invalid(UnsupportedIndexRestriction(unsupported));
}

size_t SelectWhere::ColumnCount(const std::vector<Restriction>& restrictions) {
  size_t count = 0;
  for (const Restriction& r : restrictions) count += r.columns.size();
  return count;
}

bool SelectWhere::HasSupportingIndex(const Restriction& r) const {
  if (!r.multi_column) return IndexFor(r).has_value();
  // MultiColumnRestriction: supported when an index of any of its columns
  // answers the operator (IN never).
  if (r.kind == Kind::kIn) return false;
  for (size_t column : r.columns) {
    for (const IndexDef& index : table_.indexes) {
      if (index.column != Name(column)) continue;
      const CqlType& type = *table_.columns[column].type;
      if (r.kind == Kind::kEq ? IndexAnswersEquality(index, type)
                              : IndexAnswersRanges(index, type, Reversed(column))) {
        return true;
      }
    }
  }
  return false;
}

bool SelectWhere::HasQueriableIndex() const {
  for (const auto& r : partition_) {
    if (r && HasSupportingIndex(*r)) return true;
  }
  for (const Restriction& r : clustering_) {
    if (HasSupportingIndex(r)) return true;
  }
  return std::any_of(others_.begin(), others_.end(),
                     [&](const Restriction& r) { return HasSupportingIndex(r); });
}

std::optional<IndexQuery> SelectWhere::ChoosePartitionKeyIndex() const {
  for (const auto& r : partition_) {
    if (!r) continue;
    if (std::optional<IndexQuery> index = IndexFor(*r)) return index;
  }
  return std::nullopt;
}

std::optional<IndexQuery> SelectWhere::IndexFor(const Restriction& r) const {
  if (r.columns.size() != 1 || r.multi_column || r.kind == Kind::kIn || r.parts.empty()) {
    return std::nullopt;
  }
  const CqlType& type = *table_.columns[r.columns[0]].type;
  const RowFilter& first = r.parts[0];  // a LIKE's one relation
  for (size_t i = 0; i < table_.indexes.size(); ++i) {
    const IndexDef& index = table_.indexes[i];
    if (index.column != Name(r.columns[0])) continue;
    switch (r.kind) {
      case Kind::kEq:
        if (IndexAnswersEquality(index, type)) return IndexQuery{.index = i, .value = r.values[0]};
        break;
      case Kind::kSlice:
        if (IndexAnswersRanges(index, type, Reversed(r.columns[0]))) {
          return IndexQuery{.index = i, .slice = true};
        }
        break;
      case Kind::kLike:
        if (IndexAnswersLike(index, type, Reversed(r.columns[0]))) {
          return IndexQuery{.index = i, .value = first.value, .like = true};
        }
        break;
      case Kind::kContains:
        // An index answers a CONTAINS (KEY); the others filter.
        for (const RowFilter& part : r.parts) {
          if (part.map_key && index.target == IndexTargetKind::kEntries) {
            return IndexQuery{.index = i, .value = part.value, .map_key = part.map_key};
          }
          if ((part.op == SelectRelation::Op::kContains &&
               index.target == IndexTargetKind::kValues) ||
              (part.op == SelectRelation::Op::kContainsKey &&
               index.target == IndexTargetKind::kKeys)) {
            return IndexQuery{.index = i, .value = part.value};
          }
        }
        break;
      case Kind::kIn:
        break;
    }
  }
  return std::nullopt;
}

Status SelectWhere::FinishPartitions(SelectPlan* plan) {
  partition_.resize(table_.partition_key_count());
  size_t restricted = 0;
  bool ranged = false;  // a slice or CONTAINS on a key column
  for (const auto& r : partition_) {
    if (!r) continue;
    ++restricted;
    ranged = ranged || r->kind == Kind::kSlice || r->kind == Kind::kContains;
  }
  if (token_) {
    if (token_->kind == Kind::kEq) {
      plan->token_start = plan->token_end = TermBound{token_->values[0], true, 1};
    } else {
      plan->token_start = token_->start;
      plan->token_end = token_->end;
    }
  }
  const bool filtering = restricted > 0 && (restricted < partition_.size() || ranged);
  if (restricted == 0 || filtering) {
    key_range_ = true;
    plan->partitions = token_ ? SelectPlan::Partitions::kTokenRange : SelectPlan::Partitions::kAll;
    // No partition key (nor token) relation: any index answering a
    // restriction is used.
    if (restricted == 0 && !token_) uses_index_ = queriable_;
    if (!filtering) return Status::Ok();
    if (queriable_) {
      uses_index_ = true;
    } else if (!allow_filtering_) {
      return Invalid(std::string(kRequiresAllowFiltering));
    }
    if (has_partition_key_in()) {
      return Invalid("IN restrictions are not supported when the query involves filtering");
    }
    filter_columns_ += restricted;
    filter_partition_ = true;
    for (const auto& r : partition_) {
      if (r) plan->filters.insert(plan->filters.end(), r->parts.begin(), r->parts.end());
    }
    return Status::Ok();
  }
  plan->partitions = SelectPlan::Partitions::kKeys;
  plan->partition_keys = {{}};
  for (const auto& r : partition_) {
    std::vector<std::vector<CqlTerm>> product;
    for (const std::vector<CqlTerm>& prefix : plan->partition_keys) {
      for (const CqlTerm& value : r->values) {
        product.push_back(prefix);
        product.back().push_back(value);
      }
    }
    plan->partition_keys = std::move(product);
  }
  return Status::Ok();
}

std::optional<IndexQuery> SelectWhere::ChooseIndex() const {
  for (const Restriction& r : others_) {
    if (std::optional<IndexQuery> index = IndexFor(r)) return index;
  }
  return std::nullopt;
}

bool SelectWhere::ClusteringNeedsFiltering() const {
  size_t position = 0;
  for (const Restriction& r : clustering_) {
    if (r.kind == Kind::kContains || r.kind == Kind::kLike || Position(r.columns[0]) != position) {
      return true;
    }
    if (r.kind != Kind::kSlice) position = Position(r.columns.back()) + 1;
  }
  return false;
}

Status SelectWhere::FinishClustering(SelectPlan* plan) {
  const bool contains = std::any_of(clustering_.begin(), clustering_.end(),
                                    [](const auto& r) { return r.kind == Kind::kContains; });
  if (contains && !queriable_ && !allow_filtering_) {
    return Invalid(
        "Clustering columns can only be restricted with CONTAINS with a secondary index or "
        "filtering");
  }
  // Clustering restrictions the read cannot narrow by are checked row by
  // row: through an index when any restriction has one (Cassandra's
  // queriable index; then no preceding-column refusal), else by filtering.
  const bool needs = ClusteringNeedsFiltering();
  if (needs && queriable_) {
    uses_index_ = true;
  } else if (needs && !allow_filtering_) {
    std::vector<size_t> restricted;
    for (const Restriction& r : clustering_) {
      restricted.insert(restricted.end(), r.columns.begin(), r.columns.end());
    }
    std::sort(restricted.begin(), restricted.end());
    const size_t first = table_.partition_key_count();
    for (size_t i = 0; i < restricted.size(); ++i) {
      if (restricted[i] != first + i) {
        return Invalid("PRIMARY KEY column \"" + Name(restricted[i]) +
                       "\" cannot be restricted as preceding column \"" + Name(first + i) +
                       "\" is not restricted");
      }
    }
  }
  // Covers indexes on the first clustering column, among others.
  if (key_range_ && std::any_of(clustering_.begin(), clustering_.end(),
                                [&](const Restriction& r) { return HasSupportingIndex(r); })) {
    uses_index_ = true;
  }
  if (uses_index_ || needs) {
    filter_columns_ += ColumnCount(clustering_);
    filter_clustering_ = !clustering_.empty();
  }
  size_t position = 0;
  bool sliced = false;
  for (Restriction& r : clustering_) {
    if (sliced || r.kind == Kind::kContains || r.kind == Kind::kLike ||
        Position(r.columns[0]) != position) {
      plan->filters.insert(plan->filters.end(), r.parts.begin(), r.parts.end());
      continue;
    }
    ClusteringStep step;
    step.kind = r.kind == Kind::kEq   ? ClusteringStep::Kind::kEq
                : r.kind == Kind::kIn ? ClusteringStep::Kind::kIn
                                      : ClusteringStep::Kind::kSlice;
    step.first = position;
    step.column_count = r.columns.size();
    step.multi_column = r.multi_column;
    step.values = r.values;
    step.start = r.start;
    step.end = r.end;
    plan->clustering.push_back(std::move(step));
    r.stepped = true;
    sliced = r.kind == Kind::kSlice;
    position = Position(r.columns.back()) + 1;
  }
  return Status::Ok();
}

}  // namespace cellfs
