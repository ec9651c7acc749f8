// Virtual names: recognising @cql, @schema, @insert, @json, @csv, @stats and
// the slice directories. Grammar and rules in fs/tree/virtual_name.h.
#include "fs/tree/virtual_name.h"

#include <limits>

namespace cellfs::fs {
namespace {

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

using Kind = VirtualName::Kind;

constexpr std::string_view kLimitKeyword = "@limit=";
constexpr std::string_view kColumnsKeyword = "@columns=";

struct FixedName {
  std::string_view text;
  Kind kind;
};

constexpr FixedName kFixedNames[] = {
    {"@cql", Kind::kCql},         {"@schema", Kind::kSchema},
    {"@insert", Kind::kInsert},   {"@json", Kind::kJson},
    {"@csv", Kind::kCsv},         {"@stats", Kind::kStats},
    {"@reverse", Kind::kReverse}, {"@stats.json", Kind::kStatsJson},
    {"@errors", Kind::kErrors},   {"@count", Kind::kCount},
    {"@where", Kind::kWhere},     {"@by", Kind::kBy},
    {"@status", Kind::kStatus},
};

struct BoundName {
  std::string_view prefix;
  bool lower;
  bool inclusive;
};

constexpr BoundName kBoundNames[] = {
    {"@ge=", true, true},
    {"@gt=", true, false},
    {"@le=", false, true},
    {"@lt=", false, false},
};

// The fixed name `name` starts with, followed by nothing or by '@'.
const FixedName* FindFixedName(std::string_view name) {
  for (const FixedName& fixed : kFixedNames) {
    if (name.starts_with(fixed.text) &&
        (name.size() == fixed.text.size() || name[fixed.text.size()] == '@')) {
      return &fixed;
    }
  }
  return nullptr;
}

// Whether every '@' segment of `rest` ("", or "@ttl=1@timestamp=2") has a
// suffix keyword: only then is the whole name a fixed name with suffixes.
bool IsSuffixRun(std::string_view rest) {
  while (!rest.empty()) {
    size_t at = rest.rfind('@');
    if (at == std::string_view::npos || !IsWriteSuffixShaped(rest.substr(at))) return false;
    rest = rest.substr(0, at);
  }
  return true;
}

Status ParseFixedName(std::string_view name, VirtualName* out) {
  const FixedName* fixed = FindFixedName(name);
  if (fixed == nullptr || !IsSuffixRun(name.substr(fixed->text.size()))) {
    return Status::NotFound("no virtual name " + Quoted(name));
  }
  std::string_view base;
  CELLFS_RETURN_IF_ERROR(SplitWriteSuffixes(name, &base, &out->write));
  if (!out->write.empty() && fixed->kind != Kind::kInsert) {
    return Status::InvalidArgument(Quoted(name) + ": only @insert takes @ttl= and @timestamp=");
  }
  out->kind = fixed->kind;
  return Status::Ok();
}

Status ParseLimit(std::string_view name, VirtualName* out) {
  uint64_t limit = 0;
  if (!ParseCanonicalUnsigned(name.substr(kLimitKeyword.size()),
                              std::numeric_limits<uint64_t>::max(), &limit) ||
      limit == 0) {
    return Status::InvalidArgument(
        Quoted(name) + ": the limit must be a decimal integer from 1 to " +
        std::to_string(std::numeric_limits<uint64_t>::max()) + ", without sign or leading zeros");
  }
  out->kind = Kind::kLimit;
  out->limit = limit;
  return Status::Ok();
}

}  // namespace

bool IsVirtualName(std::string_view name) { return name.starts_with('@'); }

Status ParseVirtualName(std::string_view name, VirtualName* out) {
  *out = VirtualName{};
  if (!IsVirtualName(name)) return Status::NotFound(Quoted(name) + " is not a virtual name");
  for (const BoundName& bound : kBoundNames) {
    if (!name.starts_with(bound.prefix)) continue;
    if (name.size() == bound.prefix.size()) {
      return Status::InvalidArgument(Quoted(name) + ": a slice bound needs a clustering key");
    }
    out->kind = Kind::kSliceBound;
    out->lower_bound = bound.lower;
    out->inclusive = bound.inclusive;
    out->bound_text = std::string(name.substr(bound.prefix.size()));
    return Status::Ok();
  }
  if (name.starts_with(kLimitKeyword)) return ParseLimit(name, out);
  if (name.starts_with(kColumnsKeyword)) {
    if (name.size() == kColumnsKeyword.size()) {
      return Status::InvalidArgument(Quoted(name) + ": a projection needs column names");
    }
    out->kind = Kind::kColumns;
    out->columns_text = std::string(name.substr(kColumnsKeyword.size()));
    return Status::Ok();
  }
  return ParseFixedName(name, out);
}

std::string_view FixedVirtualName(VirtualName::Kind kind) {
  for (const FixedName& fixed : kFixedNames) {
    if (fixed.kind == kind) return fixed.text;
  }
  return {};
}

bool IsAllowedIn(VirtualName::Kind kind, TreeLevel level) {
  switch (kind) {
    case Kind::kCql:
    case Kind::kErrors:
    case Kind::kStatus:
      return level == TreeLevel::kMountRoot;
    case Kind::kSchema:
      return level == TreeLevel::kKeyspace || level == TreeLevel::kTable;
    case Kind::kInsert:
    case Kind::kStats:
    case Kind::kStatsJson:
      return level == TreeLevel::kTable;
    case Kind::kJson:
      return level == TreeLevel::kTable || level == TreeLevel::kPartition ||
             level == TreeLevel::kSlice || level == TreeLevel::kQuery || level == TreeLevel::kRow;
    case Kind::kCsv:
    case Kind::kCount:
    case Kind::kWhere:
    case Kind::kColumns:
    case Kind::kLimit:
      return level == TreeLevel::kTable || level == TreeLevel::kPartition ||
             level == TreeLevel::kSlice || level == TreeLevel::kQuery;
    case Kind::kSliceBound:
      // In a query only after @by/<column> (QueryAllows): a slice of the
      // index's values.
      return level == TreeLevel::kPartition || level == TreeLevel::kSlice ||
             level == TreeLevel::kQuery;
    case Kind::kReverse:
      return level == TreeLevel::kPartition || level == TreeLevel::kSlice;
    case Kind::kBy:
      return level == TreeLevel::kTable;
  }
  return false;
}

}  // namespace cellfs::fs
