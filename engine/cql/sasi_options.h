// SasiOptions: what a SASI index's WITH OPTIONS mean for the queries it
// answers (Cassandra's IndexMode and NonTokenizingOptions): its mode, whether
// it indexes the column as a literal, and how it analyses values.
#pragma once

#include <string>

#include "engine/cql/cql_type.h"
#include "engine/cql/schema.h"

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

// Reads `index`'s options (names exact, values in any case as Java reads
// them). Options SASI does not know are ignored, as SASI ignores them.
SasiOptions ReadSasiOptions(const IndexDef& index);

// ColumnIndex.isLiteral: the is_literal option, else whether `type` is
// text or ascii.
bool SasiIsLiteral(const SasiOptions& options, const CqlType& type);

// Whether the analysed index on a column of `type` normalises values the
// way NonTokenizingAnalyzer does (cellfs's TextAnalyzer): an analyzer_class
// naming NonTokenizingAnalyzer, on text or ascii. The other analysers
// (StandardAnalyzer, DelimiterAnalyzer, and `analyzed` without a class on
// text) split values into tokens, which cellfs does not do.
bool SasiAnalyzesWithoutTokens(const SasiOptions& options, const CqlType& type);

}  // namespace cellfs
