// cqlsh's value text: text escaping and quoting, the native kinds (through
// the engine's canonical text where cqlsh agrees with it, cqlsh_native.h
// where it does not) and the composite kinds, recursively.
#include "fs/cql/cqlsh_value.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"
#include "fs/cql/cqlsh_native.h"
#include "fs/cql/cqlsh_width.h"

namespace cellfs::fs {
namespace {

// format_value_text: backslashes doubled, quotes doubled when quoted,
// U+0000..U+001F and U+007F..U+00A0 as Python's repr shows them.
CqlshText FormatText(std::string_view value, bool quote) {
  std::string text = quote ? "'" : "";
  for (size_t pos = 0; pos < value.size();) {
    const size_t start = pos;
    const char32_t c = NextCodePoint(value, &pos);
    if (c == '\\') {
      text += "\\\\";
    } else if (c == '\'' && quote) {
      text += "''";
    } else if (c == '\t' || c == '\n' || c == '\r') {
      text += c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
    } else if (c <= 0x1f || (c >= 0x7f && c <= 0xa0)) {
      static constexpr char kHex[] = "0123456789abcdef";
      text += "\\x";
      text += kHex[c >> 4];
      text += kHex[c & 0xf];
    } else {
      text.append(value.substr(start, pos - start));
    }
  }
  if (quote) text += "'";
  const int width = CqlshTextWidth(text);
  return {std::move(text), width};
}

CqlshText Plain(std::string text) {
  const auto width = static_cast<int>(CodePointCount(text));
  return {std::move(text), width};
}

CqlshText FormatValue(const CqlType& type, std::string_view value, bool nested);

std::string FormatNative(TypeKind kind, std::string_view value) {
  switch (kind) {
    case TypeKind::kBoolean:
      return value[0] != '\0' ? "True" : "False";
    case TypeKind::kFloat:
      return CqlshFloating(true, value, kCqlshFloatPrecision);
    case TypeKind::kDouble:
      return CqlshFloating(false, value, kCqlshDoublePrecision);
    case TypeKind::kDecimal:
      return CqlshDecimal(value);
    case TypeKind::kTimestamp:
      return CqlshTimestamp(value);
    case TypeKind::kDate:
      return CqlshDate(value);
    case TypeKind::kDuration:
      return CqlshDuration(value);
    default:  // integers, blob, uuid, timeuuid, inet, time: the canonical text
      return FormatLiteral(*CqlType::Native(kind), value);
  }
}

// The order Python's sorted() gives set elements and map keys: the stored
// order (Cassandra's) except where Python compares differently.
void SortLikePython(const CqlType& key_type, size_t stride, std::vector<std::string_view>* items) {
  const TypeKind kind = key_type.kind();
  const bool by_bytes = kind == TypeKind::kUuid || kind == TypeKind::kTimeuuid;
  if (!by_bytes && kind != TypeKind::kInet) return;
  std::vector<std::vector<std::string_view>> entries;
  for (size_t i = 0; i < items->size(); i += stride) {
    entries.emplace_back(items->begin() + static_cast<std::ptrdiff_t>(i),
                         items->begin() + static_cast<std::ptrdiff_t>(i + stride));
  }
  std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    if (by_bytes) return a[0] < b[0];
    return FormatLiteral(key_type, a[0]) < FormatLiteral(key_type, b[0]);
  });
  items->clear();
  for (const auto& entry : entries) items->insert(items->end(), entry.begin(), entry.end());
}

// Joins element texts; cqlsh's width is the elements' plus 2 per element
// (4 per map entry), whatever the brackets and separators really take.
CqlshText FormatCollection(const CqlType& type, std::string_view value) {
  const bool is_map = type.kind() == TypeKind::kMap;
  const size_t stride = is_map ? 2 : 1;
  std::vector<std::string_view> items;
  if (!UnpackCollection(value, stride, &items).ok()) return {};
  if (type.kind() != TypeKind::kList) SortLikePython(*type.params()[0], stride, &items);
  const bool is_list = type.kind() == TypeKind::kList;
  CqlshText out{is_list ? "[" : "{", 0};
  for (size_t i = 0; i < items.size(); ++i) {
    const CqlType& item_type = *type.params()[is_map ? i % 2 : 0];
    if (i > 0) out.text += is_map && i % 2 == 1 ? ": " : ", ";
    const CqlshText item = FormatValue(item_type, items[i], /*nested=*/true);
    out.text += item.text;
    out.width += item.width + 2;
  }
  out.text += is_list ? "]" : "}";
  return out;
}

// What cqlsh's formatter for `type` makes of a Python None (a null tuple
// component): str(None), quoted where the formatter quotes.
CqlshText NoneText(const CqlType& type) {
  const bool quoted = type.kind() == TypeKind::kInet || type.kind() == TypeKind::kTimestamp;
  return Plain(quoted ? "'None'" : "None");
}

CqlshText FormatComponents(const CqlType& type, std::string_view value) {
  std::vector<std::optional<std::string_view>> components;
  if (!UnpackComponents(value, type.params().size(), &components).ok()) return {};
  components.resize(type.params().size());  // the driver pads with None
  const bool is_udt = type.kind() == TypeKind::kUdt;
  CqlshText out{is_udt ? "{" : "(", 0};
  for (size_t i = 0; i < components.size(); ++i) {
    if (i > 0) out.text += ", ";
    const CqlType& component_type = *type.params()[i];
    if (is_udt) {
      const CqlshText name = FormatText(type.field_names()[i], /*quote=*/false);
      out.text += name.text + ": ";
      out.width += name.width + 2;
    }
    const CqlshText item = components[i] ? FormatValue(component_type, *components[i], true)
                           : is_udt      ? CqlshNull()
                                         : NoneText(component_type);
    out.text += item.text;
    out.width += item.width + 2;
  }
  out.text += is_udt ? "}" : ")";
  return out;
}

CqlshText FormatValue(const CqlType& type, std::string_view value, bool nested) {
  const TypeKind kind = type.kind();
  if (kind == TypeKind::kText || kind == TypeKind::kAscii) return FormatText(value, nested);
  if (value.empty()) return Plain(kind == TypeKind::kBlob ? "0x" : "");
  if (type.is_collection()) return FormatCollection(type, value);
  if (!type.is_native()) return FormatComponents(type, value);
  std::string text = FormatNative(kind, value);
  if (nested && (kind == TypeKind::kInet || kind == TypeKind::kTimestamp)) text = "'" + text + "'";
  return Plain(std::move(text));
}

}  // namespace

CqlshText CqlshNull() { return {"null", 4}; }

CqlshText FormatCqlshName(std::string_view name) { return FormatText(name, /*quote=*/false); }

CqlshText FormatCqlshValue(const CqlType& type, std::string_view value) {
  return FormatValue(type, value, /*nested=*/false);
}

}  // namespace cellfs::fs
