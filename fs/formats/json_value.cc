// The JSON-to-CQL converter (fs/formats/json_value.h): scalars through a fast
// path for common numbers or ParseLiteral, lists and sets through their CQL
// literal, maps and UDTs member by member, and the object reader both callers use.
#include "fs/formats/json_value.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/row_json_internal.h"

namespace cellfs::fs::json_internal {
namespace {

using od::json_type;

Status Store(Result<std::string>&& parsed, std::string* out) {
  if (!parsed.ok()) return parsed.status();
  *out = std::move(parsed).value();
  return Status::Ok();
}

// Whether the array or object `value` nests more than `levels` levels of
// arrays and objects. Only refusals call it: it reads the value to its end.
bool NestsDeeper(od::value value, size_t levels) {
  json_type json;
  if (TypeOf(value, &json) != simdjson::SUCCESS) return false;
  if (json != json_type::array && json != json_type::object) return false;
  if (levels == 0) return true;
  if (json == json_type::array) {
    od::array array;
    if (value.get_array().get(array) != simdjson::SUCCESS) return false;
    for (auto element : array) {
      od::value item;
      if (std::move(element).get(item) != simdjson::SUCCESS) return false;
      if (NestsDeeper(item, levels - 1)) return true;
    }
    return false;
  }
  od::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return false;
  for (auto member : object) {
    od::field field;
    if (std::move(member).get(field) != simdjson::SUCCESS) return false;
    if (NestsDeeper(field.value(), levels - 1)) return true;
  }
  return false;
}

// `value` (of JSON type `json`) does not fit `type`. An array or object so
// deep that it could fit no type says so instead.
Status WrongJsonType(const CqlType& type, od::value& value, json_type json) {
  if ((json == json_type::array || json == json_type::object) &&
      NestsDeeper(value, kMaxJsonDepth)) {
    return Status::InvalidArgument("invalid JSON: nested deeper than " +
                                   std::to_string(kMaxJsonDepth) + " levels");
  }
  return Status::InvalidArgument(std::string("a JSON ") + JsonTypeName(json) + " is not a " +
                                 type.ToCql() + " value");
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// RFC 8259's number grammar: On-Demand hands number tokens over unchecked.
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// The common numbers without ParseLiteral: a decimal integer for the
// fixed-width integer kinds, a number for double, serialized big endian as
// docs/FORMAT.md "Values" says. False (nothing written) for anything else,
// which ParseLiteral then judges and words the error for.
bool FastNumber(TypeKind kind, std::string_view token, std::string* out) {
  const char* begin = token.data();
  const char* end = begin + token.size();
  auto put_be = [out](uint64_t bits, size_t bytes) {
    out->resize(bytes);
    for (size_t i = 0; i < bytes; ++i) {
      (*out)[i] = static_cast<char>((bits >> (8 * (bytes - 1 - i))) & 0xff);
    }
  };
  size_t width = 0;
  int64_t low = 0, high = 0;
  switch (kind) {
    case TypeKind::kTinyint:
      width = 1;
      low = INT8_MIN;
      high = INT8_MAX;
      break;
    case TypeKind::kSmallint:
      width = 2;
      low = INT16_MIN;
      high = INT16_MAX;
      break;
    case TypeKind::kInt:
      width = 4;
      low = INT32_MIN;
      high = INT32_MAX;
      break;
    case TypeKind::kBigint:
      width = 8;
      low = INT64_MIN;
      high = INT64_MAX;
      break;
    case TypeKind::kDouble: {
      double number = 0;
      auto [stop, error] = std::from_chars(begin, end, number);
      if (error != std::errc() || stop != end || !std::isfinite(number)) return false;
      uint64_t bits = 0;
      std::memcpy(&bits, &number, sizeof(bits));
      put_be(bits, 8);
      return true;
    }
    default:
      return false;
  }
  int64_t number = 0;
  auto [stop, error] = std::from_chars(begin, end, number);
  if (error != std::errc() || stop != end || number < low || number > high) return false;
  put_be(static_cast<uint64_t>(number), width);
  return true;
}

Status NumberToValue(const CqlType& type, od::value& value, std::string* out) {
  const TypeKind kind = type.kind();
  if (!TakesJsonNumber(kind)) return WrongJsonType(type, value, json_type::number);
  std::string_view token = Token(value);
  if (!IsJsonNumber(token)) {
    return Status::InvalidArgument("invalid JSON number " + QuoteForMessage(token));
  }
  // Jackson reads `-0` as the integer 0, which Cassandra turns into +0.0.
  if ((kind == TypeKind::kFloat || kind == TypeKind::kDouble) && token == "-0") token = "0";
  if (FastNumber(kind, token, out)) return Status::Ok();
  return Store(ParseLiteral(type, token), out);
}

// A collection element or map value as a CQL term appended to `literal`:
// never null.
Status AppendTerm(const CqlType& type, od::value value, std::string* literal) {
  json_type json;
  if (auto error = TypeOf(value, &json)) return JsonError(error);
  if (json == json_type::null) {
    return Status::InvalidArgument("a " + type.ToCql() + " collection element cannot be null");
  }
  std::string element;
  CELLFS_RETURN_IF_ERROR(JsonToValue(type, value, json, &element));
  literal->append(FormatTerm(type, element));
  return Status::Ok();
}

Status TupleToValue(const CqlType& type, od::array& array, std::string* out) {
  size_t count = 0;
  if (auto error = array.count_elements().get(count)) return JsonError(error);
  if (count > type.params().size()) {
    return Status::InvalidArgument(type.ToCql() + " has " + std::to_string(type.params().size()) +
                                   " components, got " + std::to_string(count));
  }
  std::vector<std::optional<std::string>> components;
  for (auto element : array) {
    od::value item;
    json_type json;
    if (auto error = std::move(element).get(item)) return JsonError(error);
    if (auto error = TypeOf(item, &json)) return JsonError(error);
    const CqlType& component_type = *type.params()[components.size()];
    std::optional<std::string>& component = components.emplace_back();
    if (json == json_type::null) continue;
    CELLFS_RETURN_IF_ERROR(JsonToValue(component_type, item, json, &component.emplace()));
  }
  *out = PackComponents(components);
  return Status::Ok();
}

// Tuples are framed directly; lists and sets go through their CQL literal,
// which sorts and deduplicates sets as every other write path does.
Status ArrayToValue(const CqlType& type, od::value& value, std::string* out) {
  const TypeKind kind = type.kind();
  if (kind != TypeKind::kTuple && kind != TypeKind::kList && kind != TypeKind::kSet) {
    return WrongJsonType(type, value, json_type::array);
  }
  od::array array;
  if (auto error = value.get_array().get(array)) return JsonError(error);
  if (kind == TypeKind::kTuple) return TupleToValue(type, array, out);
  std::string literal = kind == TypeKind::kList ? "[" : "{";
  for (auto element : array) {
    od::value item;
    if (auto error = std::move(element).get(item)) return JsonError(error);
    if (literal.size() > 1) literal += ", ";
    CELLFS_RETURN_IF_ERROR(AppendTerm(*type.params()[0], item, &literal));
  }
  literal += kind == TypeKind::kList ? "]" : "}";
  return Store(ParseLiteral(type, literal), out);
}

// The index of the UDT field `name` names: exactly, else with one pair of
// double quotes removed (Cassandra's fromJson keeps a "Quoted" name's case);
// fields.size() if none.
size_t FieldIndex(const std::vector<std::string>& fields, std::string_view name) {
  for (int unquoted = 0; unquoted < 2; ++unquoted) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i] == name) return i;
    }
    if (name.size() < 2 || name.front() != '"' || name.back() != '"') break;
    name = name.substr(1, name.size() - 2);
  }
  return fields.size();
}

Status MapToValue(const CqlType& type, od::object& object, std::string* out) {
  const CqlType& key_type = *type.params()[0];
  std::string literal = "{";
  for (auto member : object) {
    od::field field;
    std::string_view key_text;
    if (auto error = std::move(member).get(field)) return JsonError(error);
    if (auto error = field.unescaped_key().get(key_text)) return JsonError(error);
    Result<std::string> key = ParseLiteral(key_type, key_text);
    if (!key.ok()) return key.status();
    if (literal.size() > 1) literal += ", ";
    literal.append(FormatTerm(key_type, *key)).append(": ");
    CELLFS_RETURN_IF_ERROR(AppendTerm(*type.params()[1], field.value(), &literal));
  }
  return Store(ParseLiteral(type, literal + "}"), out);
}

// A UDT value ends at its last field given; fields before it not given are null.
Status UdtToValue(const CqlType& type, od::object& object, std::string* out) {
  const std::vector<std::string>& fields = type.field_names();
  std::vector<std::optional<std::string>> components;
  for (auto member : object) {
    od::field field;
    std::string_view name;
    json_type json;
    if (auto error = std::move(member).get(field)) return JsonError(error);
    if (auto error = field.unescaped_key().get(name)) return JsonError(error);
    const size_t index = FieldIndex(fields, name);
    if (index == fields.size()) {
      return Status::InvalidArgument(type.ToCql() + " has no field named " + std::string(name));
    }
    if (components.size() <= index) components.resize(index + 1);
    od::value& item = field.value();
    if (auto error = TypeOf(item, &json)) return JsonError(error);
    components[index].reset();
    if (json == json_type::null) continue;
    CELLFS_RETURN_IF_ERROR(
        JsonToValue(*type.params()[index], item, json, &components[index].emplace()));
  }
  *out = PackComponents(components);
  return Status::Ok();
}

}  // namespace

Status JsonError(simdjson::error_code error) {
  return Status::InvalidArgument(std::string("invalid JSON: ") + simdjson::error_message(error));
}

const char* JsonTypeName(json_type type) {
  switch (type) {
    case json_type::array:
      return "array";
    case json_type::object:
      return "object";
    case json_type::number:
      return "number";
    case json_type::string:
      return "string";
    case json_type::boolean:
      return "boolean";
    case json_type::null:
      break;
  }
  return "null";
}

std::string_view Token(od::value& value) {
  std::string_view token = value.raw_json_token();
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\r' ||
                            token.back() == '\n')) {
    token.remove_suffix(1);
  }
  return token;
}

Status JsonToValue(const CqlType& type, od::value value, json_type json, std::string* out) {
  const TypeKind kind = type.kind();
  switch (json) {
    case json_type::string: {
      std::string_view text;
      if (auto error = value.get_string().get(text)) return JsonError(error);
      if (kind != TypeKind::kText) return Store(ParseLiteral(type, text), out);
      out->assign(text);  // simdjson has checked the UTF-8
      return Status::Ok();
    }
    case json_type::number:
      return NumberToValue(type, value, out);
    case json_type::boolean: {
      bool b = false;
      if (auto error = value.get_bool().get(b)) return JsonError(error);
      if (kind != TypeKind::kBoolean) return WrongJsonType(type, value, json);
      return Store(ParseLiteral(type, b ? "true" : "false"), out);
    }
    case json_type::array:
      return ArrayToValue(type, value, out);
    case json_type::object: {
      if (kind != TypeKind::kMap && kind != TypeKind::kUdt) return WrongJsonType(type, value, json);
      od::object object;
      if (auto error = value.get_object().get(object)) return JsonError(error);
      return kind == TypeKind::kMap ? MapToValue(type, object, out) : UdtToValue(type, object, out);
    }
    case json_type::null:
      break;
  }
  return WrongJsonType(type, value, json);
}

Status JsonObjectReader::Begin(std::string_view text, od::object* object) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end.
  const size_t capacity = text.size() + simdjson::SIMDJSON_PADDING;
  if (padded_.size() < capacity) padded_.resize(capacity);
  std::memcpy(padded_.data(), text.data(), text.size());
  std::memset(padded_.data() + text.size(), ' ', simdjson::SIMDJSON_PADDING);
  json_type type;
  if (auto error = parser_.iterate(padded_.data(), text.size(), capacity).get(document_)) {
    return JsonError(error);
  }
  if (auto error = document_.type().get(type)) return JsonError(error);
  if (type != json_type::object) {
    return Status::InvalidArgument(std::string("not a JSON object: a JSON ") + JsonTypeName(type));
  }
  if (auto error = document_.get_object().get(*object)) return JsonError(error);
  return Status::Ok();
}

Status JsonObjectReader::End() {
  const char* rest = nullptr;
  const simdjson::error_code end = document_.current_location().get(rest);
  if (end == simdjson::OUT_OF_BOUNDS) return Status::Ok();
  return end ? JsonError(end) : Status::InvalidArgument("invalid JSON: text after the object");
}

}  // namespace cellfs::fs::json_internal
