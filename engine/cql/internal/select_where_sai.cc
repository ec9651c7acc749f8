// SelectWhere's reading of Cassandra 5.0's SAI index group: the SAI
// indexes of a table answer a conjunction of their restrictions together,
// so such a query needs no ALLOW FILTERING where 4.x's one-index rule
// (needs_filtering's count) would ask for it.
#include <algorithm>

#include "engine/cql/internal/index_schema.h"
#include "engine/cql/internal/select_where.h"

namespace cellfs {
namespace {

using Kind = SelectWhere::Restriction::Kind;

bool IsSai(const IndexDef& index) { return IndexFamilyOf(index.custom_class) == IndexFamily::kSai; }

// Whether SAI index `index` answers CONTAINS part `part` (Operator
// CONTAINS on values(), CONTAINS KEY on keys(), m[k] = v on entries()).
bool AnswersPart(const IndexDef& index, const RowFilter& part) {
  if (part.map_key) return index.target == IndexTargetKind::kEntries;
  if (part.op == SelectRelation::Op::kContains) return index.target == IndexTargetKind::kValues;
  return part.op == SelectRelation::Op::kContainsKey && index.target == IndexTargetKind::kKeys;
}

}  // namespace

bool SelectWhere::SaiAnswers(const Restriction& r) const {
  for (size_t column : r.columns) {
    const CqlType& type = *table_.columns[column].type;
    for (const IndexDef& index : table_.indexes) {
      if (!IsSai(index) || index.column != Name(column)) continue;
      switch (r.kind) {
        case Kind::kEq:
          if (IndexAnswersEquality(index, type)) return true;
          break;
        case Kind::kSlice:
          if (IndexAnswersRanges(index, type, Reversed(column))) return true;
          break;
        case Kind::kContains:
          // One index answers every part (ContainsRestriction.isSupportedBy);
          // SAI's do several CONTAINS without filtering.
          if (std::all_of(r.parts.begin(), r.parts.end(),
                          [&](const RowFilter& part) { return AnswersPart(index, part); })) {
            return true;
          }
          break;
        case Kind::kIn:
        case Kind::kLike:
          break;
      }
    }
    if (!r.multi_column) break;  // a tuple: any of its columns' indexes
  }
  return false;
}

bool SelectWhere::SaiGroupAnswersAll() const {
  auto answered = [&](const Restriction& r) { return SaiAnswers(r); };
  if (filter_partition_ && std::any_of(partition_.begin(), partition_.end(),
                                       [&](const auto& r) { return r && !answered(*r); })) {
    return false;
  }
  if (filter_clustering_ && !std::all_of(clustering_.begin(), clustering_.end(), answered)) {
    return false;
  }
  return std::all_of(others_.begin(), others_.end(), answered);
}

}  // namespace cellfs
