// SASI text matching: LikeRestriction.addToRowFilter's binding and index
// choice, and the analysed comparisons of SASI's Expression.isSatisfiedBy.
#include "fs/cql/select_like.h"

#include <utility>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/cql/like_pattern.h"
#include "engine/cql/sasi_options.h"
#include "engine/cql/text_analyzer.h"
#include "fs/cql/dml_writer.h"

namespace cellfs::fs {
namespace {

// The text after every text starting with `prefix`: its last character
// (a code point of text, a byte of ascii) made the next one, dropping
// maximal ones first. UTF-8 orders as code points do, so the values with
// the prefix are exactly those from it up to this one. nullopt when every
// character is maximal.
std::optional<std::string> PastPrefix(std::string prefix, bool ascii) {
  while (!prefix.empty()) {
    size_t start = prefix.size() - 1;
    while (!ascii && start > 0 && (static_cast<unsigned char>(prefix[start]) & 0xC0) == 0x80) {
      --start;
    }
    uint32_t cp = 0;
    const auto lead = static_cast<unsigned char>(prefix[start]);
    const size_t length = prefix.size() - start;
    cp = length == 1   ? lead
         : length == 2 ? lead & 0x1Fu
         : length == 3 ? lead & 0x0Fu
                       : lead & 0x07u;
    for (size_t i = start + 1; i < prefix.size(); ++i) {
      cp = (cp << 6) | (static_cast<unsigned char>(prefix[i]) & 0x3Fu);
    }
    prefix.resize(start);
    const uint32_t max = ascii ? 0x7F : 0x10FFFF;
    if (cp >= max) continue;
    ++cp;
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;  // no surrogates in UTF-8
    if (cp < 0x80) {
      prefix += static_cast<char>(cp);
    } else if (cp < 0x800) {
      prefix += static_cast<char>(0xC0 | (cp >> 6));
      prefix += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      prefix += static_cast<char>(0xE0 | (cp >> 12));
      prefix += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      prefix += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      prefix += static_cast<char>(0xF0 | (cp >> 18));
      prefix += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      prefix += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      prefix += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return prefix;
  }
  return std::nullopt;
}

}  // namespace

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
  // SecondaryIndexManager.getBestIndexFor: the first index of the column
  // that answers this form of LIKE.
  const IndexDef* answering = nullptr;
  for (const IndexDef& index : table.def.indexes) {
    const bool reversed =
        column.kind == ColumnKind::kClustering && column.order == SortOrder::kDesc;
    if (index.column == column.name && IndexAnswersLike(index, *column.type, reversed) &&
        SasiModeAnswersLike(ReadSasiOptions(index).mode, pattern.kind)) {
      answering = &index;
      break;
    }
  }
  if (answering == nullptr) {
    return Status::InvalidArgument(column.name + " " + std::string(LikeKindText(pattern.kind)) +
                                   " " + pattern.term +
                                   " is only supported on properly indexed columns");
  }
  if (SasiAnalysisOf(ReadSasiOptions(*answering), *column.type, false) == SasiAnalysis::kTokens) {
    return Status::NotSupported("LIKE through SASI index " + answering->name +
                                ", whose analyzer splits values into tokens, is not supported by "
                                "cellfs");
  }
  out->analyzer = TextAnalyzer::For(*answering, column);
  out->like_kind = pattern.kind;
  out->values = {out->analyzer ? out->analyzer->Analyze(pattern.term) : std::move(pattern.term)};
  return Status::Ok();
}

void AnalyzeEquality(const TableSchema& table, TypedFilter* out) {
  const ColumnDef& column = table.column(out->columns[0]);
  for (const IndexDef& index : table.def.indexes) {
    if (index.column != column.name || !IndexAnswersEquality(index, *column.type)) continue;
    out->analyzer = TextAnalyzer::For(index, column);
    if (out->analyzer) out->values[0] = out->analyzer->Analyze(out->values[0]);
    return;
  }
}

bool TextFilterMatches(const TypedFilter& filter, std::string_view value) {
  std::string analysed;
  if (filter.analyzer && filter.analyzer->analyzes_stored_values()) {
    analysed = filter.analyzer->Analyze(value);
    value = analysed;
  }
  if (filter.op == SelectRelation::Op::kLike) {
    return LikeMatches(LikePattern{filter.like_kind, filter.values[0]}, value);
  }
  return value == filter.values[0];
}

IndexBounds TextIndexBounds(const TypedFilter& filter, const CqlType& type) {
  const std::string& term = filter.values[0];
  const bool like = filter.op == SelectRelation::Op::kLike;
  // Stored values compared raw (no analyser, or a non-literal index's).
  const bool raw = !filter.analyzer || !filter.analyzer->analyzes_stored_values();
  if (raw && (!like || filter.like_kind == LikePattern::Kind::kMatches)) {
    return IndexBounds::Equal(term);
  }
  if (raw && filter.like_kind == LikePattern::Kind::kPrefix) {
    return IndexBounds{term, true, PastPrefix(term, type.kind() == TypeKind::kAscii), false,
                       nullptr};
  }
  // Stored values are not analysed: every one is tested.
  return IndexBounds{std::nullopt, true, std::nullopt, true,
                     [filter](std::string_view value) { return TextFilterMatches(filter, value); }};
}

}  // namespace cellfs::fs
