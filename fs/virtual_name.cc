// Virtual names: recognising @cql, @schema, @insert, @json, @csv, @stats and
// the slice directories, and splitting @ttl= / @timestamp= suffixes off data
// names. Grammar and rules in fs/virtual_name.h.
#include "fs/virtual_name.h"

#include <limits>

#include "engine/cell.h"

namespace cellfs::fs {
namespace {

using Kind = VirtualName::Kind;

constexpr std::string_view kTtlKeyword = "@ttl=";
constexpr std::string_view kTimestampKeyword = "@timestamp=";
constexpr std::string_view kLimitKeyword = "@limit=";

// Canonical unsigned decimal ("0", or digits without a leading zero) of at
// most `max`. Checks each step against `max`, so no input overflows.
bool ParseCanonicalUnsigned(std::string_view text, uint64_t max, uint64_t* value) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (digit > max || v > (max - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool IsSuffixShaped(std::string_view segment) {
  return segment.starts_with(kTtlKeyword) || segment.starts_with(kTimestampKeyword);
}

// Parses one suffix-shaped segment ("@ttl=60") into `out`.
Status ParseSuffix(std::string_view segment, WriteSuffixes* out) {
  bool is_ttl = segment.starts_with(kTtlKeyword);
  std::optional<int64_t>* slot = is_ttl ? &out->ttl : &out->timestamp;
  std::string_view keyword = is_ttl ? kTtlKeyword : kTimestampKeyword;
  if (slot->has_value()) {
    return Status::InvalidArgument(std::string(keyword.substr(0, keyword.size() - 1)) +
                                   " is given twice");
  }
  std::string_view text = segment.substr(keyword.size());
  int64_t value = 0;
  CELLFS_RETURN_IF_ERROR(is_ttl ? ParseTtlText(text, &value) : ParseTimestampText(text, &value));
  *slot = value;
  return Status::Ok();
}

struct FixedName {
  std::string_view text;
  Kind kind;
};

constexpr FixedName kFixedNames[] = {
    {"@cql", Kind::kCql},         {"@schema", Kind::kSchema}, {"@insert", Kind::kInsert},
    {"@json", Kind::kJson},       {"@csv", Kind::kCsv},       {"@stats", Kind::kStats},
    {"@reverse", Kind::kReverse}, {"@stats.json", Kind::kStatsJson},
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
    if (at == std::string_view::npos || !IsSuffixShaped(rest.substr(at))) return false;
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

Status ParseTtlText(std::string_view text, int64_t* seconds) {
  uint64_t value = 0;
  if (!ParseCanonicalUnsigned(text, kMaxTtlSeconds, &value)) {
    return Status::InvalidArgument("TTL must be a decimal integer from 0 to " +
                                   std::to_string(kMaxTtlSeconds) +
                                   " seconds, without sign or leading zeros; got " + Quoted(text));
  }
  *seconds = static_cast<int64_t>(value);
  return Status::Ok();
}

Status ParseTimestampText(std::string_view text, int64_t* micros) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  bool negative = text.starts_with('-');
  uint64_t magnitude = 0;
  // The magnitude bound leaves INT64_MIN out; "-0" is not canonical.
  if (!ParseCanonicalUnsigned(negative ? text.substr(1) : text, uint64_t{kMax}, &magnitude) ||
      (negative && magnitude == 0)) {
    return Status::InvalidArgument("timestamp must be a decimal integer of microseconds from " +
                                   std::to_string(-kMax) + " to " + std::to_string(kMax) +
                                   ", without '+' or leading zeros; got " + Quoted(text));
  }
  int64_t value = static_cast<int64_t>(magnitude);
  *micros = negative ? -value : value;
  return Status::Ok();
}

Status SplitWriteSuffixes(std::string_view name, std::string_view* base, WriteSuffixes* out) {
  *out = WriteSuffixes{};
  std::string_view rest = name;
  for (;;) {
    size_t at = rest.rfind('@');
    if (at == std::string_view::npos || at == 0 || !IsSuffixShaped(rest.substr(at))) break;
    Status status = ParseSuffix(rest.substr(at), out);
    if (!status.ok()) return status.WithContext(Quoted(name));
    rest = rest.substr(0, at);
  }
  *base = rest;
  return Status::Ok();
}

std::string FormatWriteSuffixes(const WriteSuffixes& suffixes) {
  std::string text;
  if (suffixes.ttl) text += std::string(kTtlKeyword) + std::to_string(*suffixes.ttl);
  if (suffixes.timestamp) {
    text += std::string(kTimestampKeyword) + std::to_string(*suffixes.timestamp);
  }
  return text;
}

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
  return ParseFixedName(name, out);
}

bool IsAllowedIn(VirtualName::Kind kind, TreeLevel level) {
  switch (kind) {
    case Kind::kCql:
      return level == TreeLevel::kMountRoot;
    case Kind::kSchema:
      return level == TreeLevel::kKeyspace || level == TreeLevel::kTable;
    case Kind::kInsert:
    case Kind::kStats:
    case Kind::kStatsJson:
      return level == TreeLevel::kTable;
    case Kind::kJson:
      return level == TreeLevel::kTable || level == TreeLevel::kPartition ||
             level == TreeLevel::kSlice || level == TreeLevel::kRow;
    case Kind::kCsv:
      return level == TreeLevel::kTable || level == TreeLevel::kPartition ||
             level == TreeLevel::kSlice;
    case Kind::kSliceBound:
    case Kind::kLimit:
    case Kind::kReverse:
      return level == TreeLevel::kPartition || level == TreeLevel::kSlice;
  }
  return false;
}

}  // namespace cellfs::fs
