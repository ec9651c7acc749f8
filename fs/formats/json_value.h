// JSON values to CQL values by Cassandra's fromJson rules, over simdjson's
// On-Demand API: the one converter of a row's @json write (row_json_parse.cc)
// and @insert's JSON Lines (insert_json.cc). Internal to fs/formats.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs::json_internal {

namespace od = simdjson::ondemand;

// Arrays and objects nested deeper than this are refused as "nested deeper
// than 64 levels" where their column's type does not take them (no CQL type
// of a valid schema nests this deep, and nothing deeper is ever descended).
inline constexpr size_t kMaxJsonDepth = 64;

// InvalidArgument "invalid JSON: " and simdjson's description of `error`.
Status JsonError(simdjson::error_code error);

// "array", "object", "number", "string", "boolean" or "null".
const char* JsonTypeName(od::json_type type);

// The JSON type of `value`. A null is consumed, and must be spelt `null`
// (On-Demand's type() looks at the first byte only). Inline: once per member.
inline simdjson::error_code TypeOf(od::value& value, od::json_type* type) {
  if (auto error = value.type().get(*type)) return error;
  if (*type != od::json_type::null) return simdjson::SUCCESS;
  bool is_null = false;
  if (auto error = value.is_null().get(is_null)) return error;
  return is_null ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
}

// A scalar's token as written, without the whitespace On-Demand leaves after it.
std::string_view Token(od::value& value);

// Sets *out to `value`, of JSON type `json` (TypeOf; not null), as the
// serialized value of `type`, as Cassandra's fromJson (INSERT JSON) reads it:
//  - a string holds the value's CQL literal for every type ("42" for an int,
//    "0xcafe" for a blob, "2018-07-23T11:04:22.432Z" or "1532343862432" for
//    a timestamp, "{'a', 'b'}" for a set), and is the value itself for text;
//  - a number is taken by the numeric kinds and by timestamp, date and time
//    (counts of their units), exactly as spelt: decimals and varints keep
//    every digit. As in Cassandra, where Jackson reads an integer token as
//    an integer, `-0` is +0.0 for a float or double (-0.0 is -0.0);
//  - true/false for a boolean;
//  - an array for a list, set (sorted, duplicates dropped) or tuple (at most
//    its components, null components allowed); an object for a map (member
//    names hold the keys' literals, a repeated key keeping its last value)
//    or a UDT (fields by name, exact or "double-quoted"; a repeated field
//    keeps its last value, null included). Collection elements are never null.
// On failure InvalidArgument naming the problem: "a JSON boolean is not a
// int value", ParseLiteral's message for a value that does not fit, "a int
// collection element cannot be null", "tuple<int, text> has 2 components,
// got 3", "frozen<address> has no field named x", "invalid JSON number
// '01'", "invalid JSON: ..." for malformed text inside the value, "nested
// deeper than 64 levels"; *out is then unspecified.
// Thread-safe as far as `value`'s document is not shared.
Status JsonToValue(const CqlType& type, od::value value, od::json_type json, std::string* out);

// Reads one JSON object per call from text of any length, through a parser
// and padded buffer reused from call to call (no allocation once they are
// large enough). Not thread-safe: one reader per parsing thread or object.
class JsonObjectReader {
 public:
  // Parses `text` as one JSON object, whitespace around it allowed, calling
  // on_member(std::string_view name, od::value& value) -> Status for each
  // member in order; `name` is unescaped and valid until the next member.
  // Returns the first error: on_member's, "not a JSON object: a JSON array"
  // (and so on) when the text holds another JSON value, "invalid JSON: ..."
  // for malformed text, "invalid JSON: text after the object".
  template <typename OnMember>
  Status Read(std::string_view text, OnMember&& on_member) {
    od::object object;
    CELLFS_RETURN_IF_ERROR(Begin(text, &object));
    for (auto member : object) {
      od::field field;
      std::string_view name;
      if (auto error = std::move(member).get(field)) return JsonError(error);
      if (auto error = field.unescaped_key().get(name)) return JsonError(error);
      CELLFS_RETURN_IF_ERROR(on_member(name, field.value()));
    }
    return End();
  }

 private:
  // Copies `text` into the padded buffer and starts its object.
  Status Begin(std::string_view text, od::object* object);
  // Ok when nothing but whitespace follows the object.
  Status End();

  std::vector<char> padded_;
  od::parser parser_;
  od::document document_;
};

}  // namespace cellfs::fs::json_internal
