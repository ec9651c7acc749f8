// TextAnalyzer: the NonTokenizingAnalyzer of SASI and of SAI on text and
// ascii values, the normalisation an analysed index applies to both the
// values it indexes and the values a query compares them with.
//  - SASI (`'analyzer_class':
//    'org.apache.cassandra.index.sasi.analyzer.NonTokenizingAnalyzer'`):
//    lower case with `case_sensitive: false` (or `normalize_lowercase:
//    true`), upper case with `normalize_uppercase: true`, then always
//    Unicode NFC.
//  - SAI (`case_sensitive: false`, `normalize: true`): lower case, then NFC
//    only when `normalize` is true.
// Case maps are ICU's full mappings in the root locale (Java's
// String.toLowerCase in an English default locale; Turkish dotless i and
// the like differ).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/cql/schema.h"

namespace cellfs {

class TextAnalyzer {
 public:
  // The analyser of `index` on `column`, when it normalises: a SASI index
  // whose SasiAnalysisOf is kNormalize, or an SAI index on a regular or
  // static text column with an analysis option off its default; nullopt
  // otherwise.
  static std::optional<TextAnalyzer> For(const IndexDef& index, const ColumnDef& column);

  // `value` (valid UTF-8) normalised. Thread-safe.
  std::string Analyze(std::string_view value) const;

  // Whether stored values are compared analysed too: a literal index
  // (ColumnIndex.isLiteral). A non-literal one (`is_literal: false`)
  // analyses only the query's value and compares it with the raw values,
  // as SASI's Expression does.
  bool analyzes_stored_values() const { return literal_; }

 private:
  enum class Case { kKeep, kLower, kUpper };
  TextAnalyzer(Case mapping, bool nfc, bool literal)
      : case_(mapping), nfc_(nfc), literal_(literal) {}
  Case case_;
  bool nfc_;
  bool literal_;
};

}  // namespace cellfs
