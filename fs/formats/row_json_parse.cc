// The parse of a row's @json write (fs/formats/row_json.h): JSON text to a tree that
// keeps numbers' spellings, then each member checked against its column and
// turned into a serialized value.
#include "fs/formats/row_json.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/row_json_internal.h"

namespace cellfs::fs {
namespace {

// A parsed JSON value. Numbers keep their spelling, so decimals and varints
// beyond a double's precision arrive exactly.
struct JsonNode {
  enum class Kind { kNull, kBoolean, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;               // a string's contents; a number or boolean as written
  std::vector<std::string> keys;  // an object's member names, parallel to items
  std::vector<JsonNode> items;    // array elements, object member values
};
using Kind = JsonNode::Kind;

std::string KindName(Kind kind) {
  static constexpr const char* kNames[] = {"null",   "boolean", "number",
                                           "string", "array",   "object"};
  return kNames[static_cast<size_t>(kind)];
}

// Builds a JsonNode tree from nlohmann's SAX events (its DOM would turn long
// numbers into doubles). Nesting is capped: no CQL type nests deeper, and
// the tree's destruction recurses.
class TreeBuilder {
 public:
  using Json = nlohmann::json;
  static constexpr size_t kMaxDepth = 64;

  bool null() { return Add(Kind::kNull); }
  bool boolean(bool b) { return Add(Kind::kBoolean, b ? "true" : "false"); }
  bool number_integer(Json::number_integer_t n) { return Add(Kind::kNumber, std::to_string(n)); }
  bool number_unsigned(Json::number_unsigned_t n) { return Add(Kind::kNumber, std::to_string(n)); }
  bool number_float(Json::number_float_t, const std::string& s) { return Add(Kind::kNumber, s); }
  bool string(std::string& s) { return Add(Kind::kString, std::move(s)); }
  bool binary(Json::binary_t&) { return false; }  // never produced by JSON text
  bool key(std::string& name) {
    key_ = std::move(name);
    return true;
  }
  bool start_object(size_t) { return Open(Kind::kObject); }
  bool start_array(size_t) { return Open(Kind::kArray); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool parse_error(size_t, const std::string&, const Json::exception& e) {
    error = e.what();
    return false;
  }

  JsonNode root;
  std::string error;

 private:
  // Only the innermost open container grows, so the pointers to its
  // ancestors on stack_ stay valid.
  bool Add(Kind kind, std::string text = {}) {
    JsonNode* node = &root;
    if (!stack_.empty()) {
      JsonNode* parent = stack_.back();
      if (parent->kind == Kind::kObject) parent->keys.push_back(std::move(key_));
      node = &parent->items.emplace_back();
    }
    node->kind = kind;
    node->text = std::move(text);
    last_ = node;
    return true;
  }
  bool Open(Kind kind) {
    if (stack_.size() >= kMaxDepth) {
      error = "nested deeper than " + std::to_string(kMaxDepth) + " levels";
      return false;
    }
    Add(kind);
    stack_.push_back(last_);
    return true;
  }
  bool Close() {
    stack_.pop_back();
    return true;
  }

  std::vector<JsonNode*> stack_;
  JsonNode* last_ = nullptr;
  std::string key_;
};

Status WrongJsonType(const JsonNode& node, const CqlType& type) {
  return Status::InvalidArgument("a JSON " + KindName(node.kind) + " is not a " + type.ToCql() +
                                 " value");
}

Result<std::string> JsonToValue(const CqlType& type, const JsonNode& node);

// A collection element, map key or map value as a CQL term: never null.
Result<std::string> ElementTerm(const CqlType& type, const JsonNode& node) {
  if (node.kind == Kind::kNull) {
    return Status::InvalidArgument("a " + type.ToCql() + " collection element cannot be null");
  }
  Result<std::string> value = JsonToValue(type, node);
  if (!value.ok()) return value;
  return FormatTerm(type, *value);
}

// Lists and sets go through their CQL literal, which sorts and deduplicates
// sets as every other write path does; tuples are framed directly.
Result<std::string> ArrayToValue(const CqlType& type, const JsonNode& node) {
  if (type.kind() == TypeKind::kTuple) {
    if (node.items.size() > type.params().size()) {
      return Status::InvalidArgument(type.ToCql() + " has " + std::to_string(type.params().size()) +
                                     " components, got " + std::to_string(node.items.size()));
    }
    std::vector<std::optional<std::string>> components(node.items.size());
    for (size_t i = 0; i < node.items.size(); ++i) {
      if (node.items[i].kind == Kind::kNull) continue;
      Result<std::string> component = JsonToValue(*type.params()[i], node.items[i]);
      if (!component.ok()) return component;
      components[i] = std::move(component).value();
    }
    return PackComponents(components);
  }
  if (type.kind() != TypeKind::kList && type.kind() != TypeKind::kSet) {
    return WrongJsonType(node, type);
  }
  const bool is_list = type.kind() == TypeKind::kList;
  std::string literal = is_list ? "[" : "{";
  for (size_t i = 0; i < node.items.size(); ++i) {
    Result<std::string> term = ElementTerm(*type.params()[0], node.items[i]);
    if (!term.ok()) return term;
    literal.append(i > 0 ? ", " : "").append(*term);
  }
  return ParseLiteral(type, literal + (is_list ? "]" : "}"));
}

// The index of the first of `count` names (get_name(i)) equal to `name`, or
// to it unquoted when it is "double-quoted" as Cassandra's fromJson takes
// case-sensitive names; `count` when none is.
template <typename GetName>
size_t IndexByName(size_t count, GetName get_name, const std::string& name) {
  for (size_t i = 0; i < count; ++i) {
    if (get_name(i) == name) return i;
  }
  if (name.size() < 2 || name.front() != '"' || name.back() != '"') return count;
  return IndexByName(count, get_name, name.substr(1, name.size() - 2));
}

Result<std::string> ObjectToValue(const CqlType& type, const JsonNode& node) {
  if (type.kind() == TypeKind::kMap) {
    std::string literal = "{";
    for (size_t i = 0; i < node.items.size(); ++i) {
      Result<std::string> key = ParseLiteral(*type.params()[0], node.keys[i]);
      if (!key.ok()) return key;
      Result<std::string> term = ElementTerm(*type.params()[1], node.items[i]);
      if (!term.ok()) return term;
      literal.append(i > 0 ? ", " : "").append(FormatTerm(*type.params()[0], *key));
      literal.append(": ").append(*term);
    }
    return ParseLiteral(type, literal + "}");
  }
  if (type.kind() != TypeKind::kUdt) return WrongJsonType(node, type);
  // A UDT value ends at its last field given; the fields before it not given are null.
  const auto& fields = type.field_names();
  std::vector<std::optional<std::string>> components;
  for (size_t i = 0; i < node.items.size(); ++i) {
    const size_t field = IndexByName(
        fields.size(), [&](size_t f) -> const std::string& { return fields[f]; }, node.keys[i]);
    if (field == fields.size()) {
      return Status::InvalidArgument(type.ToCql() + " has no field named " + node.keys[i]);
    }
    if (components.size() <= field) components.resize(field + 1);
    if (node.items[i].kind == Kind::kNull) continue;
    Result<std::string> value = JsonToValue(*type.params()[field], node.items[i]);
    if (!value.ok()) return value;
    components[field] = std::move(value).value();
  }
  return PackComponents(components);
}

// A JSON value as a serialized value of `type`. Strings hold a CQL literal
// for every type, as Cassandra's fromJson accepts.
Result<std::string> JsonToValue(const CqlType& type, const JsonNode& node) {
  const TypeKind kind = type.kind();
  switch (node.kind) {
    case Kind::kString:
      return ParseLiteral(type, node.text);
    case Kind::kBoolean:
      if (kind != TypeKind::kBoolean) return WrongJsonType(node, type);
      return ParseLiteral(type, node.text);
    case Kind::kNumber:
      if (!TakesJsonNumber(kind)) return WrongJsonType(node, type);
      return ParseLiteral(type, node.text);
    case Kind::kArray:
      return ArrayToValue(type, node);
    case Kind::kObject:
      return ObjectToValue(type, node);
    case Kind::kNull:
      break;
  }
  return WrongJsonType(node, type);
}

bool SameKey(const CqlType& type, std::string_view a, std::string_view b) {
  std::string encoded_a, encoded_b;
  EncodeKeyComponent(type, a, SortOrder::kAsc, &encoded_a);
  EncodeKeyComponent(type, b, SortOrder::kAsc, &encoded_b);
  return encoded_a == encoded_b;
}

// One member of a row's @json: a cell to write, or a key column to check.
Status AddMember(const TableSchema& table, size_t index, const JsonNode& node,
                 std::span<const std::string> partition_key,
                 std::span<const std::string> clustering, std::vector<ColumnValue>* cells) {
  const ColumnDef& column = table.column(index);
  if (column.type->kind() == TypeKind::kCounter) {
    return Status::InvalidArgument("a counter changes only by adding (write a delta to its file)");
  }
  if (!column.is_primary_key() && node.kind == Kind::kNull) {
    cells->push_back({index, std::nullopt});
    return Status::Ok();
  }
  Result<std::string> value = JsonToValue(*column.type, node);
  if (!value.ok()) return value.status();
  if (!column.is_primary_key()) {
    cells->push_back({index, std::move(value).value()});
    return Status::Ok();
  }
  const auto key = column.kind == ColumnKind::kPartitionKey ? partition_key : clustering;
  const auto position = static_cast<size_t>(column.position);
  if (position < key.size() && SameKey(*column.type, *value, key[position])) return Status::Ok();
  return Status::InvalidArgument("key column value " + FormatLiteral(*column.type, *value) +
                                 " differs from the row's key");
}

}  // namespace

Status ParseRowJson(const TableSchema& table, std::span<const std::string> partition_key,
                    std::span<const std::string> clustering, std::string_view json,
                    std::vector<ColumnValue>* cells) {
  TreeBuilder builder;
  bool parsed = false;
  try {
    parsed = nlohmann::json::sax_parse(json.begin(), json.end(), &builder);
  } catch (const nlohmann::json::exception& e) {
    builder.error = e.what();
  }
  if (!parsed) return Status::InvalidArgument("invalid JSON: " + builder.error);
  const JsonNode& root = builder.root;
  if (root.kind != Kind::kObject) {
    return Status::InvalidArgument("expected one JSON object, got a JSON " + KindName(root.kind));
  }
  const std::vector<ColumnDef>& columns = table.def.columns;
  std::vector<bool> seen(columns.size());
  cells->clear();
  for (size_t i = 0; i < root.items.size(); ++i) {
    const std::string& name = root.keys[i];
    const size_t index = IndexByName(
        columns.size(), [&](size_t c) -> const std::string& { return columns[c].name; }, name);
    if (index == columns.size()) {
      return Status::InvalidArgument("unknown column " + name + " in table " + table.def.name);
    }
    if (seen[index]) return Status::InvalidArgument("column " + name + " given twice");
    seen[index] = true;
    CELLFS_RETURN_IF_ERROR(AddMember(table, index, root.items[i], partition_key, clustering, cells)
                               .WithContext("column " + columns[index].name));
  }
  return Status::Ok();
}

}  // namespace cellfs::fs
