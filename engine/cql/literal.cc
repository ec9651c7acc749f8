// Literal values: native kinds through internal/native_literal.h; lists,
// sets, maps, tuples and UDTs parsed as CQL terms (internal/term_parser.h)
// and printed and validated here, recursively.
#include "engine/cql/literal.h"

#include <optional>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/internal/native_literal.h"
#include "engine/cql/internal/term_parser.h"

namespace cellfs {
namespace {

size_t ItemsPerEntry(const CqlType& type) { return type.kind() == TypeKind::kMap ? 2 : 1; }

// The type of a collection's i-th item (keys and values alternate in maps).
const CqlType& ItemType(const CqlType& type, size_t i) {
  return *type.params()[type.kind() == TypeKind::kMap ? i % 2 : 0];
}

std::string ItemName(const CqlType& type, size_t i) {
  if (type.kind() != TypeKind::kMap) return "element " + std::to_string(i);
  return (i % 2 == 0 ? "key " : "value ") + std::to_string(i / 2);
}

std::string ComponentName(const CqlType& type, size_t i) {
  if (type.kind() == TypeKind::kUdt) return "field " + QuoteIdentifier(type.field_names()[i]);
  return "component " + std::to_string(i);
}

// [a, b], {a, b} or {k: v}. The empty (0-byte) value prints as "".
std::string FormatCollection(const CqlType& type, std::string_view value) {
  std::vector<std::string_view> items;
  if (!UnpackCollection(value, ItemsPerEntry(type), &items).ok()) return "";
  const bool is_list = type.kind() == TypeKind::kList;
  std::string text = is_list ? "[" : "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += type.kind() == TypeKind::kMap && i % 2 == 1 ? ": " : ", ";
    text += FormatTerm(ItemType(type, i), items[i]);
  }
  return text + (is_list ? "]" : "}");
}

// (1, 'x', null): the components the tuple holds; {name: 'x', n: null}:
// every field of the UDT in declaration order, those the value does not
// hold as null, as cqlsh prints it (the empty value stays {}).
std::string FormatComponents(const CqlType& type, std::string_view value) {
  std::vector<std::optional<std::string_view>> components;
  if (!UnpackComponents(value, type.params().size(), &components).ok()) return "";
  const bool is_udt = type.kind() == TypeKind::kUdt;
  if (is_udt && !value.empty()) components.resize(type.params().size());
  std::string text = is_udt ? "{" : "(";
  for (size_t i = 0; i < components.size(); ++i) {
    if (i > 0) text += ", ";
    if (is_udt) text += QuoteIdentifier(type.field_names()[i]) + ": ";
    text += components[i] ? FormatTerm(*type.params()[i], *components[i]) : "null";
  }
  return text + (is_udt ? "}" : ")");
}

std::string FormatComposite(const CqlType& type, std::string_view value) {
  if (type.is_collection()) return value.empty() ? "" : FormatCollection(type, value);
  return FormatComponents(type, value);
}

Status ValidateNonEmpty(const CqlType& type, std::string_view value);

// A value inside a collection, tuple or UDT. The 0-byte empty value of a
// collection type is refused there: no CQL term spells it (an empty
// collection literal is a count of 0), so it could not be printed and
// parsed back.
Status ValidateNested(const CqlType& type, std::string_view value) {
  if (!value.empty()) return ValidateNonEmpty(type, value);
  if (!type.is_collection()) return Status::Ok();
  return Status::InvalidArgument("empty (0-byte) " + type.ToCql() +
                                 " value; an empty collection holds a count of 0");
}

Status ValidateCollection(const CqlType& type, std::string_view value) {
  std::vector<std::string_view> items;
  CELLFS_RETURN_IF_ERROR(UnpackCollection(value, ItemsPerEntry(type), &items));
  for (size_t i = 0; i < items.size(); ++i) {
    Status status = ValidateNested(ItemType(type, i), items[i]);
    if (!status.ok()) return status.WithContext(ItemName(type, i));
  }
  if (type.kind() == TypeKind::kList) return Status::Ok();
  return CheckCanonicalOrder(*type.params()[0], items, ItemsPerEntry(type));
}

Status ValidateComponents(const CqlType& type, std::string_view value) {
  std::vector<std::optional<std::string_view>> components;
  CELLFS_RETURN_IF_ERROR(UnpackComponents(value, type.params().size(), &components));
  for (size_t i = 0; i < components.size(); ++i) {
    if (!components[i]) continue;
    Status status = ValidateNested(*type.params()[i], *components[i]);
    if (!status.ok()) return status.WithContext(ComponentName(type, i));
  }
  return Status::Ok();
}

Status ValidateNonEmpty(const CqlType& type, std::string_view value) {
  if (type.is_native()) return ValidateNativeValue(type.kind(), value);
  if (type.is_collection()) return ValidateCollection(type, value);
  return ValidateComponents(type, value);
}

}  // namespace

Result<std::string> ParseLiteral(const CqlType& type, std::string_view text) {
  std::string out;
  if (type.is_native()) {
    Status status = ParseNativeLiteral(type.kind(), text, &out);
    if (!status.ok()) return status;
    return out;
  }
  if (text.empty()) return Status::InvalidArgument("empty value for " + type.ToCql());
  const std::string context = "invalid " + type.ToCql() + " literal " + QuoteForMessage(text);
  CqlLexer lexer(text);
  Status status = ParseTerm(type, lexer, &out);
  if (!status.ok()) return status.WithContext(context);
  const Token rest = lexer.Next();
  if (rest.kind != TokenKind::kEnd) {
    return Status::InvalidArgument(
        context + ": " + rest.position.ToString() + ": unexpected " +
        (rest.kind == TokenKind::kError ? rest.text : QuoteForMessage(rest.text)) +
        " after the literal");
  }
  return out;
}

std::string FormatLiteral(const CqlType& type, std::string_view value) {
  if (type.is_native()) return FormatNativeLiteral(type.kind(), value);
  return FormatComposite(type, value);
}

std::string FormatTerm(const CqlType& type, std::string_view value) {
  if (type.is_native()) return FormatNativeTerm(type.kind(), value);
  return FormatComposite(type, value);
}

Status ValidateValue(const CqlType& type, std::string_view value) {
  if (value.empty()) return Status::Ok();
  if (type.is_native()) return ValidateNativeValue(type.kind(), value);
  Status status = ValidateNonEmpty(type, value);
  return status.ok() ? status : status.WithContext("invalid " + type.ToCql() + " value");
}

}  // namespace cellfs
