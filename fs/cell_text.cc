// Cell contents as files: the newline convention, raw blobs, literal text for
// everything else, counter deltas, and the collection merges behind `>>`.
#include "fs/cell_text.h"

#include <charconv>
#include <cstddef>
#include <vector>

#include "engine/key_codec.h"
#include "engine/literal.h"

namespace cellfs::fs {
namespace {

bool IsTextKind(TypeKind kind) { return kind == TypeKind::kText || kind == TypeKind::kAscii; }

std::string_view DropOneNewline(std::string_view content) {
  if (!content.empty() && content.back() == '\n') content.remove_suffix(1);
  return content;
}

// `text` for an error message: at most 64 bytes, non-printable bytes as \xNN.
std::string QuoteForMessage(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  constexpr size_t kMaxShown = 64;
  std::string quoted = "'";
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7f) {
      quoted += text[i];
    } else {
      quoted += std::string("\\x") + kHex[b >> 4] + kHex[b & 0xf];
    }
  }
  if (text.size() > kMaxShown) quoted += "...";
  return quoted + "'";
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

// --- collection framing (docs/FORMAT.md "Values") ---

uint32_t ReadUint32(std::string_view bytes) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

void AppendUint32(uint32_t value, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((value >> shift) & 0xff));
  }
}

// Splits a list/set/map value into its items (map keys and values
// alternating). The 0-byte empty value holds none.
Status UnpackItems(std::string_view value, size_t items_per_entry,
                   std::vector<std::string_view>* items) {
  items->clear();
  if (value.empty()) return Status::Ok();
  const Status truncated = Status::InvalidArgument("malformed collection value");
  if (value.size() < 4) return truncated;
  const uint32_t count = ReadUint32(value);
  if (count > INT32_MAX) return truncated;
  value.remove_prefix(4);
  for (size_t i = 0; i < size_t{count} * items_per_entry; ++i) {
    if (value.size() < 4) return truncated;
    const uint32_t length = ReadUint32(value);
    if (length > INT32_MAX || value.size() - 4 < length) return truncated;
    items->push_back(value.substr(4, length));
    value.remove_prefix(4 + size_t{length});
  }
  return value.empty() ? Status::Ok() : truncated;
}

std::string PackItems(const std::vector<std::string_view>& items, size_t items_per_entry) {
  size_t size = 4;
  for (std::string_view item : items) size += 4 + item.size();
  std::string out;
  out.reserve(size);
  AppendUint32(static_cast<uint32_t>(items.size() / items_per_entry), &out);
  for (std::string_view item : items) {
    AppendUint32(static_cast<uint32_t>(item.size()), &out);
    out.append(item);
  }
  return out;
}

// The sort key of a set element or map key: its ascending key encoding, whose
// byte order is Cassandra's order for the type (the order the engine keeps
// sets and maps in); raw bytes for a type that cannot be a key.
std::string OrderKey(const CqlType& type, std::string_view value) {
  if (!type.CheckKeyCapable().ok()) return std::string(value);
  std::string key;
  EncodeKeyComponent(type, value, SortOrder::kAsc, &key);
  return key;
}

// Merges two sorted sets (stride 1) or maps (stride 2). Of equal elements or
// keys the current one's bytes stay; a map takes the appended value, as
// `SET m = m + {...}` does.
std::vector<std::string_view> MergeSorted(const CqlType& key_type,
                                          const std::vector<std::string_view>& current,
                                          const std::vector<std::string_view>& appended,
                                          size_t stride) {
  std::vector<std::string_view> merged;
  merged.reserve(current.size() + appended.size());
  size_t i = 0, j = 0;
  while (i < current.size() || j < appended.size()) {
    int order = 0;  // < 0: take current's entry, > 0: appended's, 0: equal keys
    if (i == current.size()) {
      order = 1;
    } else if (j == appended.size()) {
      order = -1;
    } else {
      const int c = OrderKey(key_type, current[i]).compare(OrderKey(key_type, appended[j]));
      order = c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if (order < 0) {
      merged.insert(merged.end(), current.begin() + static_cast<std::ptrdiff_t>(i),
                    current.begin() + static_cast<std::ptrdiff_t>(i + stride));
      i += stride;
    } else if (order > 0) {
      merged.insert(merged.end(), appended.begin() + static_cast<std::ptrdiff_t>(j),
                    appended.begin() + static_cast<std::ptrdiff_t>(j + stride));
      j += stride;
    } else {
      merged.push_back(current[i]);
      if (stride == 2) merged.push_back(appended[j + 1]);
      i += stride;
      j += stride;
    }
  }
  return merged;
}

Result<std::string> AppendCollection(const CqlType& type, std::string_view current,
                                     std::string_view appended) {
  const size_t stride = type.kind() == TypeKind::kMap ? 2 : 1;
  std::vector<std::string_view> old_items, new_items;
  CELLFS_RETURN_IF_ERROR(UnpackItems(current, stride, &old_items));
  CELLFS_RETURN_IF_ERROR(UnpackItems(appended, stride, &new_items));
  if (type.kind() == TypeKind::kList) {
    if (old_items.size() + new_items.size() > INT32_MAX) {
      return Status::InvalidArgument("list would exceed 2^31-1 elements");
    }
    old_items.insert(old_items.end(), new_items.begin(), new_items.end());
    return PackItems(old_items, 1);
  }
  return PackItems(MergeSorted(*type.params()[0], old_items, new_items, stride), stride);
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
    case TypeKind::kTimeuuid:
      return "0123456789abcdefABCDEF-";
    case TypeKind::kTimestamp:
    case TypeKind::kDate:
    case TypeKind::kTime:
      return "0123456789-:.+TZ ";
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
