// Cell contents as files: the newline convention, raw blobs, literal text for
// everything else, counter deltas, and the collection merges behind `>>`.
#include "fs/formats/cell_text.h"

#include <charconv>
#include <cstdint>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"

namespace cellfs::fs {
namespace {

bool IsTextKind(TypeKind kind) { return kind == TypeKind::kText || kind == TypeKind::kAscii; }

std::string_view DropOneNewline(std::string_view content) {
  if (!content.empty() && content.back() == '\n') content.remove_suffix(1);
  return content;
}

// Whether `content` is strict UTF-8 (RFC 3629) but for a sequence cut short
// by its end, which more bytes may complete.
bool IsUtf8Prefix(std::string_view content) {
  size_t i = 0;
  while (i < content.size()) {
    const auto lead = static_cast<unsigned char>(content[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;   // overlong
      if (lead == 0xED) high = 0x9F;  // UTF-16 surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;   // overlong
      if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return false;
    }
    for (size_t k = 1; k < length; ++k) {
      if (i + k == content.size()) return true;
      const auto b = static_cast<unsigned char>(content[i + k]);
      if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) return false;
    }
    i += length;
  }
  return true;
}

// Appends the items of list/set/map value `value` (map keys and values
// alternating) to *items. The 0-byte empty value holds none.
Status AppendItems(std::string_view value, size_t items_per_entry,
                   std::vector<std::string>* items) {
  if (value.empty()) return Status::Ok();
  std::vector<std::string_view> views;
  CELLFS_RETURN_IF_ERROR(
      UnpackCollection(value, items_per_entry, &views).WithContext("malformed collection value"));
  items->insert(items->end(), views.begin(), views.end());
  return Status::Ok();
}

// Canonicalizing the concatenation merges as CQL does: of equal set
// elements or map keys the current one's bytes stay (they come first), and a
// map takes the appended value (the last), as `SET m = m + {...}` does.
Result<std::string> AppendCollection(const CqlType& type, std::string_view current,
                                     std::string_view appended) {
  const size_t stride = type.kind() == TypeKind::kMap ? 2 : 1;
  std::vector<std::string> items;
  CELLFS_RETURN_IF_ERROR(AppendItems(current, stride, &items));
  CELLFS_RETURN_IF_ERROR(AppendItems(appended, stride, &items));
  if (type.kind() == TypeKind::kList) {
    if (items.size() > INT32_MAX) {
      return Status::InvalidArgument("list would exceed 2^31-1 elements");
    }
  } else if (type.kind() == TypeKind::kSet) {
    CanonicalizeSet(*type.params()[0], &items);
  } else {
    CanonicalizeMap(*type.params()[0], &items);
  }
  return PackCollection(items, stride);
}

}  // namespace

std::string FormatCellContent(const CqlType& type, std::string_view value) {
  if (type.kind() == TypeKind::kBlob) return std::string(value);
  std::string content = IsTextKind(type.kind()) ? std::string(value) : FormatLiteral(type, value);
  content += '\n';
  return content;
}

Result<std::string> ParseCellContent(const CqlType& type, std::string_view content) {
  if (type.kind() == TypeKind::kBlob) return std::string(content);
  const std::string_view text = DropOneNewline(content);
  Result<std::string> parsed = ParseLiteral(type, text);
  if (parsed.ok()) return parsed;
  // Literal errors may quote the whole input, which for a file can be huge.
  constexpr size_t kMaxDetail = 200;
  std::string detail = parsed.status().message();
  if (detail.size() > kMaxDetail) detail = detail.substr(0, kMaxDetail) + "...";
  return Status::InvalidArgument("invalid " + type.ToCql() + " value " + QuoteForMessage(text) +
                                 ": " + detail);
}

Result<std::string> ParseCheckedTextContent(const CqlType& type, std::string_view content) {
  const std::string_view text = DropOneNewline(content);
  // The last character starts at the last byte that is not a UTF-8
  // continuation byte (at most three back); a prefix-valid text is valid
  // when that character is whole.
  size_t last = text.size();
  for (int i = 0; i < 4 && last > 0; ++i) {
    --last;
    if ((static_cast<unsigned char>(text[last]) & 0xC0) != 0x80) break;
  }
  if (!ParseLiteral(type, text.substr(last)).ok()) return ParseCellContent(type, content);
  return std::string(text);
}

bool IsValidTextPrefix(const CqlType& type, std::string_view content) {
  if (type.kind() != TypeKind::kAscii) return IsUtf8Prefix(content);
  for (char c : content) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

Result<int64_t> ParseCounterDelta(std::string_view content) {
  const std::string_view text = DropOneNewline(content);
  int64_t delta = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, delta);
  if (text.empty() || ec != std::errc() || ptr != end) {
    const std::string why =
        ec == std::errc::result_out_of_range ? " is out of range for" : " is not";
    return Status::InvalidArgument("counter delta " + QuoteForMessage(text) + why +
                                   " a signed 64-bit decimal integer");
  }
  return delta;
}

Result<std::string> AppendCellValue(const CqlType& type, bool has_current, std::string_view current,
                                    std::string_view appended) {
  const bool concatenates = IsTextKind(type.kind()) || type.kind() == TypeKind::kBlob;
  if (!concatenates && !(type.is_collection() && !type.frozen())) {
    return Status::InvalidArgument("append is not defined for " + type.ToCql());
  }
  // A 0-byte current collection is Cassandra's empty value: nothing to keep.
  if (!has_current || (current.empty() && !concatenates)) return std::string(appended);
  if (concatenates) return std::string(current).append(appended);
  return AppendCollection(type, current, appended);
}

namespace {

// Whether a bracket or a single-quoted string is still open in `content`.
bool HasOpenStructure(std::string_view content) {
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < content.size(); ++i) {
    char c = content[i];
    if (quoted) {
      if (c == '\'') quoted = false;  // a doubled quote reopens at once
      continue;
    }
    if (c == '\'') quoted = true;
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
  }
  return quoted || depth > 0;
}

// The bytes the spellings of a native type are made of.
std::string_view Alphabet(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kInt:
    case TypeKind::kSmallint:
    case TypeKind::kTinyint:
    case TypeKind::kVarint:
      return "0123456789+-";
    case TypeKind::kDecimal:
    case TypeKind::kDouble:
    case TypeKind::kFloat:
      return "0123456789+-.eENaInfity";
    case TypeKind::kUuid:
      return "0123456789abcdefABCDEF-";
    case TypeKind::kTimeuuid:
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
      // Dates, zones (UTC, GMT) and the names of time functions
      // (minTimeuuid, now, currentTimestamp; their arguments come after an
      // open '(').
      return "0123456789-:.+ abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    case TypeKind::kBoolean:
      return "truefalsTRUEFALS";
    case TypeKind::kInet:
      return "0123456789abcdefABCDEF:.";
    case TypeKind::kDuration:
      return "0123456789PTYMWDHSUNmohdswuµns";
    default:
      return "";
  }
}

}  // namespace

bool CouldBecomeValid(const CqlType& type, std::string_view content) {
  if (!content.empty() && content.back() == '\n') return false;
  if (HasOpenStructure(content)) return true;
  std::string_view alphabet = Alphabet(type.kind());
  if (alphabet.empty()) return false;
  return content.find_first_not_of(alphabet) == std::string_view::npos;
}

}  // namespace cellfs::fs
