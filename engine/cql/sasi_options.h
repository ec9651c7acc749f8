// SasiOptions: what a SASI index's WITH OPTIONS mean for the queries it
// answers (Cassandra's IndexMode and NonTokenizingOptions): its mode, whether
// it indexes the column as a literal, and how it analyses values.
#pragma once

#include <string>

#include "engine/cql/cql_type.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

struct SasiOptions {
  // OnDiskIndexBuilder.Mode; the default is PREFIX.
  enum class Mode { kPrefix, kContains, kSparse };
  Mode mode = Mode::kPrefix;
  // The is_literal option as Boolean.parseBoolean reads it, when given.
  bool literal_given = false;
  bool literal = false;
  // IndexMode.isAnalyzed: an analyzer_class without `analyzed: false`, or
  // `analyzed: true`.
  bool analyzed = false;
  std::string analyzer_class;  // as written; empty when none
  // NonTokenizingOptions (read whether or not the index is analysed).
  bool case_sensitive = true;
  bool normalize_lowercase = false;
  bool normalize_uppercase = false;
};

// SASIIndex.validateOptions at CREATE INDEX, after the target's checks, in
// Cassandra's words: "complex columns are not yet supported by SASI" (a
// non-frozen collection or UDT); an analyzer_class that is none of SASI's
// four, "Invalid analyzer class option specified [x]", or one not for the
// column's type, "StandardAnalyzer does not support type int"; "Incorrect
// index mode: x"; "SPARSE mode is only supported on non-literal columns.";
// "SPARSE mode doesn't support analyzers."; for NonTokenizingAnalyzer, the
// options its NonTokenizingOptions refuses (Cassandra when it first
// analyses a value, cellfs here): "case_sensitive option cannot be
// specified together with either normalize_lowercase or
// normalize_uppercase", "Options to normalize terms cannot be both
// uppercase and lowercase at the same time".
Status ValidateSasiOptions(const IndexDef& index, const ColumnDef& column);

// Reads `index`'s options (names exact, values in any case as Java reads
// them). Options SASI does not know are ignored, as SASI ignores them.
SasiOptions ReadSasiOptions(const IndexDef& index);

// ColumnIndex.isLiteral: the is_literal option, else whether the column's
// value type is text or ascii. A clustering column in DESC order is not
// (its value type is Cassandra's ReversedType): `reversed`.
bool SasiIsLiteral(const SasiOptions& options, const CqlType& type, bool reversed);

// What a SASI index's analyser does to values of `type` (IndexMode.getAnalyzer):
// kNone without one (or NoOpAnalyzer, or a type no analyser handles);
// kNormalize for NonTokenizingAnalyzer on text or ascii (TextAnalyzer:
// case folding and NFC); kTokens for the analysers that split text into
// tokens (StandardAnalyzer, DelimiterAnalyzer, `analyzed` without a class),
// which cellfs does not implement.
// A DESC clustering column (`reversed`) is kNone: its ReversedType is no
// type an analyser handles.
enum class SasiAnalysis { kNone, kNormalize, kTokens };
SasiAnalysis SasiAnalysisOf(const SasiOptions& options, const CqlType& type, bool reversed);

}  // namespace cellfs
