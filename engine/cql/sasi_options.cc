// SasiOptions: IndexMode.getMode's reading of a SASI index's options.
#include "engine/cql/sasi_options.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace cellfs {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Java's Boolean.parseBoolean: "true" in any case, anything else false.
bool ParseBoolean(const std::string& value) { return Lower(value) == "true"; }

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr std::string_view kAnalyzerPackage = "org.apache.cassandra.index.sasi.analyzer.";

}  // namespace

Status ValidateSasiOptions(const IndexDef& index, const ColumnDef& column) {
  const CqlType& type = *column.type;
  if (type.is_multi_cell()) {
    return Status::InvalidArgument("complex columns are not yet supported by SASI");
  }
  const bool reversed = column.kind == ColumnKind::kClustering && column.order == SortOrder::kDesc;
  const bool text =
      !reversed && (type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii);
  std::string mode_given;
  for (const auto& [name, value] : index.options) {
    if (name == "mode") mode_given = value;
    if (name != "analyzer_class") continue;
    // IndexMode.validateAnalyzer: Class.forName, then isCompatibleWith.
    const std::string simple =
        value.starts_with(kAnalyzerPackage) ? value.substr(kAnalyzerPackage.size()) : "";
    if (simple != "NoOpAnalyzer" && simple != "NonTokenizingAnalyzer" &&
        simple != "StandardAnalyzer" && simple != "DelimiterAnalyzer") {
      return Status::InvalidArgument("Invalid analyzer class option specified [" + value + "]");
    }
    if (simple != "NoOpAnalyzer" && !text) {
      return Status::InvalidArgument(simple + " does not support type " + type.ToCql());
    }
  }
  const std::string mode = Lower(mode_given);
  if (!mode_given.empty() && mode != "prefix" && mode != "contains" && mode != "sparse") {
    return Status::InvalidArgument("Incorrect index mode: " + mode_given);
  }
  // NonTokenizingOptions.buildFromMap, which Cassandra runs when the
  // analyser first analyses (a write or a query fails); cellfs refuses the
  // options at CREATE INDEX instead.
  const SasiOptions read = ReadSasiOptions(index);
  if (read.analyzed && EndsWith(read.analyzer_class, "NonTokenizingAnalyzer")) {
    bool case_given = false;
    bool normalize_given = false;
    for (const auto& [name, value] : index.options) {
      case_given |= name == "case_sensitive";
      normalize_given |= name == "normalize_lowercase" || name == "normalize_uppercase";
    }
    if (case_given && normalize_given) {
      return Status::InvalidArgument(
          "case_sensitive option cannot be specified together with either normalize_lowercase "
          "or normalize_uppercase");
    }
    if (read.normalize_lowercase && read.normalize_uppercase) {
      return Status::InvalidArgument(
          "Options to normalize terms cannot be both uppercase and lowercase at the same time");
    }
  }
  if (mode == "sparse") {
    const SasiOptions options = ReadSasiOptions(index);
    if (SasiIsLiteral(options, type, reversed)) {
      return Status::InvalidArgument("SPARSE mode is only supported on non-literal columns.");
    }
    if (options.analyzed) return Status::InvalidArgument("SPARSE mode doesn't support analyzers.");
  }
  return Status::Ok();
}

SasiOptions ReadSasiOptions(const IndexDef& index) {
  SasiOptions out;
  bool analyzed_given = false;
  bool analyzed = false;
  for (const auto& [name, value] : index.options) {
    if (name == "mode") {
      const std::string mode = Lower(value);
      out.mode = mode == "contains" ? SasiOptions::Mode::kContains
                 : mode == "sparse" ? SasiOptions::Mode::kSparse
                                    : SasiOptions::Mode::kPrefix;
    } else if (name == "is_literal") {
      out.literal_given = true;
      out.literal = ParseBoolean(value);
    } else if (name == "analyzed") {
      analyzed_given = true;
      analyzed = ParseBoolean(value);
    } else if (name == "analyzer_class") {
      out.analyzer_class = value;
    } else if (name == "case_sensitive") {
      out.case_sensitive = ParseBoolean(value);
    } else if (name == "normalize_lowercase") {
      out.normalize_lowercase = ParseBoolean(value);
    } else if (name == "normalize_uppercase") {
      out.normalize_uppercase = ParseBoolean(value);
    }
  }
  out.analyzed = !out.analyzer_class.empty() ? (!analyzed_given || analyzed) : analyzed;
  return out;
}

bool SasiIsLiteral(const SasiOptions& options, const CqlType& type, bool reversed) {
  if (options.literal_given) return options.literal;
  return !reversed && (type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii);
}

SasiAnalysis SasiAnalysisOf(const SasiOptions& options, const CqlType& type, bool reversed) {
  const bool text =
      !reversed && (type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii);
  if (!options.analyzed || !text || EndsWith(options.analyzer_class, "NoOpAnalyzer")) {
    return SasiAnalysis::kNone;
  }
  if (EndsWith(options.analyzer_class, "NonTokenizingAnalyzer")) return SasiAnalysis::kNormalize;
  return SasiAnalysis::kTokens;
}

}  // namespace cellfs
