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
  CELLFS_RETURN_IF_ERROR(FinishPartitions(plan));
  if (selects_only_statics && !clustering_.empty()) {
    return Invalid("Cannot restrict clustering columns when selecting only static columns");
  }
  CELLFS_RETURN_IF_ERROR(FinishClustering(plan));
  if (!others_.empty()) {
    std::optional<IndexQuery> index = ChooseIndex();
    // StatementRestrictions: an index answers one restriction; any other
    // restriction beside it (or a second CONTAINS) is filtering. A slice's
    // two bounds are one restriction.
    const bool more =
        others_.size() > 1 || (others_[0].kind != Kind::kSlice && others_[0].parts.size() > 1);
    if (!allow_filtering_ && (!index || more)) {
      return Invalid(std::string(kRequiresAllowFiltering));
    }
    uses_index_ = index.has_value();
    // StatementRestrictions.validateSecondaryIndexSelections.
    const bool clustering_in = std::any_of(clustering_.begin(), clustering_.end(),
                                           [](const auto& r) { return r.kind == Kind::kIn; });
    if (uses_index_ && (has_partition_key_in() || clustering_in)) {
      return Invalid(
          "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
    }
    if (index && plan->partitions == SelectPlan::Partitions::kAll) plan->index = std::move(index);
  }
  if (others_.empty() && key_range_ && plan->partitions == SelectPlan::Partitions::kAll) {
    if (std::optional<IndexQuery> index = ChooseClusteringIndex()) {
      // An index on the one restricted clustering column answers it across
      // partitions (Cassandra's clustering restriction turned index
      // expression). The restriction stays a clustering step and also
      // becomes a filter, whose typed value the lookup takes.
      uses_index_ = true;
      plan->index = std::move(index);
      const Restriction& r = clustering_.front();
      plan->filters.insert(plan->filters.end(), r.parts.begin(), r.parts.end());
    }
  }
  for (const Restriction& r : others_) {
    plan->filters.insert(plan->filters.end(), r.parts.begin(), r.parts.end());
  }
  return Status::Ok();
}

std::optional<IndexQuery> SelectWhere::ChoosePartitionKeyIndex(size_t restricted) const {
  if (restricted != 1 || token_ || !others_.empty() || !clustering_.empty()) return std::nullopt;
  for (const auto& r : partition_) {
    if (r) return IndexFor(*r);
  }
  return std::nullopt;
}

std::optional<IndexQuery> SelectWhere::IndexFor(const Restriction& r) const {
  if (r.columns.size() != 1 || r.multi_column || (r.kind != Kind::kEq && r.kind != Kind::kSlice)) {
    return std::nullopt;
  }
  for (size_t i = 0; i < table_.indexes.size(); ++i) {
    const IndexDef& index = table_.indexes[i];
    if (index.column != Name(r.columns[0])) continue;
    if (index.target != IndexTargetKind::kSimple && index.target != IndexTargetKind::kFull) {
      continue;
    }
    if (r.kind == Kind::kEq) return IndexQuery{i, r.values[0]};
    if (IndexAnswersRanges(index, *table_.columns[r.columns[0]].type)) {
      return IndexQuery{i, CqlTerm{}, true};
    }
  }
  return std::nullopt;
}

std::optional<IndexQuery> SelectWhere::ChooseClusteringIndex() const {
  if (clustering_.size() != 1) return std::nullopt;
  return IndexFor(clustering_.front());
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
    if (!filtering) return Status::Ok();
    if (std::optional<IndexQuery> index = ChoosePartitionKeyIndex(restricted)) {
      // The one restricted component of the partition key, answered by its
      // index (StatementRestrictions' "has queriable index").
      uses_index_ = true;
      plan->index = std::move(index);
    } else if (!allow_filtering_) {
      return Invalid(std::string(kRequiresAllowFiltering));
    }
    if (has_partition_key_in()) {
      return Invalid("IN restrictions are not supported when the query involves filtering");
    }
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
    if (r.columns.size() != 1 || r.parts.empty()) continue;
    if (std::optional<IndexQuery> whole = IndexFor(r)) return whole;
    if (r.kind != Kind::kContains) continue;
    const RowFilter& first = r.parts[0];
    for (size_t i = 0; i < table_.indexes.size(); ++i) {
      const IndexDef& index = table_.indexes[i];
      if (index.column != Name(r.columns[0])) continue;
      if ((first.op == SelectRelation::Op::kContains && index.target == IndexTargetKind::kValues) ||
          (first.op == SelectRelation::Op::kContainsKey &&
           index.target == IndexTargetKind::kKeys)) {
        return IndexQuery{i, first.value};
      }
    }
  }
  return std::nullopt;
}

bool SelectWhere::ClusteringNeedsFiltering() const {
  size_t position = 0;
  for (const Restriction& r : clustering_) {
    if (r.kind == Kind::kContains || Position(r.columns[0]) != position) return true;
    if (r.kind != Kind::kSlice) position = Position(r.columns.back()) + 1;
  }
  return false;
}

Status SelectWhere::FinishClustering(SelectPlan* plan) {
  const bool contains = std::any_of(clustering_.begin(), clustering_.end(),
                                    [](const auto& r) { return r.kind == Kind::kContains; });
  if (contains && !allow_filtering_) {
    return Invalid(
        "Clustering columns can only be restricted with CONTAINS with a secondary index or "
        "filtering");
  }
  // A clustering column restricted out of order is answered by its index
  // when it has one (Cassandra's queriable index): no preceding-column
  // refusal then.
  const bool indexed = others_.empty() && ChooseClusteringIndex().has_value();
  if (!allow_filtering_ && !indexed && ClusteringNeedsFiltering()) {
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
  size_t position = 0;
  bool sliced = false;
  for (const Restriction& r : clustering_) {
    if (sliced || r.kind == Kind::kContains || Position(r.columns[0]) != position) {
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
    sliced = r.kind == Kind::kSlice;
    position = Position(r.columns.back()) + 1;
  }
  return Status::Ok();
}

}  // namespace cellfs
