// TextAnalyzer: NonTokenizingAnalyzer's filter pipeline and normalize(),
// with ICU's case mapping and NFC.
#include "engine/cql/text_analyzer.h"

#include <unicode/bytestream.h>
#include <unicode/casemap.h>
#include <unicode/normalizer2.h>
#include <unicode/stringpiece.h>

#include "engine/cql/internal/index_schema.h"
#include "engine/cql/sai_options.h"
#include "engine/cql/sasi_options.h"

namespace cellfs {

std::optional<TextAnalyzer> TextAnalyzer::For(const IndexDef& index, const ColumnDef& column) {
  const IndexFamily family = IndexFamilyOf(index.custom_class);
  if (family == IndexFamily::kSai) {
    // SAI's NonTokenizingAnalyzer: to_lower, then normalize; CREATE INDEX
    // refused analysis off text columns, on key columns and on elements.
    const SaiOptions options = ReadSaiOptions(index);
    const TypeKind kind = column.type->kind();
    if (!SaiAnalyzes(options) || index.target != IndexTargetKind::kSimple ||
        (kind != TypeKind::kText && kind != TypeKind::kAscii)) {
      return std::nullopt;
    }
    return TextAnalyzer(options.case_sensitive ? Case::kKeep : Case::kLower, options.normalize,
                        true);
  }
  if (family != IndexFamily::kSasi) return std::nullopt;
  const SasiOptions options = ReadSasiOptions(index);
  const bool reversed = column.kind == ColumnKind::kClustering && column.order == SortOrder::kDesc;
  if (SasiAnalysisOf(options, *column.type, reversed) != SasiAnalysis::kNormalize) {
    return std::nullopt;
  }
  // NonTokenizingAnalyzer.getFilterPipeline: case-insensitive lowers;
  // otherwise normalize_lowercase lowers and normalize_uppercase uppers
  // (CREATE INDEX refused options that set both, or either beside
  // case_sensitive: ValidateSasiOptions).
  Case mapping = Case::kKeep;
  if (!options.case_sensitive) {
    mapping = Case::kLower;
  } else if (options.normalize_uppercase) {
    mapping = Case::kUpper;
  } else if (options.normalize_lowercase) {
    mapping = Case::kLower;
  }
  return TextAnalyzer(mapping, true, SasiIsLiteral(options, *column.type, reversed));
}

std::string TextAnalyzer::Analyze(std::string_view value) const {
  UErrorCode status = U_ZERO_ERROR;
  const icu::StringPiece input(value.data(), static_cast<int32_t>(value.size()));
  std::string mapped;
  if (case_ != Case::kKeep) {
    icu::StringByteSink<std::string> sink(&mapped);
    if (case_ == Case::kLower) {
      icu::CaseMap::utf8ToLower("", 0, input, sink, nullptr, status);
    } else {
      icu::CaseMap::utf8ToUpper("", 0, input, sink, nullptr, status);
    }
    if (U_FAILURE(status)) return std::string(value);
  } else {
    mapped.assign(value);
  }
  if (!nfc_) return mapped;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) return mapped;
  const icu::StringPiece piece(mapped.data(), static_cast<int32_t>(mapped.size()));
  if (nfc->isNormalizedUTF8(piece, status) && U_SUCCESS(status)) return mapped;
  status = U_ZERO_ERROR;
  std::string normalized;
  icu::StringByteSink<std::string> sink(&normalized);
  nfc->normalizeUTF8(0, piece, sink, nullptr, status);
  return U_FAILURE(status) ? mapped : normalized;
}

}  // namespace cellfs
