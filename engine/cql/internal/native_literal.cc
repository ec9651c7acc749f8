// Native CQL values: the non-numeric, non-temporal kinds parsed and printed
// here, the rest dispatched to their own modules.
#include "engine/cql/internal/native_literal.h"

#include <arpa/inet.h>

#include <cstdint>
#include <cstring>

#include "engine/cql/internal/duration_literal.h"
#include "engine/cql/internal/numeric_literal.h"
#include "engine/cql/internal/temporal_literal.h"
#include "engine/cql/internal/time_functions.h"
#include "engine/cql/internal/utf8.h"

namespace cellfs {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

std::string TypeName(TypeKind kind) { return std::string(NativeTypeName(kind)); }

std::string HexByte(unsigned char b) {
  return std::string("0x") + kHexDigits[b >> 4] + kHexDigits[b & 0xf];
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsIntegerKind(TypeKind kind) {
  return kind == TypeKind::kTinyint || kind == TypeKind::kSmallint || kind == TypeKind::kInt ||
         kind == TypeKind::kBigint || kind == TypeKind::kCounter || kind == TypeKind::kVarint;
}

bool IsTemporalKind(TypeKind kind) {
  return kind == TypeKind::kTimestamp || kind == TypeKind::kDate || kind == TypeKind::kTime ||
         kind == TypeKind::kDuration;
}

// --- text and ascii ---

Status ValidateText(std::string_view bytes) {
  const size_t bad = FindInvalidUtf8(bytes);
  if (bad == std::string_view::npos) return Status::Ok();
  return Status::InvalidArgument("invalid UTF-8 in text value at byte " + std::to_string(bad) +
                                 " (" + HexByte(static_cast<unsigned char>(bytes[bad])) + ")");
}

Status ValidateAscii(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    if (b >= 0x80) {
      return Status::InvalidArgument("non-ASCII byte " + HexByte(b) + " at byte " +
                                     std::to_string(i) + " of ascii value");
    }
  }
  return Status::Ok();
}

// --- blob ---

Status ParseBlob(std::string_view text, std::string* out) {
  if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
    return Status::InvalidArgument("invalid blob " + QuoteForMessage(text) +
                                   ": expected 0x and hex digits");
  }
  const std::string_view hex = text.substr(2);
  if (hex.size() % 2 != 0) {
    return Status::InvalidArgument("invalid blob " + QuoteForMessage(text) +
                                   ": odd number of hex digits");
  }
  out->clear();
  out->reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexValue(hex[i]);
    const int low = HexValue(hex[i + 1]);
    if (high < 0 || low < 0) {
      const char bad = high < 0 ? hex[i] : hex[i + 1];
      return Status::InvalidArgument("invalid blob " + QuoteForMessage(text) + ": " +
                                     QuoteForMessage(std::string_view(&bad, 1)) +
                                     " is not a hex digit");
    }
    out->push_back(static_cast<char>(high * 16 + low));
  }
  return Status::Ok();
}

std::string FormatBlob(std::string_view bytes) {
  std::string text = "0x";
  text.reserve(2 + 2 * bytes.size());
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    text += kHexDigits[b >> 4];
    text += kHexDigits[b & 0xf];
  }
  return text;
}

// --- boolean ---

Status ParseBoolean(std::string_view text, std::string* out) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (lower == "true" || lower == "false") {
    *out = std::string(1, lower == "true" ? '\1' : '\0');
    return Status::Ok();
  }
  return Status::InvalidArgument("invalid boolean " + QuoteForMessage(text) +
                                 ": expected true or false");
}

Status ValidateBoolean(std::string_view bytes) {
  if (bytes.size() != 1) {
    return Status::InvalidArgument("a boolean value is 1 byte, got " +
                                   std::to_string(bytes.size()));
  }
  if (bytes[0] != '\0' && bytes[0] != '\1') {
    return Status::InvalidArgument("invalid boolean byte " +
                                   HexByte(static_cast<unsigned char>(bytes[0])) +
                                   " (expected 0x00 or 0x01)");
  }
  return Status::Ok();
}

// --- uuid and timeuuid ---

// The version nibble, bits 4-7 of byte 6, as Cassandra's TimeUUIDType checks.
int UuidVersion(std::string_view bytes) { return static_cast<unsigned char>(bytes[6]) >> 4; }

Status CheckTimeuuidVersion(std::string_view bytes) {
  if (UuidVersion(bytes) == 1) return Status::Ok();
  return Status::InvalidArgument("a timeuuid must be a version 1 (time-based) uuid, got version " +
                                 std::to_string(UuidVersion(bytes)));
}

Status ParseUuid(TypeKind kind, std::string_view text, std::string* out) {
  bool well_formed = text.size() == 36;
  std::string bytes;
  for (size_t i = 0; well_formed && i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      well_formed = text[i] == '-';
      ++i;
      continue;
    }
    const int high = HexValue(text[i]);
    const int low = HexValue(text[i + 1]);
    well_formed = high >= 0 && low >= 0;
    if (well_formed) bytes.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  if (!well_formed) {
    return Status::InvalidArgument("invalid " + TypeName(kind) + " " + QuoteForMessage(text) +
                                   ": expected 8-4-4-4-12 hex digits");
  }
  if (kind == TypeKind::kTimeuuid) {
    Status status = CheckTimeuuidVersion(bytes);
    if (!status.ok()) return status.WithContext("invalid timeuuid " + QuoteForMessage(text));
  }
  *out = std::move(bytes);
  return Status::Ok();
}

std::string FormatUuid(std::string_view bytes) {
  std::string text;
  text.reserve(36);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    const auto b = static_cast<unsigned char>(bytes[i]);
    text += kHexDigits[b >> 4];
    text += kHexDigits[b & 0xf];
  }
  return text;
}

Status ValidateUuid(TypeKind kind, std::string_view bytes) {
  if (bytes.size() != 16) {
    return Status::InvalidArgument("a " + TypeName(kind) + " value is 16 bytes, got " +
                                   std::to_string(bytes.size()));
  }
  return kind == TypeKind::kTimeuuid ? CheckTimeuuidVersion(bytes) : Status::Ok();
}

// --- inet ---

Status ParseInet(std::string_view text, std::string* out) {
  const std::string address(text);  // inet_pton needs a terminated string
  unsigned char buffer[16];
  if (address.find('\0') == std::string::npos) {
    if (inet_pton(AF_INET, address.c_str(), buffer) == 1) {
      out->assign(reinterpret_cast<const char*>(buffer), 4);
      return Status::Ok();
    }
    if (inet_pton(AF_INET6, address.c_str(), buffer) == 1) {
      out->assign(reinterpret_cast<const char*>(buffer), 16);
      return Status::Ok();
    }
  }
  return Status::InvalidArgument("invalid inet " + QuoteForMessage(text) +
                                 ": expected an IPv4 or IPv6 address");
}

std::string FormatInet(std::string_view bytes) {
  // inet_ntop reads 4 or 16 bytes whatever it is given; an invalid value
  // (a decoded corrupt key, say) must not make it read past the end.
  if (bytes.size() != 4 && bytes.size() != 16) return "";
  char text[INET6_ADDRSTRLEN];
  const int family = bytes.size() == 4 ? AF_INET : AF_INET6;
  if (inet_ntop(family, bytes.data(), text, sizeof text) == nullptr) return "";
  return text;
}

Status ValidateInet(std::string_view bytes) {
  if (bytes.size() == 4 || bytes.size() == 16) return Status::Ok();
  return Status::InvalidArgument("an inet value is 4 or 16 bytes, got " +
                                 std::to_string(bytes.size()));
}

// --- numbers: what ValidateNumericValue accepts, narrowed to canonical ---

// True when no leading byte merely repeats the sign of the next one.
bool IsMinimalVarint(std::string_view bytes) {
  if (bytes.size() < 2) return !bytes.empty();
  const auto first = static_cast<unsigned char>(bytes[0]);
  const bool next_negative = (static_cast<unsigned char>(bytes[1]) & 0x80) != 0;
  return !((first == 0x00 && !next_negative) || (first == 0xff && next_negative));
}

Status CheckCanonicalNumber(TypeKind kind, std::string_view bytes) {
  if (kind == TypeKind::kVarint && !IsMinimalVarint(bytes)) {
    return Status::InvalidArgument("varint value " + FormatBlob(bytes) +
                                   " is not in minimal two's complement");
  }
  if (kind == TypeKind::kDecimal && !IsMinimalVarint(bytes.substr(4))) {
    return Status::InvalidArgument("decimal value " + FormatBlob(bytes) +
                                   ": the unscaled part is empty or not minimal");
  }
  if (kind != TypeKind::kFloat && kind != TypeKind::kDouble) return Status::Ok();
  uint64_t bits = 0;
  for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
  const bool non_canonical_nan =
      (kind == TypeKind::kFloat && (bits & 0x7f800000) == 0x7f800000 && (bits & 0x007fffff) != 0 &&
       bits != 0x7fc00000) ||
      (kind == TypeKind::kDouble && (bits & 0x7ff0000000000000) == 0x7ff0000000000000 &&
       (bits & 0x000fffffffffffff) != 0 && bits != 0x7ff8000000000000);
  if (non_canonical_nan) {
    return Status::InvalidArgument(TypeName(kind) + " value " + FormatBlob(bytes) +
                                   " is a NaN other than the canonical quiet NaN");
  }
  return Status::Ok();
}

}  // namespace

std::string QuoteForMessage(std::string_view text) {
  constexpr size_t kMaxShown = 64;
  std::string quoted = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      quoted += text[i];
    } else {
      quoted += std::string("\\x") + kHexDigits[b >> 4] + kHexDigits[b & 0xf];
    }
  }
  if (text.size() > kMaxShown) quoted += "...";
  return quoted + "'";
}

Status ParseNativeLiteral(TypeKind kind, std::string_view text, std::string* out) {
  if (text.empty()) {
    if (kind == TypeKind::kText || kind == TypeKind::kAscii) {
      out->clear();
      return Status::Ok();
    }
    return Status::InvalidArgument("empty value for " + TypeName(kind));
  }
  if (IsIntegerKind(kind)) return ParseIntegerLiteral(kind, text, out);
  const bool is_time = kind == TypeKind::kTimeuuid || kind == TypeKind::kTimestamp ||
                       kind == TypeKind::kDate || kind == TypeKind::kTime;
  if (is_time && LooksLikeTimeFunction(text)) return ParseTimeFunction(kind, text, out);
  if (kind == TypeKind::kTimestamp && text.size() == 3 && (text[0] | 0x20) == 'n' &&
      (text[1] | 0x20) == 'o' && (text[2] | 0x20) == 'w') {
    // TimestampSerializer's own spelling of the current moment.
    return ParseTimeFunction(kind, "currentTimestamp()", out);
  }
  switch (kind) {
    case TypeKind::kText:
      CELLFS_RETURN_IF_ERROR(ValidateText(text));
      *out = std::string(text);
      return Status::Ok();
    case TypeKind::kAscii:
      CELLFS_RETURN_IF_ERROR(ValidateAscii(text));
      *out = std::string(text);
      return Status::Ok();
    case TypeKind::kBlob:
      return ParseBlob(text, out);
    case TypeKind::kBoolean:
      return ParseBoolean(text, out);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return ParseUuid(kind, text, out);
    case TypeKind::kInet:
      return ParseInet(text, out);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return ParseFloatingLiteral(kind, text, out);
    case TypeKind::kDecimal:
      return ParseDecimalLiteral(text, out);
    case TypeKind::kTimestamp:
      return ParseTimestampLiteral(text, out);
    case TypeKind::kDate:
      return ParseDateLiteral(text, out);
    case TypeKind::kTime:
      return ParseTimeLiteral(text, out);
    case TypeKind::kDuration:
      return ParseDurationLiteral(text, out);
    default:
      return Status::InvalidArgument(TypeName(kind) + " is not a native type");
  }
}

std::string FormatNativeLiteral(TypeKind kind, std::string_view bytes) {
  if (bytes.empty()) return kind == TypeKind::kBlob ? "0x" : "";
  if (IsIntegerKind(kind)) return FormatIntegerLiteral(kind, bytes);
  switch (kind) {
    case TypeKind::kText:
    case TypeKind::kAscii:
      return std::string(bytes);
    case TypeKind::kBlob:
      return FormatBlob(bytes);
    case TypeKind::kBoolean:
      return bytes[0] != '\0' ? "true" : "false";
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return FormatUuid(bytes);
    case TypeKind::kInet:
      return FormatInet(bytes);
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return FormatFloatingLiteral(kind, bytes);
    case TypeKind::kDecimal:
      return FormatDecimalLiteral(bytes);
    case TypeKind::kTimestamp:
      return FormatTimestampLiteral(bytes);
    case TypeKind::kDate:
      return FormatDateLiteral(bytes);
    case TypeKind::kTime:
      return FormatTimeLiteral(bytes);
    case TypeKind::kDuration:
      return FormatDurationLiteral(bytes);
    default:
      return "";
  }
}

std::string FormatNativeTerm(TypeKind kind, std::string_view bytes) {
  const bool quoted = kind == TypeKind::kText || kind == TypeKind::kAscii ||
                      kind == TypeKind::kInet || kind == TypeKind::kTimestamp ||
                      kind == TypeKind::kDate || kind == TypeKind::kTime;
  if (bytes.empty() && kind != TypeKind::kText && kind != TypeKind::kAscii &&
      kind != TypeKind::kBlob) {
    return "blobas" + TypeName(kind) + "(0x)";
  }
  const std::string text = FormatNativeLiteral(kind, bytes);
  if (!quoted) return text;
  std::string term = "'";
  for (char c : text) {
    if (c == '\'') term += '\'';  // CQL doubles a quote inside a string
    term += c;
  }
  return term + "'";
}

Status ValidateNativeValue(TypeKind kind, std::string_view bytes) {
  if (bytes.empty()) return Status::Ok();
  switch (kind) {
    case TypeKind::kText:
      return ValidateText(bytes);
    case TypeKind::kAscii:
      return ValidateAscii(bytes);
    case TypeKind::kBlob:
      return Status::Ok();
    case TypeKind::kBoolean:
      return ValidateBoolean(bytes);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return ValidateUuid(kind, bytes);
    case TypeKind::kInet:
      return ValidateInet(bytes);
    default:
      break;
  }
  if (IsTemporalKind(kind)) return ValidateTemporalValue(kind, bytes);
  CELLFS_RETURN_IF_ERROR(ValidateNumericValue(kind, bytes));
  return CheckCanonicalNumber(kind, bytes);
}

}  // namespace cellfs
