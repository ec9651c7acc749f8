// SaiOptions: StorageAttachedIndex.validateOptions and NonTokenizingOptions.
#include "engine/cql/sai_options.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/cql/internal/index_schema.h"

namespace cellfs {
namespace {

constexpr std::string_view kCaseSensitive = "case_sensitive";
constexpr std::string_view kNormalize = "normalize";
constexpr std::string_view kAscii = "ascii";

bool IsAnalysisOption(std::string_view name) {
  return name == kCaseSensitive || name == kNormalize || name == kAscii;
}

bool IsVectorOption(std::string_view name) {
  return name == "maximum_node_connections" || name == "construction_beam_width" ||
         name == "similarity_function" || name == "optimize_for";
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// IndexTermType's isString: text and ascii (varchar is text).
bool IsString(const CqlType& type) {
  return type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii;
}

// StorageAttachedIndex.SUPPORTED_TYPES, or frozen (a complex type that is
// not multi-cell: a frozen collection or UDT, a tuple).
bool SupportedTermType(const CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBlob:
    case TypeKind::kCounter:
    case TypeKind::kDuration:
      return false;
    default:
      return true;
  }
}

// TypeUtil.cellValueType: the values an index on `column` as `target` holds.
// For entries, the key and value types (IndexTermType.subTypes).
std::vector<const CqlType*> IndexedTypes(const ColumnDef& column, IndexTargetKind target) {
  const CqlType& type = *column.type;
  const auto& params = type.params();
  switch (target) {
    case IndexTargetKind::kKeys:
      return {params[0].get()};
    case IndexTargetKind::kValues:
      return {params.back().get()};
    case IndexTargetKind::kEntries:
      return {params[0].get(), params[1].get()};
    case IndexTargetKind::kSimple:
    case IndexTargetKind::kFull:
      break;
  }
  return {&type};
}

}  // namespace

Status ValidateSaiOptions(const IndexDef& index, const ColumnDef& column, const TableDef& table) {
  std::vector<std::string> unknown;
  for (const auto& [name, value] : index.options) {
    if (!IsAnalysisOption(name) && !IsVectorOption(name)) unknown.push_back(name);
  }
  if (!unknown.empty()) {
    std::sort(unknown.begin(), unknown.end());
    std::string list;
    for (const std::string& name : unknown) list += (list.empty() ? "" : ", ") + name;
    return Status::InvalidArgument("Properties specified [" + list +
                                   "] are not understood by StorageAttachedIndex");
  }
  for (const IndexDef& other : table.indexes) {
    if (&other == &index || other.name == index.name) continue;
    if (IndexFamilyOf(other.custom_class) == IndexFamily::kSai && other.column == index.column &&
        other.target == index.target) {
      return Status::InvalidArgument(
          "Cannot create more than one storage-attached index on the same column: " + column.name);
    }
  }
  std::string analysis;  // CqlBuilder's map: {'k': 'v', ...}, sorted by key
  for (const auto& [name, value] : index.options) {
    if (!IsAnalysisOption(name)) continue;
    std::string quoted;  // CqlBuilder doubles quotes inside a value
    for (char c : value) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    analysis += (analysis.empty() ? "{'" : ", '") + name + "': '" + quoted + "'";
  }
  const std::vector<const CqlType*> types = IndexedTypes(column, index.target);
  if (!analysis.empty()) {
    analysis += "}";
    if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
      return Status::InvalidArgument(
          "Analysis options are not supported on primary key columns, but found " + analysis);
    }
    // AbstractAnalyzer.fromOptions on the index's term type (an entries
    // index's is a composite, never a string).
    if (types.size() != 1 || !IsString(*types[0])) {
      const std::string term =
          types.size() == 1 ? types[0]->ToCql() : types[0]->ToCql() + ", " + types[1]->ToCql();
      return Status::InvalidArgument("CQL type " + term + " cannot be analyzed.");
    }
    for (const auto& [name, value] : index.options) {
      if (!IsAnalysisOption(name)) continue;
      if (value.empty()) {
        return Status::InvalidArgument("Empty value for boolean option '" + name + "'");
      }
      const std::string lower = Lower(value);
      if (lower != "true" && lower != "false") {
        return Status::InvalidArgument("Illegal value for boolean option '" + name + "': " + value);
      }
    }
  }
  for (const auto& [name, value] : index.options) {
    if (IsVectorOption(name)) {
      // IndexTermType's type: the indexed values' (a list's element type).
      const std::string term =
          types.size() == 1 ? types[0]->ToCql() : types[0]->ToCql() + ", " + types[1]->ToCql();
      return Status::InvalidArgument("CQL type " + term + " cannot have vector options");
    }
  }
  for (const CqlType* type : types) {
    if (!SupportedTermType(*type)) {
      return Status::InvalidArgument("Unsupported type: " + type->ToCql());
    }
  }
  const SaiOptions options = ReadSaiOptions(index);
  if (options.ascii) {
    return Status::NotSupported(
        "the SAI option 'ascii' (Lucene's ASCII folding) is not supported by cellfs");
  }
  if (SaiAnalyzes(options) && index.target != IndexTargetKind::kSimple) {
    return Status::NotSupported(
        "SAI analysis options on a collection's elements are not supported by cellfs");
  }
  return Status::Ok();
}

SaiOptions ReadSaiOptions(const IndexDef& index) {
  SaiOptions out;
  for (const auto& [name, value] : index.options) {
    const bool on = Lower(value) == "true";
    if (name == kCaseSensitive) out.case_sensitive = on;
    if (name == kNormalize) out.normalize = on;
    if (name == kAscii) out.ascii = on;
  }
  return out;
}

bool SaiAnalyzes(const SaiOptions& options) {
  return !options.case_sensitive || options.normalize || options.ascii;
}

}  // namespace cellfs
