// Rows as JSON (Cassandra's toJson shapes) and CSV (cqlsh COPY TO); the
// parse of a row's @json write is in row_json_parse.cc.
#include "fs/formats/row_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/cql/collection_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/row_json_internal.h"

namespace cellfs::fs {

bool IsJsonNumberKind(TypeKind kind) {
  static constexpr TypeKind kNumbers[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
      TypeKind::kBigint,  TypeKind::kVarint,   TypeKind::kCounter,
      TypeKind::kFloat,   TypeKind::kDouble,   TypeKind::kDecimal};
  return std::find(std::begin(kNumbers), std::end(kNumbers), kind) != std::end(kNumbers);
}

bool TakesJsonNumber(TypeKind kind) {
  return IsJsonNumberKind(kind) || kind == TypeKind::kTimestamp || kind == TypeKind::kDate ||
         kind == TypeKind::kTime;
}

namespace {

bool IsTextKind(TypeKind kind) { return kind == TypeKind::kText || kind == TypeKind::kAscii; }

// `text` (valid UTF-8) as a JSON string; non-ASCII characters stay raw.
// `text` as a JSON string. Stored text is valid UTF-8 (every write path
// validates it), so only '"', '\\' and control characters need escaping;
// this runs for every value of an export, so it is written out by hand.
void AppendJsonString(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t plain = 0;  // start of the run not yet copied
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.substr(plain, i - plain));
    plain = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xf]);
    }
  }
  out->append(text.substr(plain));
  out->push_back('"');
}

void AppendJson(const CqlType& type, std::string_view value, std::string* out);

// Whether a CSV field holds a byte that only a quoted field can carry (one
// pass, where find_first_of would scan the text once per byte it holds).
bool NeedsCsvQuotes(std::string_view text) {
  for (char c : text) {
    if (c == ',' || c == '"' || c == '\n' || c == '\r') return true;
  }
  return false;
}

// A list or set as an array; a map as an object whose keys are the keys'
// canonical text.
void AppendJsonCollection(const CqlType& type, std::string_view value, std::string* out) {
  const bool is_map = type.kind() == TypeKind::kMap;
  const CqlType& key_type = *type.params()[0];
  std::vector<std::string_view> items;
  // Values are valid (the engine's), so the framing cannot fail.
  static_cast<void>(UnpackCollection(value, is_map ? 2 : 1, &items));
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
  std::vector<std::optional<std::string_view>> components;
  static_cast<void>(UnpackComponents(value, type.params().size(), &components));
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

// SELECT JSON's timestamp, "yyyy-MM-dd HH:mm:ss.SSSX" in UTC: the canonical
// text with a space for the 'T' ("2019-08-02 21:57:44.418Z"); Java prints
// years past 9999 without a sign.
std::string TimestampJsonText(std::string canonical) {
  if (!canonical.empty() && canonical[0] == '+') canonical.erase(0, 1);
  const size_t t = canonical.find('T');
  if (t != std::string::npos) canonical[t] = ' ';
  return canonical;
}

// cqlsh COPY TO's timestamp: "2019-08-02 21:57:44.418+0000", which
// @insert's CSV (any CQL timestamp literal) reads back.
std::string TimestampCsvText(std::string canonical) {
  const size_t t = canonical.find('T');
  if (t != std::string::npos) canonical[t] = ' ';
  if (!canonical.empty() && canonical.back() == 'Z')
    canonical.replace(canonical.size() - 1, 1, "+0000");
  return canonical;
}

// The columns in SELECT *'s order: partition key and clustering columns in
// key order, then static columns, then regular ones, each by name
// (Cassandra's allColumnsInSelectOrder). The schema lists the key columns
// first and the others by name, so a stable partition does it.
std::vector<size_t> SelectOrder(const TableSchema& table) {
  std::vector<size_t> order(table.def.columns.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(), [&](size_t i) {
    const ColumnKind kind = table.column(i).kind;
    return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering ||
           kind == ColumnKind::kStatic;
  });
  return order;
}

// The columns a row shows: `columns` when given (a projection), else
// SELECT *'s.
std::vector<size_t> ColumnsShown(const TableSchema& table, std::span<const size_t> columns) {
  if (columns.empty()) return SelectOrder(table);
  return {columns.begin(), columns.end()};
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
  const bool is_float = kind == TypeKind::kFloat || kind == TypeKind::kDouble;
  if (kind == TypeKind::kBoolean) {
    out->append(text);
  } else if (kind == TypeKind::kTimestamp) {
    AppendJsonString(TimestampJsonText(text), out);
  } else if (is_float && !std::isfinite(number)) {
    out->append("null");  // Cassandra 4's toJSONString: JSON has no NaN or Infinity
  } else if (!IsJsonNumberKind(kind) || !in_range || !std::isfinite(number)) {
    AppendJsonString(text, out);
  } else {
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
      const RowCell* cell = source != nullptr ? source->FindCell(table.column_ids[i]) : nullptr;
      // A tombstone is no value: the column shows as absent (null).
      if (cell != nullptr && !cell->cell.is_tombstone()) values[i] = cell->cell.value;
    }
  }
  return values;
}

// A CSV field, double-quoted when it holds a separator, a quote or a line
// break, or when `quote_empty` and it is empty.
void AppendCsvField(std::string_view text, bool quote_empty, std::string* out) {
  const bool quoted = (quote_empty && text.empty()) || NeedsCsvQuotes(text);
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

}  // namespace

void AppendJsonValue(const CqlType& type, std::string_view value, std::string* out) {
  AppendJson(type, value, out);
}

void AppendJsonText(std::string_view text, std::string* out) { AppendJsonString(text, out); }

std::vector<size_t> SelectStarOrder(const TableSchema& table) { return SelectOrder(table); }

void AppendRowJson(const TableSchema& table, std::span<const std::string> partition_key,
                   std::span<const std::string> clustering, const RowFragment* static_row,
                   const RowFragment& row, std::span<const size_t> columns, std::string* out) {
  const auto values = RowValues(table, partition_key, clustering, static_row, row);
  const std::vector<size_t> order = columns.empty() ? SelectOrder(table) : std::vector<size_t>();
  out->push_back('{');
  bool first = true;
  for (size_t i : columns.empty() ? std::span<const size_t>(order) : columns) {
    if (!first) out->append(", ");
    first = false;
    AppendJsonString(table.column(i).name, out);
    out->append(": ");
    if (values[i]) {
      AppendJson(*table.column(i).type, *values[i], out);
    } else {
      out->append("null");
    }
  }
  out->push_back('}');
}

std::string RowToJson(const TableSchema& table, std::span<const std::string> partition_key,
                      std::span<const std::string> clustering, const RowFragment* static_row,
                      const RowFragment& row, std::span<const size_t> columns) {
  std::string out;
  AppendRowJson(table, partition_key, clustering, static_row, row, columns, &out);
  return out;
}

std::string CsvHeader(const TableSchema& table, std::span<const size_t> columns) {
  std::string out;
  bool first = true;
  for (size_t i : ColumnsShown(table, columns)) {
    if (!first) out.push_back(',');
    first = false;
    AppendCsvField(table.column(i).name, false, &out);
  }
  out.push_back('\n');
  return out;
}

void AppendRowCsv(const TableSchema& table, std::span<const std::string> partition_key,
                  std::span<const std::string> clustering, const RowFragment* static_row,
                  const RowFragment& row, std::span<const size_t> columns, std::string* out) {
  const auto values = RowValues(table, partition_key, clustering, static_row, row);
  const std::vector<size_t> order = columns.empty() ? SelectOrder(table) : std::vector<size_t>();
  bool first = true;
  for (size_t i : columns.empty() ? std::span<const size_t>(order) : columns) {
    if (!first) out->push_back(',');
    first = false;
    if (!values[i]) continue;
    const CqlType& type = *table.column(i).type;
    if (IsTextKind(type.kind())) {
      AppendCsvField(*values[i], true, out);
    } else if (type.kind() == TypeKind::kTimestamp && !values[i]->empty()) {
      AppendCsvField(TimestampCsvText(FormatLiteral(type, *values[i])), false, out);
    } else {
      AppendCsvField(FormatLiteral(type, *values[i]), false, out);
    }
  }
  out->push_back('\n');
}

std::string RowToCsv(const TableSchema& table, std::span<const std::string> partition_key,
                     std::span<const std::string> clustering, const RowFragment* static_row,
                     const RowFragment& row, std::span<const size_t> columns) {
  std::string out;
  AppendRowCsv(table, partition_key, clustering, static_row, row, columns, &out);
  return out;
}

}  // namespace cellfs::fs
