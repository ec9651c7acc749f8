// The JSON Lines reader of @insert (fs/formats/insert_parser.h): each line parsed
// with simdjson's On-Demand API from a reused padded buffer, values turned
// into CQL values by the rules of a row's @json write (fs/formats/row_json.h).
#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/insert_parser_internal.h"
#include "fs/formats/row_json_internal.h"

namespace cellfs::fs::insert_internal {
namespace {

namespace od = simdjson::ondemand;
using od::json_type;

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

Status WrongJsonType(json_type json, const CqlType& type) {
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

// A scalar's token without the whitespace On-Demand leaves after it.
std::string_view Token(od::value& value) {
  std::string_view token = value.raw_json_token();
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\r' ||
                            token.back() == '\n')) {
    token.remove_suffix(1);
  }
  return token;
}

Status Store(Result<std::string>&& parsed, std::string* out) {
  if (!parsed.ok()) return parsed.status();
  *out = std::move(parsed).value();
  return Status::Ok();
}

// The JSON type of `value`; a null is consumed, and must be spelt `null`.
simdjson::error_code TypeOf(od::value& value, json_type* type) {
  if (auto error = value.type().get(*type)) return error;
  if (*type != json_type::null) return simdjson::SUCCESS;
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  return is_null ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
}

Status ToValue(const CqlType& type, od::value value, json_type json, std::string* out);

// A collection element, map value or map key's value as a CQL term appended
// to `literal`: never null.
Status AppendTerm(const CqlType& type, od::value value, std::string* literal) {
  json_type json;
  if (auto error = TypeOf(value, &json)) return JsonError(error);
  if (json == json_type::null) {
    return Status::InvalidArgument("a " + type.ToCql() + " collection element cannot be null");
  }
  std::string element;
  CELLFS_RETURN_IF_ERROR(ToValue(type, value, json, &element));
  literal->append(FormatTerm(type, element));
  return Status::Ok();
}

// Tuples are framed directly; lists and sets go through their CQL literal,
// which sorts and deduplicates sets as every other write path does.
Status ArrayToValue(const CqlType& type, od::value value, std::string* out) {
  const TypeKind kind = type.kind();
  if (kind != TypeKind::kTuple && kind != TypeKind::kList && kind != TypeKind::kSet) {
    return WrongJsonType(json_type::array, type);
  }
  od::array array;
  if (auto error = value.get_array().get(array)) return JsonError(error);
  if (kind == TypeKind::kTuple) {
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
      CELLFS_RETURN_IF_ERROR(ToValue(component_type, item, json, &component.emplace()));
    }
    *out = PackComponents(components);
    return Status::Ok();
  }
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

// The index of the UDT field `name` names (exactly, else "\"name\""
// unquoted, as fromJson takes case-sensitive names); fields.size() if none.
size_t FieldIndex(const std::vector<std::string>& fields, std::string_view name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == name) return i;
  }
  if (name.size() < 2 || name.front() != '"' || name.back() != '"') return fields.size();
  return FieldIndex(fields, name.substr(1, name.size() - 2));
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
        ToValue(*type.params()[index], item, json, &components[index].emplace()));
  }
  *out = PackComponents(components);
  return Status::Ok();
}

// The common numbers without ParseLiteral: a decimal integer for the
// fixed-width integer kinds, a number for double and float, serialized big
// endian as docs/FORMAT.md "Values" says. False (nothing written) for
// anything else, which ParseLiteral then judges and words the error for.
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
    case TypeKind::kTinyint: width = 1; low = INT8_MIN; high = INT8_MAX; break;
    case TypeKind::kSmallint: width = 2; low = INT16_MIN; high = INT16_MAX; break;
    case TypeKind::kInt: width = 4; low = INT32_MIN; high = INT32_MAX; break;
    case TypeKind::kBigint: width = 8; low = INT64_MIN; high = INT64_MAX; break;
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

// A non-null JSON value as a serialized value of `type`. Strings hold a CQL
// literal for every type but text, whose value they are.
Status ToValue(const CqlType& type, od::value value, json_type json, std::string* out) {
  const TypeKind kind = type.kind();
  switch (json) {
    case json_type::string: {
      std::string_view text;
      if (auto error = value.get_string().get(text)) return JsonError(error);
      if (kind != TypeKind::kText) return Store(ParseLiteral(type, text), out);
      out->assign(text);  // simdjson has checked the UTF-8
      return Status::Ok();
    }
    case json_type::number: {
      if (!TakesJsonNumber(kind)) return WrongJsonType(json, type);
      const std::string_view token = Token(value);
      if (!IsJsonNumber(token)) {
        return Status::InvalidArgument("invalid JSON number " + QuoteForMessage(token));
      }
      if (FastNumber(kind, token, out)) return Status::Ok();
      return Store(ParseLiteral(type, token), out);
    }
    case json_type::boolean: {
      bool b = false;
      if (auto error = value.get_bool().get(b)) return JsonError(error);
      if (kind != TypeKind::kBoolean) return WrongJsonType(json, type);
      return Store(ParseLiteral(type, b ? "true" : "false"), out);
    }
    case json_type::array:
      return ArrayToValue(type, value, out);
    case json_type::object: {
      if (kind != TypeKind::kMap && kind != TypeKind::kUdt) return WrongJsonType(json, type);
      od::object object;
      if (auto error = value.get_object().get(object)) return JsonError(error);
      return kind == TypeKind::kMap ? MapToValue(type, object, out) : UdtToValue(type, object, out);
    }
    case json_type::null:
      break;
  }
  return WrongJsonType(json, type);
}

class JsonLinesReader final : public RecordReader {
 public:
  JsonLinesReader(RowBuilder* builder, uint64_t first_line)
      : builder_(builder), line_(first_line) {}

  void Feed(std::string_view bytes, const Sink& sink) override {
    size_t newline = bytes.find('\n');
    if (!pending_.empty()) {
      if (newline == std::string_view::npos) {
        pending_.append(bytes);
        return;
      }
      pending_.append(bytes.substr(0, newline));
      Line(pending_, sink);
      pending_.clear();
      bytes.remove_prefix(newline + 1);
      newline = bytes.find('\n');
    }
    for (; newline != std::string_view::npos; newline = bytes.find('\n')) {
      Line(bytes.substr(0, newline), sink);
      bytes.remove_prefix(newline + 1);
    }
    pending_.append(bytes);
  }

  void Finish(const Sink& sink) override {
    if (!pending_.empty()) Line(pending_, sink);
    pending_.clear();
  }

 private:
  // One whole line, without its '\n'.
  void Line(std::string_view text, const Sink& sink) {
    const uint64_t line = line_++;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    if (!builder_->table_status().ok()) return sink(line, builder_->table_status());
    builder_->Begin();
    Status status = ParseObject(text);
    if (status.ok()) status = builder_->CheckKeys();
    if (!status.ok()) return sink(line, std::move(status));
    builder_->Emit(line, sink);
  }

  Status ParseObject(std::string_view text) {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end.
    const size_t capacity = text.size() + simdjson::SIMDJSON_PADDING;
    if (padded_.size() < capacity) padded_.resize(capacity);
    std::memcpy(padded_.data(), text.data(), text.size());
    std::memset(padded_.data() + text.size(), ' ', simdjson::SIMDJSON_PADDING);
    od::document doc;
    od::object object;
    json_type type;
    if (auto error = parser_.iterate(padded_.data(), text.size(), capacity).get(doc)) {
      return JsonError(error);
    }
    if (auto error = doc.type().get(type)) return JsonError(error);
    if (type != json_type::object) return Status::InvalidArgument("not a JSON object");
    if (auto error = doc.get_object().get(object)) return JsonError(error);
    for (auto member : object) {
      od::field field;
      if (auto error = std::move(member).get(field)) return JsonError(error);
      CELLFS_RETURN_IF_ERROR(ParseMember(field));
    }
    const char* rest = nullptr;
    const simdjson::error_code end = doc.current_location().get(rest);
    if (end == simdjson::OUT_OF_BOUNDS) return Status::Ok();
    return end ? JsonError(end) : Status::InvalidArgument("invalid JSON: text after the object");
  }

  Status ParseMember(od::field& field) {
    std::string_view name;
    json_type json;
    if (auto error = field.unescaped_key().get(name)) return JsonError(error);
    const size_t target = builder_->Find(name);
    if (target == kUnknownTarget) return Status::InvalidArgument("unknown column " + Quoted(name));
    CELLFS_RETURN_IF_ERROR(builder_->Claim(target, name));
    od::value& value = field.value();
    if (auto error = TypeOf(value, &json)) return JsonError(error);
    if (target == kTtlTarget || target == kTimestampTarget) {
      return ReadAttribute(target, value, json);
    }
    if (json == json_type::null) return builder_->Null(target);
    const ColumnDef& column = builder_->table().column(target);
    Status status = ToValue(*column.type, value, json, builder_->Value(target));
    return status.ok() ? status : status.WithContext("column " + Quoted(column.name));
  }

  Status ReadAttribute(size_t target, od::value& value, json_type json) {
    const bool ttl = target == kTtlTarget;
    const char* name = ttl ? "@ttl" : "@timestamp";
    if (json != json_type::number) {
      return Status::InvalidArgument(std::string(name) + " must be a JSON integer, not a " +
                                     JsonTypeName(json));
    }
    int64_t number = 0;
    Status status =
        ttl ? ParseTtlText(Token(value), &number) : ParseTimestampText(Token(value), &number);
    if (!status.ok()) return status.WithContext(name);
    (ttl ? builder_->attributes().ttl : builder_->attributes().timestamp) = number;
    return Status::Ok();
  }

  RowBuilder* builder_;
  uint64_t line_;        // of the next line to finish
  std::string pending_;  // the unfinished line
  std::vector<char> padded_;
  od::parser parser_;
};

}  // namespace

std::unique_ptr<RecordReader> NewJsonLinesReader(RowBuilder* builder, uint64_t first_line) {
  return std::make_unique<JsonLinesReader>(builder, first_line);
}

}  // namespace cellfs::fs::insert_internal
