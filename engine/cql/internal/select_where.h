// SelectWhere: a SELECT's WHERE clause sorted into Cassandra's restriction
// sets (partition key, token, clustering, other columns), merged relation by
// relation with Cassandra 4.x's checks, then turned into the partitions,
// clustering steps and filters of a SelectPlan (select_where.cc merges,
// select_where_finish.cc decides). Internal to engine/.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/schema.h"
#include "engine/cql/select_plan.h"
#include "engine/status.h"

namespace cellfs {

// StatementRestrictions.REQUIRES_ALLOW_FILTERING_MESSAGE.
inline constexpr std::string_view kRequiresAllowFiltering =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

// Cassandra 5.0's refusal of a restriction that needs filtering when the
// restricted column has an index that does not answer it
// (HAS_UNSUPPORTED_INDEX_RESTRICTION_MESSAGE_SINGLE / _MULTI, naming the
// columns as given: clustering columns by position, then the others by
// name).
std::string UnsupportedIndexRestriction(const std::vector<std::string>& columns);

// Cassandra 5.0's words for a name `table` lacks, as the data statements
// word it (4.x ends after the name): "Undefined column name x in table ks.t".
Status UndefinedColumn(const TableDef& table, const std::string& name);

// Not thread-safe; one per planning. `table` must outlive it.
class SelectWhere {
 public:
  SelectWhere(const TableDef& table, bool allow_filtering)
      : table_(table), allow_filtering_(allow_filtering) {}

  // Validates `relation` and merges it into its restriction set. Errors are
  // InvalidArgument with Cassandra's message ("Undefined column name x in table ks.t",
  // "More than one restriction was found for the start bound on c", ...).
  Status Add(const SelectRelation& relation);

  // After every Add: decides the partitions, the clustering steps and the
  // filters into *plan (StatementRestrictions' processing: partition key,
  // then clustering, then other columns). `selects_only_statics`: the
  // selection names static (and partition key) columns only.
  Status Finish(bool selects_only_statics, SelectPlan* plan);

  // Valid after Finish: the read spans a range of partitions (no exact keys).
  bool key_range() const { return key_range_; }
  bool has_clustering_restrictions() const { return !clustering_.empty(); }
  bool has_partition_key_in() const;
  // Restrictions on columns other than key columns, all on static columns.
  bool has_other_restrictions() const { return !others_.empty(); }
  // Whether an index answers a restriction (Cassandra's
  // usesSecondaryIndexing), whatever the partitions read. After Finish.
  bool uses_index() const { return uses_index_; }
  // StatementRestrictions.needFiltering, after Finish: the restrictions
  // the read checks row by row (the partition key's when it needs
  // filtering, the clustering columns' when they do or an index is used,
  // every other column's) are more than one, or none though clustering
  // columns are restricted, or include several CONTAINS; unless SAI
  // indexes answer every one of them (Cassandra 5.0's index group: SAI's
  // indexes answer a conjunction together).
  bool needs_filtering() const;
  // The refusal for a query that needs filtering without ALLOW FILTERING:
  // Cassandra 5.0 names the restricted columns that have an index not
  // answering their restriction, else kRequiresAllowFiltering.
  Status RequiresAllowFiltering() const;
  bool others_all_static() const;
  // Whether clustering position `position` is restricted by an =.
  bool IsClusteringRestrictedByEq(size_t position) const;

  // One merged restriction: the relations on one column (or, for a tuple,
  // on a run of clustering columns), in Cassandra's terms.
  struct Restriction {
    // kContains: CONTAINS, CONTAINS KEY (and != before it is refused).
    enum class Kind { kEq, kIn, kSlice, kContains, kLike };
    Kind kind = Kind::kEq;
    std::vector<size_t> columns;  // indexes in table.columns, ascending
    bool multi_column = false;
    std::vector<CqlTerm> values;  // kEq: one; kIn: the list
    std::optional<TermBound> start;
    std::optional<TermBound> end;
    std::vector<RowFilter> parts;  // the relations merged, as filters
    bool stepped = false;          // FinishClustering made it a clustering step
  };

 private:
  Status AddToken(const SelectRelation& relation, std::vector<size_t> columns);
  Status CheckTuple(const SelectRelation& relation, const std::vector<size_t>& columns) const;
  Status CheckColumnType(const SelectRelation& relation, const ColumnDef& def) const;
  // `m[key] = value`: on a non-frozen map, by = only, in Cassandra's words.
  Status CheckMapEntry(const SelectRelation& relation, const ColumnDef& def) const;
  // A LIKE needs an index that answers it (a SASI index on a literal
  // column): "LIKE restriction is only supported on properly indexed
  // columns. v LIKE 'a%' is not valid.", or with another index on the
  // column, Cassandra 5.0's "Index on column v does not support LIKE
  // restrictions.".
  Status CheckLikeIndexed(const SelectRelation& relation, size_t column) const;
  Status Merge(Restriction* existing, Restriction added) const;
  Status CheckClusteringOrder(const Restriction& added) const;
  Status AddClustering(Restriction added);
  Status FinishPartitions(SelectPlan* plan);
  Status FinishClustering(SelectPlan* plan);
  bool ClusteringNeedsFiltering() const;
  // The first restriction on a static or regular column that an index of
  // the table answers (SelectPlan::index).
  std::optional<IndexQuery> ChooseIndex() const;
  // The first restricted partition key component an index answers, if any.
  std::optional<IndexQuery> ChoosePartitionKeyIndex() const;
  // StatementRestrictions' hasQueriableIndex: some restriction, of any
  // column, is answered by an index.
  bool HasQueriableIndex() const;
  // An index answering restriction `r` of one column: an equality with a
  // plain or FULL index, a slice with SASI or SAI (IndexAnswersRanges), a
  // LIKE with a SASI index on a literal column (IndexAnswersLike).
  std::optional<IndexQuery> IndexFor(const Restriction& r) const;
  // The number of columns `restrictions` restrict (RestrictionSet.size).
  static size_t ColumnCount(const std::vector<Restriction>& restrictions);
  size_t Position(size_t column) const {
    return static_cast<size_t>(table_.columns[column].position);
  }
  const std::string& Name(size_t column) const { return table_.columns[column].name; }
  // A clustering column in DESC order (SASI reads its type as reversed).
  bool Reversed(size_t column) const {
    const ColumnDef& def = table_.columns[column];
    return def.kind == ColumnKind::kClustering && def.order == SortOrder::kDesc;
  }
  // StatementRestrictions' hasSupportingIndex of restriction `r`: an index
  // answers it, or for a tuple one of its columns' does, or for CONTAINS
  // one of its parts'. Wider than IndexFor, which picks the index a read
  // goes through.
  bool HasSupportingIndex(const Restriction& r) const;
  // Restriction.needsFiltering(group) for the SAI group is false: an SAI
  // index of the table answers the whole of `r` (each part of a CONTAINS;
  // for a tuple, one of its columns').
  bool SaiAnswers(const Restriction& r) const;
  // The SAI group answers every restriction checked row by row, so they
  // need no filtering (IndexRestrictions.needsFiltering over the groups).
  bool SaiGroupAnswersAll() const;

  const TableDef& table_;
  const bool allow_filtering_;
  std::vector<std::optional<Restriction>> partition_;  // by partition key position
  std::optional<Restriction> token_;
  std::vector<Restriction> clustering_;  // sorted by first clustering position
  std::vector<Restriction> others_;      // static and regular columns, in written order
  bool key_range_ = false;
  bool uses_index_ = false;
  bool queriable_ = false;          // HasQueriableIndex, set by Finish
  size_t filter_columns_ = 0;       // columns of the restrictions checked row by row
  bool filter_partition_ = false;   // the partition key's are among them
  bool filter_clustering_ = false;  // the clustering columns' are among them
};

}  // namespace cellfs
