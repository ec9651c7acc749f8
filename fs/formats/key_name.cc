// Key names <-> key values: percent-escaping of canonical literal text and
// its inverse (grammar in fs/formats/key_name.h).
#include "fs/formats/key_name.h"

#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/literal.h"

namespace cellfs::fs {
namespace {

// The spelling of the empty value; see key_name.h for why this one.
constexpr std::string_view kEmptyComponent = "%-";

bool AlwaysEscaped(char c) { return c == '%' || c == '/' || c == ',' || c == '\0'; }

bool EscapedAtNameStart(char c) { return c == '@' || c == '.'; }

// An '@' that starts "@ttl=" or "@timestamp=" would read as a write suffix
// (fs/tree/virtual_name.h), so it is escaped wherever it stands; so is one
// that starts an "@update" ending a value (mkdir's flag, write_suffixes.h).
bool StartsWriteSuffix(std::string_view rest) {
  return rest.starts_with("@ttl=") || rest.starts_with("@timestamp=") || rest == "@update";
}

void AppendEscape(char c, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(c);
  out->push_back('%');
  out->push_back(kHex[byte >> 4]);
  out->push_back(kHex[byte & 0x0F]);
}

// Appends one value's canonical text, escaped. `starts_name`: the text's
// first byte is the first byte of the whole name.
void AppendComponent(const CqlType& type, std::string_view value, bool starts_name,
                     std::string* out) {
  const std::string text = FormatLiteral(type, value);
  if (text.empty()) {
    out->append(kEmptyComponent);
    return;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (AlwaysEscaped(c) || (starts_name && i == 0 && EscapedAtNameStart(c)) ||
        StartsWriteSuffix(std::string_view(text).substr(i))) {
      AppendEscape(c, out);
    } else {
      out->push_back(c);
    }
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes the escapes of one non-empty component other than "%-".
Status Unescape(std::string_view component, std::string* out) {
  out->clear();
  for (size_t i = 0; i < component.size(); ++i) {
    if (component[i] != '%') {
      out->push_back(component[i]);
      continue;
    }
    const int high = i + 1 < component.size() ? HexValue(component[i + 1]) : -1;
    const int low = i + 2 < component.size() ? HexValue(component[i + 2]) : -1;
    if (high < 0 || low < 0) {
      return Status::InvalidArgument("bad escape at byte " + std::to_string(i + 1) + " of '" +
                                     std::string(component) +
                                     "': '%' must be followed by two hex digits (%25 is '%')");
    }
    out->push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return Status::Ok();
}

std::vector<std::string_view> SplitComponents(std::string_view name) {
  std::vector<std::string_view> components;
  size_t start = 0;
  while (true) {
    const size_t comma = name.find(',', start);
    if (comma == std::string_view::npos) break;
    components.push_back(name.substr(start, comma - start));
    start = comma + 1;
  }
  components.push_back(name.substr(start));
  return components;
}

std::string DescribeTypes(std::span<const CqlType* const> types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += types[i]->ToCql();
  }
  return out + ")";
}

Status CheckComponentCount(std::span<const CqlType* const> types, size_t count, bool prefix) {
  if (count == types.size() || (prefix && count >= 1 && count <= types.size())) {
    return Status::Ok();
  }
  const std::string expected =
      prefix ? "1 to " + std::to_string(types.size()) : std::to_string(types.size());
  return Status::InvalidArgument(
      "key name has " + std::to_string(count) + " comma-separated components where " + expected +
      " are expected for " + DescribeTypes(types) + " (write a ',' inside a value as %2C)");
}

// Decodes and parses one component into a value of `type`.
Status ParseComponent(const CqlType& type, std::string_view component, std::string* value) {
  if (component.empty()) {
    return Status::InvalidArgument("empty component (the empty value is written %-)");
  }
  if (component == kEmptyComponent) {
    value->clear();
    return Status::Ok();
  }
  std::string text;
  CELLFS_RETURN_IF_ERROR(Unescape(component, &text));
  Result<std::string> parsed = ParseLiteral(type, text);
  if (!parsed.ok()) return parsed.status();
  // ParseLiteral's output always validates; checked so that no value that
  // the key codec may not be given can leave here.
  CELLFS_RETURN_IF_ERROR(ValidateValue(type, *parsed));
  *value = std::move(parsed).value();
  return Status::Ok();
}

Status CheckLength(std::string_view text) {
  if (text.size() <= kMaxNameBytes) return Status::Ok();
  return Status::NameTooLong("key name of " + std::to_string(text.size()) +
                             " bytes exceeds the limit of " + std::to_string(kMaxNameBytes));
}

// Names FormatKeyName never writes because they mean something else to the
// filesystem.
Status CheckNotReserved(std::string_view name) {
  if (!name.empty() && name.front() == '@') {
    return Status::InvalidArgument("'" + std::string(name) +
                                   "' starts with '@', which marks virtual names; a key "
                                   "name escapes a leading '@' as %40");
  }
  if (name == "." || name == "..") {
    return Status::InvalidArgument("'" + std::string(name) + "' is not a key name");
  }
  return Status::Ok();
}

Status ParseComponents(std::span<const CqlType* const> types, std::string_view text, bool prefix,
                       std::vector<std::string>* values) {
  assert(!types.empty() && values != nullptr);
  const std::vector<std::string_view> components = SplitComponents(text);
  CELLFS_RETURN_IF_ERROR(CheckComponentCount(types, components.size(), prefix));
  values->assign(components.size(), std::string());
  for (size_t i = 0; i < components.size(); ++i) {
    Status status = ParseComponent(*types[i], components[i], &(*values)[i]);
    if (!status.ok()) {
      return status.WithContext("key component " + std::to_string(i + 1) + " of " +
                                std::to_string(components.size()) + " (" + types[i]->ToCql() + ")");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> FormatKeyName(std::span<const CqlType* const> types,
                                  std::span<const std::string> values) {
  assert(!types.empty() && values.size() == types.size());
  std::string name;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) name.push_back(',');
    AppendComponent(*types[i], values[i], i == 0, &name);
    // Later components need not be formatted once the name is too long.
    if (name.size() > kMaxNameBytes) {
      return Status::NameTooLong("the name of key " + DescribeTypes(types) +
                                 " would exceed the limit of " + std::to_string(kMaxNameBytes) +
                                 " bytes");
    }
  }
  return name;
}

bool KeyNameAlwaysFits(std::span<const CqlType* const> types) {
  size_t bound = types.empty() ? 0 : types.size() - 1;  // the commas
  for (const CqlType* type : types) {
    // The longest canonical text of a value of the type (an empty value
    // is named "%-").
    size_t longest = 0;
    switch (type->kind()) {
      case TypeKind::kBoolean:
        longest = 5;  // false
        break;
      case TypeKind::kTinyint:
        longest = 4;  // -128
        break;
      case TypeKind::kSmallint:
        longest = 6;  // -32768
        break;
      case TypeKind::kInt:
        longest = 11;  // -2147483648
        break;
      case TypeKind::kBigint:
      case TypeKind::kCounter:
        longest = 20;  // -9223372036854775808
        break;
      case TypeKind::kFloat:
      case TypeKind::kDouble:
        longest = 32;  // -1.7976931348623157E308 is 23
        break;
      case TypeKind::kTimestamp:
        longest = 40;  // +292278994-08-17T07:12:55.807Z is 30
        break;
      case TypeKind::kDate:
      case TypeKind::kTime:
        longest = 20;  // -5877641-06-23, 23:59:59.999999999
        break;
      case TypeKind::kUuid:
      case TypeKind::kTimeuuid:
        longest = 36;
        break;
      case TypeKind::kInet:
        longest = 45;  // ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255
        break;
      default:
        return false;  // text, blob, varint, decimal, duration, collections...
    }
    bound += 3 * longest;  // every byte escaped as %XX at worst
  }
  return bound <= kMaxNameBytes;
}

Status ParseKeyName(std::span<const CqlType* const> types, std::string_view name,
                    std::vector<std::string>* values) {
  CELLFS_RETURN_IF_ERROR(CheckLength(name));
  CELLFS_RETURN_IF_ERROR(CheckNotReserved(name));
  CELLFS_RETURN_IF_ERROR(ParseComponents(types, name, /*prefix=*/false, values));
  // A short spelling may stand for a key whose canonical name cannot be listed.
  Result<std::string> canonical = FormatKeyName(types, *values);
  return canonical.ok() ? Status::Ok() : canonical.status();
}

Status ParseKeyPrefix(std::span<const CqlType* const> types, std::string_view text,
                      std::vector<std::string>* values) {
  CELLFS_RETURN_IF_ERROR(CheckLength(text));
  return ParseComponents(types, text, /*prefix=*/true, values);
}

}  // namespace cellfs::fs
