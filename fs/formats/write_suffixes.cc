// Write suffixes (fs/formats/write_suffixes.h): splitting @ttl= /
// @timestamp= runs off names and checking their values.
#include "fs/formats/write_suffixes.h"

#include <limits>

#include "engine/store/cell.h"

namespace cellfs::fs {
namespace {

constexpr std::string_view kTtlKeyword = "@ttl=";
constexpr std::string_view kTimestampKeyword = "@timestamp=";
constexpr std::string_view kUpdateFlag = "@update";

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// Parses one suffix-shaped segment ("@ttl=60") into `out`.
Status ParseSuffix(std::string_view segment, WriteAttributes* out) {
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

}  // namespace

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

bool IsWriteSuffixShaped(std::string_view segment) {
  return segment.starts_with(kTtlKeyword) || segment.starts_with(kTimestampKeyword);
}

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

Status SplitWriteSuffixes(std::string_view name, std::string_view* base, WriteAttributes* out) {
  *out = WriteAttributes{};
  std::string_view rest = name;
  for (;;) {
    size_t at = rest.rfind('@');
    if (at == std::string_view::npos || at == 0 || !IsWriteSuffixShaped(rest.substr(at))) break;
    Status status = ParseSuffix(rest.substr(at), out);
    if (!status.ok()) return status.WithContext(Quoted(name));
    rest = rest.substr(0, at);
  }
  *base = rest;
  return Status::Ok();
}

bool SplitUpdateFlag(std::string_view name, std::string_view* base) {
  if (name.size() <= kUpdateFlag.size() || !name.ends_with(kUpdateFlag)) return false;
  *base = name.substr(0, name.size() - kUpdateFlag.size());
  return true;
}

std::string FormatWriteSuffixes(const WriteAttributes& suffixes) {
  std::string text;
  if (suffixes.ttl) text += std::string(kTtlKeyword) + std::to_string(*suffixes.ttl);
  if (suffixes.timestamp) {
    text += std::string(kTimestampKeyword) + std::to_string(*suffixes.timestamp);
  }
  return text;
}

}  // namespace cellfs::fs
