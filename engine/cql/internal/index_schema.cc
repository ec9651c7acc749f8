// CREATE INDEX / DROP INDEX against the schema model, with Cassandra's
// validation order and messages (docs/CQL.md "Secondary indexes").
#include "engine/cql/internal/index_schema.h"

#include <algorithm>
#include <cctype>

#include "engine/cql/internal/view_schema.h"
#include "engine/cql/sai_options.h"
#include "engine/cql/sasi_options.h"

namespace cellfs {
namespace {

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

bool ReferencesDuration(const CqlType& type) {
  if (type.kind() == TypeKind::kDuration) return true;
  return std::any_of(type.params().begin(), type.params().end(),
                     [](const TypePtr& p) { return ReferencesDuration(*p); });
}

bool HasIndexNamed(const KeyspaceDef& keyspace, const std::string& name) {
  return std::any_of(keyspace.tables.begin(), keyspace.tables.end(),
                     [&](const auto& entry) { return entry.second.FindIndex(name) != nullptr; });
}

// Word characters only (Java's \w: ASCII letters, digits, '_').
std::string WordCharacters(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') out += c;
  }
  return out;
}

bool IsValidIndexName(const std::string& name) {
  return !name.empty() && WordCharacters(name) == name;
}

// Cassandra's IndexTarget.Type.toString.
const char* TargetWord(IndexTargetKind kind) {
  switch (kind) {
    case IndexTargetKind::kKeys:
      return "keys";
    case IndexTargetKind::kValues:
      return "values";
    case IndexTargetKind::kEntries:
      return "entries";
    case IndexTargetKind::kFull:
      return "full";
    case IndexTargetKind::kSimple:
      break;
  }
  return "";
}

Status ValidateTarget(const ColumnDef& column, IndexTargetKind target, const TableDef& table) {
  const CqlType& type = *column.type;
  const std::string& name = column.name;
  if (ReferencesDuration(type)) {
    if (type.is_collection()) {
      return Invalid("Secondary indexes are not supported on collections containing durations");
    }
    if (type.kind() == TypeKind::kTuple) {
      return Invalid("Secondary indexes are not supported on tuples containing durations");
    }
    if (type.kind() == TypeKind::kUdt) {
      return Invalid("Secondary indexes are not supported on UDTs containing durations");
    }
    return Invalid("Secondary indexes are not supported on duration columns");
  }
  if (column.kind == ColumnKind::kPartitionKey && table.partition_key_count() == 1) {
    return Invalid("Cannot create secondary index on the only partition key column " + name);
  }
  const bool frozen_collection = type.is_collection() && type.frozen();
  if (frozen_collection && target != IndexTargetKind::kFull) {
    return Invalid(std::string("Cannot create ") + TargetWord(target) +
                   "() index on frozen column " + name +
                   ". Frozen collections are immutable and must be fully indexed by using the "
                   "'full(" +
                   name + ")' modifier");
  }
  if (!frozen_collection && target == IndexTargetKind::kFull) {
    return Invalid("full() indexes can only be created on frozen collections");
  }
  if (!type.is_collection() && target != IndexTargetKind::kSimple) {
    return Invalid(std::string("Cannot create ") + TargetWord(target) + "() index on " + name +
                   ". Non-collection columns only support simple indexes");
  }
  const bool multi_cell_map = type.kind() == TypeKind::kMap && type.is_multi_cell();
  if (!multi_cell_map &&
      (target == IndexTargetKind::kKeys || target == IndexTargetKind::kEntries)) {
    return Invalid(std::string("Cannot create index on ") + TargetWord(target) + " of column " +
                   name + " with non-map type");
  }
  if (type.kind() == TypeKind::kUdt && type.is_multi_cell()) {
    return Invalid("Cannot create index on non-frozen UDT column " + name);
  }
  return Status::Ok();
}

// "tbl_col_idx", then "tbl_col_idx_1", ... until free in the keyspace.
std::string AvailableIndexName(const KeyspaceDef& keyspace, const std::string& table,
                               const std::string& column) {
  const std::string base = WordCharacters(table + "_" + column + "_idx");
  std::string name = base;
  for (int i = 1; HasIndexNamed(keyspace, name); ++i) name = base + "_" + std::to_string(i);
  return name;
}

}  // namespace

bool IsKnownIndexClass(const std::string& name) {
  static const char* const kKnown[] = {
      "org.apache.cassandra.index.sasi.SASIIndex",
      "SASIIndex",
      "org.apache.cassandra.index.sai.StorageAttachedIndex",
      "StorageAttachedIndex",
      "sai",
      "legacy_local_table",
  };
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::any_of(std::begin(kKnown), std::end(kKnown), [&](const char* known) {
    std::string k = known;
    std::transform(k.begin(), k.end(), k.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return k == lower;
  });
}

IndexFamily IndexFamilyOf(const std::string& custom_class) {
  std::string lower = custom_class;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.ends_with("sasiindex")) return IndexFamily::kSasi;
  if (lower.ends_with("storageattachedindex") || lower == "sai") return IndexFamily::kSai;
  return IndexFamily::kPlain;
}

Status IndexStatementKeyspace(const CreateIndex& s, const std::string& current,
                              std::string* keyspace) {
  *keyspace = !s.table.keyspace.empty()   ? s.table.keyspace
              : !s.index.keyspace.empty() ? s.index.keyspace
                                          : current;
  if (!s.index.keyspace.empty() && s.index.keyspace != *keyspace) {
    return Invalid("Keyspace name '" + *keyspace + "' doesn't match index name '" +
                   s.index.keyspace + "." + s.index.name + "'");
  }
  if (keyspace->empty()) {
    return Invalid(
        "No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename");
  }
  return Status::Ok();
}

Status AddIndex(const CreateIndex& s, KeyspaceDef* keyspace, bool* added, std::string* table_name,
                IndexOptionChecks checks) {
  const bool check_options = checks == IndexOptionChecks::kCheck;
  *added = false;
  *table_name = s.table.name;
  auto found = keyspace->tables.find(s.table.name);
  if (found == keyspace->tables.end()) return Invalid("Table '" + s.table.name + "' doesn't exist");
  TableDef& table = found->second;
  if (!s.index.name.empty() && HasIndexNamed(*keyspace, s.index.name)) {
    if (s.if_not_exists) return Status::Ok();
    return Invalid("Index '" + s.index.name + "' already exists");
  }
  if (table.has_counters()) return Invalid("Secondary indexes on counter tables aren't supported");
  CELLFS_RETURN_IF_ERROR(CheckIndexableTable(table));
  if (!s.using_class.empty() && !IsKnownIndexClass(s.using_class)) {
    return Invalid("Unable to find custom indexer class '" + s.using_class + "'");
  }
  if (!s.options.empty() && s.using_class.empty()) {
    return Invalid("Cannot specify options for a non-CUSTOM index");
  }
  for (const char* reserved : {"class_name", "target"}) {
    if (!check_options) break;
    for (const auto& option : s.options) {
      if (option.first == reserved) {
        return Invalid(std::string("Cannot specify ") + reserved + " as a CUSTOM option");
      }
    }
  }
  if (s.targets.empty()) {
    if (!s.custom) {
      return Invalid("Only CUSTOM indexes can be created without specifying a target column");
    }
    return Status::NotSupported(
        "a custom index without a target column is not supported by "
        "cellfs");
  }
  if (s.targets.size() > 1) {
    if (!s.custom) return Invalid("Only CUSTOM indexes support multiple columns");
    for (size_t i = 0; i < s.targets.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (s.targets[i].column == s.targets[j].column) {
          return Invalid("Duplicate column '" + s.targets[i].column + "' in index target list");
        }
      }
    }
    return Status::NotSupported("a custom index on several columns is not supported by cellfs");
  }
  const CreateIndex::Target& written = s.targets.front();
  const ColumnDef* column = table.FindColumn(written.column);
  if (column == nullptr) {
    return Invalid("Undefined column name " + written.column + " in table " + keyspace->name + "." +
                   table.name);
  }
  // SASIIndex.validateOptions.
  if (IndexFamilyOf(s.using_class) == IndexFamily::kSasi &&
      column->kind == ColumnKind::kPartitionKey) {
    return Invalid("partition key columns are not yet supported by SASI");
  }
  IndexDef index;
  index.column = column->name;
  index.target = written.kind == IndexTargetKind::kSimple && column->type->is_collection()
                     ? IndexTargetKind::kValues
                     : written.kind;
  CELLFS_RETURN_IF_ERROR(ValidateTarget(*column, index.target, table));
  if (!s.index.name.empty() && !IsValidIndexName(s.index.name)) {
    return Invalid("Illegal index name " + s.index.name);
  }
  index.name =
      s.index.name.empty() ? AvailableIndexName(*keyspace, table.name, column->name) : s.index.name;
  index.custom_class = s.using_class;
  index.options = s.options;
  std::sort(index.options.begin(), index.options.end());
  for (const IndexDef& existing : table.indexes) {
    if (existing.column == index.column && existing.target == index.target &&
        existing.custom_class == index.custom_class && existing.options == index.options) {
      if (s.if_not_exists) return Status::Ok();
      return Invalid("Index " + index.name + " is a duplicate of existing index " + existing.name);
    }
  }
  // The new table's validation: the index's own options.
  if (check_options && IndexFamilyOf(index.custom_class) == IndexFamily::kSasi) {
    CELLFS_RETURN_IF_ERROR(ValidateSasiOptions(index, *column));
  }
  if (check_options && IndexFamilyOf(index.custom_class) == IndexFamily::kSai) {
    CELLFS_RETURN_IF_ERROR(ValidateSaiOptions(index, *column, table));
  }
  table.indexes.push_back(std::move(index));
  *added = true;
  return Status::Ok();
}

bool RemoveIndex(const std::string& name, KeyspaceDef* keyspace, std::string* table_name) {
  for (auto& [tname, table] : keyspace->tables) {
    auto it = std::find_if(table.indexes.begin(), table.indexes.end(),
                           [&](const IndexDef& index) { return index.name == name; });
    if (it == table.indexes.end()) continue;
    table.indexes.erase(it);
    *table_name = tname;
    return true;
  }
  return false;
}

Status CheckNoDependentIndexes(const TableDef& table, const std::string& column,
                               const char* action) {
  std::string names;
  for (const IndexDef& index : table.indexes) {
    if (index.column != column) continue;
    names += (names.empty() ? "" : ",") + index.name;
  }
  if (names.empty()) return Status::Ok();
  return Invalid(std::string("Cannot ") + action + " column " + column +
                 " because it has dependent secondary indexes (" + names + ")");
}

}  // namespace cellfs
