// The parse of a row's @json write (fs/formats/row_json.h): one JSON object read
// by the JSON converter @insert's JSON Lines also use (fs/formats/json_value.h),
// each member checked against its column and turned into a serialized value.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "fs/formats/json_value.h"
#include "fs/formats/row_json.h"

namespace cellfs::fs {
namespace {

namespace od = json_internal::od;

// The index of the column `name` names: exactly, else with one pair of
// double quotes removed, as Cassandra's fromJson takes case-sensitive
// names ("\"Name\""); columns.size() if none.
size_t ColumnIndex(const std::vector<ColumnDef>& columns, std::string_view name) {
  for (int unquoted = 0; unquoted < 2; ++unquoted) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == name) return i;
    }
    if (name.size() < 2 || name.front() != '"' || name.back() != '"') break;
    name = name.substr(1, name.size() - 2);
  }
  return columns.size();
}

bool SameKey(const CqlType& type, std::string_view a, std::string_view b) {
  std::string encoded_a, encoded_b;
  EncodeKeyComponent(type, a, SortOrder::kAsc, &encoded_a);
  EncodeKeyComponent(type, b, SortOrder::kAsc, &encoded_b);
  return encoded_a == encoded_b;
}

// One member of a row's @json: a cell to write, or a key column to check.
Status AddMember(const TableSchema& table, size_t index, od::value& node,
                 std::span<const std::string> partition_key,
                 std::span<const std::string> clustering, std::vector<ColumnValue>* cells) {
  const ColumnDef& column = table.column(index);
  if (column.type->kind() == TypeKind::kCounter) {
    return Status::InvalidArgument("a counter changes only by adding (write a delta to its file)");
  }
  od::json_type json;
  if (auto error = json_internal::TypeOf(node, &json)) return json_internal::JsonError(error);
  if (json == od::json_type::null) {
    if (column.is_primary_key()) {
      return Status::InvalidArgument("a key column cannot be null");
    }
    cells->push_back({index, std::nullopt});
    return Status::Ok();
  }
  std::string value;
  CELLFS_RETURN_IF_ERROR(json_internal::JsonToValue(*column.type, node, json, &value));
  if (!column.is_primary_key()) {
    cells->push_back({index, std::move(value)});
    return Status::Ok();
  }
  const auto key = column.kind == ColumnKind::kPartitionKey ? partition_key : clustering;
  const auto position = static_cast<size_t>(column.position);
  if (position < key.size() && SameKey(*column.type, value, key[position])) return Status::Ok();
  return Status::InvalidArgument("key column value " + FormatLiteral(*column.type, value) +
                                 " differs from the row's key");
}

}  // namespace

Status ParseRowJson(const TableSchema& table, std::span<const std::string> partition_key,
                    std::span<const std::string> clustering, std::string_view json,
                    std::vector<ColumnValue>* cells) {
  const std::vector<ColumnDef>& columns = table.def.columns;
  std::vector<bool> seen(columns.size());
  cells->clear();
  json_internal::JsonObjectReader reader;
  return reader.Read(json, [&](std::string_view name, od::value& value) {
    const size_t index = ColumnIndex(columns, name);
    if (index == columns.size()) {
      return Status::InvalidArgument("unknown column " + std::string(name) + " in table " +
                                     table.def.name);
    }
    if (seen[index]) return Status::InvalidArgument("column " + std::string(name) + " given twice");
    seen[index] = true;
    return AddMember(table, index, value, partition_key, clustering, cells)
        .WithContext("column " + columns[index].name);
  });
}

}  // namespace cellfs::fs
