// Rows as JSON (Cassandra's toJson shapes) and CSV (cqlsh COPY TO), and the
// parse of a row's @json write into column values.
#include "fs/row_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/key_codec.h"
#include "engine/literal.h"

namespace cellfs::fs {
namespace {

bool IsTextKind(TypeKind kind) { return kind == TypeKind::kText || kind == TypeKind::kAscii; }

// --- framing of collections, tuples and UDTs (docs/FORMAT.md "Values") ---

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

// Reads one [int32 length][bytes] field from the front of `*in`; nullopt for
// length -1 (null). False when `*in` is too short.
bool ReadField(std::string_view* in, std::optional<std::string_view>* field) {
  if (in->size() < 4) return false;
  const uint32_t length = ReadUint32(*in);
  in->remove_prefix(4);
  if (length == 0xffffffff) {
    field->reset();
    return true;
  }
  if (length > in->size()) return false;
  *field = in->substr(0, length);
  in->remove_prefix(length);
  return true;
}

// The items of a list/set/map value (map keys and values alternating), or
// the components of a tuple/UDT value. Values are valid (the engine's), so a
// framing error only ends the list early.
std::vector<std::string_view> CollectionItems(std::string_view value, size_t per_entry) {
  std::vector<std::string_view> items;
  if (value.size() < 4) return items;
  const size_t count = size_t{ReadUint32(value)} * per_entry;
  value.remove_prefix(4);
  std::optional<std::string_view> item;
  while (items.size() < count && ReadField(&value, &item) && item) items.push_back(*item);
  return items;
}

std::vector<std::optional<std::string_view>> Components(std::string_view value) {
  std::vector<std::optional<std::string_view>> components;
  std::optional<std::string_view> component;
  while (!value.empty() && ReadField(&value, &component)) components.push_back(component);
  return components;
}

void AppendField(std::optional<std::string_view> field, std::string* out) {
  AppendUint32(field ? static_cast<uint32_t>(field->size()) : 0xffffffff, out);
  if (field) out->append(*field);
}

// --- output ---

// `text` (valid UTF-8) as a JSON string; non-ASCII characters stay raw.
void AppendJsonString(std::string_view text, std::string* out) {
  out->append(nlohmann::json(std::string(text))
                  .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

bool IsJsonNumberKind(TypeKind kind) {
  static constexpr TypeKind kNumbers[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
      TypeKind::kBigint,  TypeKind::kVarint,   TypeKind::kCounter,
      TypeKind::kFloat,   TypeKind::kDouble,   TypeKind::kDecimal};
  return std::find(std::begin(kNumbers), std::end(kNumbers), kind) != std::end(kNumbers);
}

void AppendJson(const CqlType& type, std::string_view value, std::string* out);

// A list or set as an array; a map as an object whose keys are the keys'
// canonical text.
void AppendJsonCollection(const CqlType& type, std::string_view value, std::string* out) {
  const bool is_map = type.kind() == TypeKind::kMap;
  const CqlType& key_type = *type.params()[0];
  const std::vector<std::string_view> items = CollectionItems(value, is_map ? 2 : 1);
  out->push_back(is_map ? '{' : '[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->append(is_map && i % 2 == 1 ? ": " : ", ");
    if (!is_map) {
      AppendJson(key_type, items[i], out);
    } else if (i % 2 == 1) {
      AppendJson(*type.params()[1], items[i], out);
    } else {
      const bool text = IsTextKind(key_type.kind());
      AppendJsonString(text ? std::string(items[i]) : FormatLiteral(key_type, items[i]), out);
    }
  }
  out->push_back(is_map ? '}' : ']');
}

// A tuple as an array of its components; a UDT as an object of every field
// of its type, fields the value does not hold being null, except the empty
// (0-byte) value: {}, so that it reads back as itself.
void AppendJsonComponents(const CqlType& type, std::string_view value, std::string* out) {
  const bool is_udt = type.kind() == TypeKind::kUdt;
  const auto components = Components(value);
  const size_t count = is_udt && !value.empty() ? type.params().size() : components.size();
  out->push_back(is_udt ? '{' : '[');
  for (size_t i = 0; i < count && i < type.params().size(); ++i) {
    if (i > 0) out->append(", ");
    if (is_udt) {
      AppendJsonString(type.field_names()[i], out);
      out->append(": ");
    }
    if (i < components.size() && components[i]) {
      AppendJson(*type.params()[i], *components[i], out);
    } else {
      out->append("null");
    }
  }
  out->push_back(is_udt ? '}' : ']');
}

// Numbers as JSON numbers, except NaN, the infinities and numbers beyond a
// double's range (which JSON parsers, ours included, refuse): strings. A
// float always shows a fraction or exponent, as Java prints it, so -0.0
// reads back as a float (JSON's -0 is the integer 0).
void AppendJsonNative(const CqlType& type, std::string_view value, std::string* out) {
  std::string text = FormatLiteral(type, value);
  const TypeKind kind = type.kind();
  double number = 0;
  const bool in_range =
      std::from_chars(text.data(), text.data() + text.size(), number).ec == std::errc();
  if (kind == TypeKind::kBoolean) {
    out->append(text);
  } else if (!IsJsonNumberKind(kind) || !in_range || !std::isfinite(number)) {
    AppendJsonString(text, out);
  } else {
    const bool is_float = kind == TypeKind::kFloat || kind == TypeKind::kDouble;
    if (is_float && text.find_first_of(".e") == std::string::npos) text += ".0";
    out->append(text);
  }
}

void AppendJson(const CqlType& type, std::string_view value, std::string* out) {
  const TypeKind kind = type.kind();
  const bool has_empty_spelling = IsTextKind(kind) || kind == TypeKind::kBlob ||
                                  kind == TypeKind::kTuple || kind == TypeKind::kUdt;
  if (value.empty() && !has_empty_spelling) {
    out->append("null");  // Cassandra's empty value: no JSON spelling of its own
  } else if (type.is_collection()) {
    AppendJsonCollection(type, value, out);
  } else if (kind == TypeKind::kTuple || kind == TypeKind::kUdt) {
    AppendJsonComponents(type, value, out);
  } else if (IsTextKind(kind)) {
    AppendJsonString(value, out);
  } else {
    AppendJsonNative(type, value, out);
  }
}

const Cell* FindCell(const RowFragment* fragment, uint32_t column_id) {
  if (fragment == nullptr) return nullptr;
  auto it = std::lower_bound(fragment->cells.begin(), fragment->cells.end(), column_id,
                             [](const RowCell& cell, uint32_t id) { return cell.column_id < id; });
  if (it == fragment->cells.end() || it->column_id != column_id) return nullptr;
  return it->cell.is_tombstone() ? nullptr : &it->cell;
}

// Every column's value in schema order; nullopt where absent.
std::vector<std::optional<std::string_view>> RowValues(const TableSchema& table,
                                                       std::span<const std::string> partition_key,
                                                       std::span<const std::string> clustering,
                                                       const RowFragment* static_row,
                                                       const RowFragment& row) {
  std::vector<std::optional<std::string_view>> values(table.def.columns.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDef& column = table.column(i);
    const auto position = static_cast<size_t>(column.position);
    if (column.kind == ColumnKind::kPartitionKey) {
      if (position < partition_key.size()) values[i] = partition_key[position];
    } else if (column.kind == ColumnKind::kClustering) {
      if (position < clustering.size()) values[i] = clustering[position];
    } else {
      const RowFragment* source = column.kind == ColumnKind::kStatic ? static_row : &row;
      if (const Cell* cell = FindCell(source, table.column_ids[i])) values[i] = cell->value;
    }
  }
  return values;
}

// A CSV field, double-quoted when it holds a separator, a quote or a line
// break, or when `quote_empty` and it is empty.
void AppendCsvField(std::string_view text, bool quote_empty, std::string* out) {
  const bool quoted =
      (quote_empty && text.empty()) || text.find_first_of(",\"\n\r") != std::string_view::npos;
  if (!quoted) {
    out->append(text);
    return;
  }
  out->push_back('"');
  for (char c : text) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

// --- input ---

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
    std::string out;
    for (size_t i = 0; i < node.items.size(); ++i) {
      if (node.items[i].kind == Kind::kNull) {
        AppendField(std::nullopt, &out);
        continue;
      }
      Result<std::string> component = JsonToValue(*type.params()[i], node.items[i]);
      if (!component.ok()) return component;
      AppendField(*component, &out);
    }
    return out;
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
  std::string out;
  for (const auto& component : components) AppendField(component, &out);
  return out;
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
      if (!IsJsonNumberKind(kind) && kind != TypeKind::kTimestamp && kind != TypeKind::kDate &&
          kind != TypeKind::kTime) {
        return WrongJsonType(node, type);
      }
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

std::string RowToJson(const TableSchema& table, std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, const RowFragment* static_row,
                      const RowFragment& row) {
  const auto values = RowValues(table, partition_key, clustering, static_row, row);
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.append(", ");
    AppendJsonString(table.column(i).name, &out);
    out.append(": ");
    if (values[i]) {
      AppendJson(*table.column(i).type, *values[i], &out);
    } else {
      out.append("null");
    }
  }
  out.push_back('}');
  return out;
}

std::string CsvHeader(const TableSchema& table) {
  std::string out;
  for (size_t i = 0; i < table.def.columns.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendCsvField(table.column(i).name, false, &out);
  }
  out.push_back('\n');
  return out;
}

std::string RowToCsv(const TableSchema& table, std::span<const std::string> partition_key,
                     std::span<const std::string> clustering, const RowFragment* static_row,
                     const RowFragment& row) {
  const auto values = RowValues(table, partition_key, clustering, static_row, row);
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    if (!values[i]) continue;
    const CqlType& type = *table.column(i).type;
    const bool text = IsTextKind(type.kind());
    AppendCsvField(text ? std::string(*values[i]) : FormatLiteral(type, *values[i]), text, &out);
  }
  out.push_back('\n');
  return out;
}

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
