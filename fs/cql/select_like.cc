// LIKE filters: LikeRestriction.addToRowFilter's binding and index choice.
#include "fs/cql/select_like.h"

#include <utility>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/cql/like_pattern.h"
#include "engine/cql/sasi_options.h"
#include "fs/cql/dml_writer.h"

namespace cellfs::fs {

Status BuildLikeFilter(const TableSchema& table, const RowFilter& filter, TypedFilter* out) {
  const ColumnDef& column = table.column(filter.columns[0]);
  out->columns = filter.columns;
  out->op = filter.op;
  std::string value;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseValueTerm(*column.type, filter.value, column.name, &value, &is_null));
  if (is_null) {
    return ErrorAt(filter.value.position,
                   "Invalid null value in condition for column " + QuoteIdentifier(column.name));
  }
  LikePattern pattern;
  CELLFS_RETURN_IF_ERROR(ParseLikePattern(value, &pattern));
  // SecondaryIndexManager.getBestIndexFor: some index of the column must
  // answer this form of LIKE.
  bool answered = false;
  for (const IndexDef& index : table.def.indexes) {
    if (index.column != column.name || !IndexAnswersLike(index, *column.type)) continue;
    answered = answered || SasiModeAnswersLike(ReadSasiOptions(index).mode, pattern.kind);
  }
  if (!answered) {
    return Status::InvalidArgument(column.name + " " + std::string(LikeKindText(pattern.kind)) +
                                   " " + pattern.term +
                                   " is only supported on properly indexed columns");
  }
  out->like_kind = pattern.kind;
  out->values = {std::move(pattern.term)};
  return Status::Ok();
}

IndexBounds LikeIndexBounds(const TypedFilter& filter) {
  const std::string& term = filter.values[0];
  switch (filter.like_kind) {
    case LikePattern::Kind::kMatches:
      return IndexBounds::Equal(term);
    case LikePattern::Kind::kPrefix: {
      // Text orders byte by byte, and UTF-8 never holds 0xFF: the values
      // the term prefixes are those from it to its last byte plus one.
      std::string past = term;
      while (!past.empty() && static_cast<unsigned char>(past.back()) == 0xFF) past.pop_back();
      if (past.empty()) return IndexBounds{term, true, std::nullopt, true};
      past.back() = static_cast<char>(static_cast<unsigned char>(past.back()) + 1);
      return IndexBounds{term, true, std::move(past), false};
    }
    case LikePattern::Kind::kSuffix:
    case LikePattern::Kind::kContains:
      break;
  }
  return IndexBounds{std::nullopt, true, std::nullopt, true};
}

}  // namespace cellfs::fs
