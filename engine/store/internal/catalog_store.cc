// The stored catalog: one JSON record per keyspace (its DESCRIBE text and its
// tables' ids), the next table id, and the assignment of ids on DDL changes.
#include "engine/store/internal/catalog_store.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string_view>

#include "engine/cql/big_endian.h"
#include "engine/cql/cql_parser.h"
#include "engine/cql/describe.h"
#include "engine/store/internal/storage_keys.h"
#include "engine/store/storage/storage.h"

namespace cellfs {

std::optional<size_t> TableSchema::ColumnIndexById(uint32_t column_id) const {
  if (column_id == 0) return std::nullopt;
  for (size_t i = 0; i < column_ids.size(); ++i) {
    if (column_ids[i] == column_id) return i;
  }
  return std::nullopt;
}

const IndexSchema* TableSchema::FindIndex(const std::string& name) const {
  for (size_t i = 0; i < def.indexes.size() && i < indexes.size(); ++i) {
    if (def.indexes[i].name == name) return &indexes[i];
  }
  return nullptr;
}

namespace storage {
namespace {

using json = nlohmann::json;
using TableName = std::pair<std::string, std::string>;
using IdMap = std::map<TableName, TableIds>;

constexpr size_t kTableIdBytes = 4;

// Static and regular columns of a table carry ids; key columns live in the
// key itself. A view's columns carry their base columns' ids.
bool HasColumnId(const TableDef& table, const ColumnDef& column) {
  return !table.view && !column.is_primary_key();
}

size_t ColumnPosition(const TableDef& def, const std::string& name) {
  const ColumnDef* column = def.FindColumn(name);
  return column == nullptr ? def.columns.size() : static_cast<size_t>(column - def.columns.data());
}

// How view `def` maps onto its base `base` (whose ids are `base_ids`).
ViewSchema MakeViewSchema(const TableDef& def, const TableDef& base, const TableIds& base_ids,
                          bool built) {
  ViewSchema view;
  view.base_table_id = base_ids.table_id;
  view.built = built;
  const size_t key_count = def.partition_key_count() + def.clustering_count();
  for (size_t i = 0; i < key_count; ++i) {
    const size_t in_base = ColumnPosition(base, def.columns[i].name);
    view.base_column.push_back(in_base);
    if (in_base < base.columns.size() && !base.columns[in_base].is_primary_key()) {
      view.regular_key = i;
      auto id = base_ids.column_ids.find(def.columns[i].name);
      if (id != base_ids.column_ids.end()) view.regular_key_column_id = id->second;
    }
  }
  const size_t base_key_count = base.partition_key_count() + base.clustering_count();
  for (size_t j = 0; j < base_key_count; ++j) {
    view.view_key_position.push_back(ColumnPosition(def, base.columns[j].name));
  }
  return view;
}

// `base`, when given, is the view's base table with its ids.
TableHandle MakeHandle(const TableDef& def, const TableIds* ids,
                       const std::pair<const TableDef*, const TableIds*>& base = {},
                       std::vector<TableHandle> views = {}) {
  auto table = std::make_shared<TableSchema>();
  table->def = def;
  table->column_ids.assign(def.columns.size(), 0);
  table->views = std::move(views);
  if (ids == nullptr) return table;
  table->id = ids->table_id;
  const TableIds* column_ids = ids;
  if (def.view && base.first != nullptr && base.second != nullptr) {
    table->view = MakeViewSchema(def, *base.first, *base.second, ids->built);
    column_ids = base.second;
  }
  for (size_t i = 0; i < def.columns.size(); ++i) {
    auto it = column_ids->column_ids.find(def.columns[i].name);
    if (!def.columns[i].is_primary_key() && it != column_ids->column_ids.end()) {
      table->column_ids[i] = it->second;
    }
  }
  for (const IndexDef& index : def.indexes) {
    IndexSchema stored;
    const ColumnDef* column = def.FindColumn(index.column);
    stored.column = static_cast<size_t>(column - def.columns.data());
    stored.target = index.target;
    auto it = ids->indexes.find(index.name);
    if (it != ids->indexes.end()) {
      stored.id = it->second.id;
      stored.built = it->second.built;
    }
    table->indexes.push_back(stored);
  }
  return table;
}

// The entries of `ids` that belong to `keyspace`: a contiguous run, since the
// map orders by keyspace first.
std::pair<IdMap::const_iterator, IdMap::const_iterator> KeyspaceIds(const IdMap& ids,
                                                                    const std::string& keyspace) {
  auto begin = ids.lower_bound({keyspace, ""});
  auto end = begin;
  while (end != ids.end() && end->first.first == keyspace) ++end;
  return {begin, end};
}

bool SameIds(const TableIds& a, const TableIds& b) {
  return a.table_id == b.table_id && a.column_ids == b.column_ids &&
         a.next_column_id == b.next_column_id && a.indexes == b.indexes && a.built == b.built;
}

bool SameKeyspaceIds(const IdMap& a, const IdMap& b, const std::string& keyspace) {
  auto [a_begin, a_end] = KeyspaceIds(a, keyspace);
  auto [b_begin, b_end] = KeyspaceIds(b, keyspace);
  return std::equal(a_begin, a_end, b_begin, b_end, [](const auto& x, const auto& y) {
    return x.first == y.first && SameIds(x.second, y.second);
  });
}

// The ids of a table that did not exist before: a fresh table id, and its
// static and regular columns numbered from 1 in canonical column order.
TableIds NewTableIds(const TableDef& def, uint32_t* next_table_id) {
  TableIds ids;
  ids.table_id = (*next_table_id)++;
  ids.built = !def.view;  // a new view starts with a build over its base's rows
  for (const ColumnDef& column : def.columns) {
    if (HasColumnId(def, column)) ids.column_ids[column.name] = ids.next_column_id++;
  }
  for (const IndexDef& index : def.indexes) ids.indexes[index.name] = {(*next_table_id)++, true};
  return ids;
}

// A surviving table keeps its id and its columns' ids; columns that are new
// (including ones dropped and added again) get ids never used before.
// A kept index keeps its ids; a new one takes a fresh id and waits for its
// build.
TableIds KeptTableIds(const TableDef& def, const TableIds& before, uint32_t* next_table_id) {
  TableIds ids;
  ids.table_id = before.table_id;
  ids.next_column_id = before.next_column_id;
  ids.built = before.built;
  for (const ColumnDef& column : def.columns) {
    if (!HasColumnId(def, column)) continue;
    auto it = before.column_ids.find(column.name);
    ids.column_ids[column.name] = it != before.column_ids.end() ? it->second : ids.next_column_id++;
  }
  for (const IndexDef& index : def.indexes) {
    auto it = before.indexes.find(index.name);
    ids.indexes[index.name] =
        it != before.indexes.end() ? it->second : IndexIds{(*next_table_id)++, false};
  }
  return ids;
}

// ---- Records ----------------------------------------------------------------

std::string EncodeRecord(const KeyspaceDef& keyspace, const IdMap& ids) {
  json tables = json::object();
  auto [begin, end] = KeyspaceIds(ids, keyspace.name);
  for (auto it = begin; it != end; ++it) {
    json columns = json::object();
    for (const auto& [name, id] : it->second.column_ids) columns[name] = id;
    json entry = {{"id", it->second.table_id},
                  {"columns", std::move(columns)},
                  {"next_column_id", it->second.next_column_id}};
    if (!it->second.indexes.empty()) {
      json indexes = json::object();
      for (const auto& [name, index] : it->second.indexes) {
        indexes[name] = {{"id", index.id}, {"built", index.built}};
      }
      entry["indexes"] = std::move(indexes);
    }
    if (!it->second.built) entry["built"] = false;
    tables[it->first.second] = std::move(entry);
  }
  json record = {{"cql", DescribeKeyspace(keyspace)}, {"tables", std::move(tables)}};
  // Names and option text come from the CQL lexer, which passes any bytes
  // inside quotes; replacing invalid UTF-8 keeps dump() from throwing.
  return record.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string EncodeTableId(uint32_t id) { return BigEndianBytes(id, kTableIdBytes); }

// A positive id that fits in 32 bits, or nullopt.
std::optional<uint32_t> ReadId(const json& value) {
  if (!value.is_number_unsigned()) return std::nullopt;
  const auto id = value.get<uint64_t>();
  if (id == 0 || id > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(id);
}

// Runs a record's CQL into a fresh catalog, so a record can only ever define
// its own keyspace.
Status ParseKeyspace(std::string_view cql, KeyspaceDef* keyspace) {
  Catalog catalog;
  catalog.set_applying_stored_text(true);
  std::string session_keyspace;
  CELLFS_RETURN_IF_ERROR(catalog.ApplyScript(cql, &session_keyspace));
  if (catalog.keyspaces().size() != 1) {
    return Status::Corruption("the CQL defines " + std::to_string(catalog.keyspaces().size()) +
                              " keyspaces, not one");
  }
  *keyspace = catalog.keyspaces().begin()->second;
  return Status::Ok();
}

// "indexes": {name: {"id": n, "built": b}}, absent when the table has none.
Status DecodeIndexIds(const TableDef& table, const json& entry, const std::string& where,
                      TableIds* ids) {
  if (entry.contains("indexes")) {
    const json& indexes = entry["indexes"];
    if (!indexes.is_object()) return Status::Corruption(where + "malformed index ids");
    for (const auto& [name, value] : indexes.items()) {
      if (table.FindIndex(name) == nullptr) {
        return Status::Corruption(where + "ids for unknown index " + name);
      }
      auto id = value.is_object() && value.contains("id") ? ReadId(value["id"]) : std::nullopt;
      if (!id || !value.contains("built") || !value["built"].is_boolean()) {
        return Status::Corruption(where + "bad ids for index " + name);
      }
      ids->indexes[name] = {*id, value["built"].get<bool>()};
    }
  }
  for (const IndexDef& index : table.indexes) {
    if (!ids->indexes.contains(index.name)) {
      return Status::Corruption(where + "no id for index " + index.name);
    }
  }
  return Status::Ok();
}

Status DecodeTableIds(const TableDef& table, const json& entry, TableIds* ids) {
  const std::string where = "table " + table.name + ": ";
  if (!entry.is_object()) return Status::Corruption(where + "ids are not an object");
  auto table_id = entry.contains("id") ? ReadId(entry["id"]) : std::nullopt;
  auto next_column =
      entry.contains("next_column_id") ? ReadId(entry["next_column_id"]) : std::nullopt;
  if (!table_id || !next_column || !entry.contains("columns") || !entry["columns"].is_object()) {
    return Status::Corruption(where + "malformed ids");
  }
  ids->table_id = *table_id;
  ids->next_column_id = *next_column;
  std::set<uint32_t> seen;
  for (const auto& [name, value] : entry["columns"].items()) {
    const ColumnDef* column = table.FindColumn(name);
    auto id = ReadId(value);
    if (column == nullptr || !HasColumnId(table, *column)) {
      return Status::Corruption(where + "id for unknown column " + name);
    }
    if (!id || *id >= *next_column || !seen.insert(*id).second) {
      return Status::Corruption(where + "bad id for column " + name);
    }
    ids->column_ids[name] = *id;
  }
  for (const ColumnDef& column : table.columns) {
    if (HasColumnId(table, column) && !ids->column_ids.contains(column.name)) {
      return Status::Corruption(where + "no id for column " + column.name);
    }
  }
  if (entry.contains("built")) {
    if (!entry["built"].is_boolean() || !table.view) {
      return Status::Corruption(where + "malformed built flag");
    }
    ids->built = entry["built"].get<bool>();
  }
  return DecodeIndexIds(table, entry, where, ids);
}

Status DecodeKeyspaceIds(const KeyspaceDef& keyspace, const json& tables, IdMap* ids) {
  if (!tables.is_object()) return Status::Corruption("\"tables\" is not an object");
  for (const auto& [name, table] : keyspace.tables) {
    if (!tables.contains(name)) return Status::Corruption("table " + name + ": no ids");
    TableIds table_ids;
    CELLFS_RETURN_IF_ERROR(DecodeTableIds(table, tables[name], &table_ids));
    (*ids)[{keyspace.name, name}] = std::move(table_ids);
  }
  for (const auto& [name, entry] : tables.items()) {
    if (!keyspace.tables.contains(name)) return Status::Corruption("ids for unknown table " + name);
  }
  return Status::Ok();
}

// Decodes one catalog record into `*keyspace` and its tables' ids.
Status DecodeRecord(std::string_view key, std::string_view value, KeyspaceDef* keyspace,
                    IdMap* ids) {
  json record = json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded() || !record.is_object()) {
    return Status::Corruption("the record is not a JSON object");
  }
  if (!record.contains("cql") || !record["cql"].is_string() || !record.contains("tables")) {
    return Status::Corruption("the record lacks \"cql\" or \"tables\"");
  }
  CELLFS_RETURN_IF_ERROR(ParseKeyspace(record["cql"].get_ref<const std::string&>(), keyspace)
                             .WithContext("its CQL does not load"));
  if (CatalogKey(keyspace->name) != key) {
    return Status::Corruption("its CQL defines keyspace " + keyspace->name);
  }
  return DecodeKeyspaceIds(*keyspace, record["tables"], ids);
}

// Every status from decoding a record becomes Corruption naming the record.
Status RecordCorruption(std::string_view key, const Status& status) {
  const std::string name(key.substr(std::min<size_t>(1, key.size())));
  return Status::Corruption("catalog record of keyspace " + name + ": " + status.message());
}

Status ReadNextTableId(Storage* storage, const ReadPoint* at, uint32_t* next) {
  const std::string key = MetaKey(kNextTableIdName);
  std::optional<std::string> stored;
  CELLFS_RETURN_IF_ERROR(
      storage->Get(at, TaggedAddress(key), &stored).WithContext("reading the next table id"));
  if (!stored) {
    *next = 1;
    return Status::Ok();
  }
  if (stored->size() != kTableIdBytes) return Status::Corruption("next table id is not 4 bytes");
  *next = static_cast<uint32_t>(ReadBigEndian(*stored));
  return Status::Ok();
}

// Reads every catalog record into `*catalog` and `*ids`.
Status ReadRecords(Storage* storage, const ReadPoint* at, Catalog* catalog, IdMap* ids) {
  const std::string space(1, kCatalogTag);
  std::unique_ptr<Cursor> it = storage->NewCursor(at, {space, {}});
  std::string key = space;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    key.resize(1);
    key += it->key();
    KeyspaceDef keyspace;
    Status s = DecodeRecord(key, it->value(), &keyspace, ids);
    if (!s.ok()) return RecordCorruption(key, s);
    catalog->Restore(std::move(keyspace));
  }
  return it->status().WithContext("reading the catalog");
}

// Table ids must be unique across the store: data keys carry only the id.
Status CheckUniqueTableIds(const IdMap& ids, uint32_t* max_id) {
  std::set<uint32_t> seen;
  *max_id = 0;
  for (const auto& [name, table] : ids) {
    if (!seen.insert(table.table_id).second) {
      return Status::Corruption("catalog record of keyspace " + name.first + ": table " +
                                name.second + " reuses table id " + std::to_string(table.table_id));
    }
    *max_id = std::max(*max_id, table.table_id);
    for (const auto& [index_name, index] : table.indexes) {
      if (!seen.insert(index.id).second) {
        return Status::Corruption("catalog record of keyspace " + name.first + ": index " +
                                  index_name + " reuses id " + std::to_string(index.id));
      }
      *max_id = std::max(*max_id, index.id);
    }
  }
  return Status::Ok();
}

}  // namespace

std::string EncodeKeyspaceRecord(const KeyspaceDef& keyspace,
                                 const std::map<TableName, TableIds>& ids) {
  return EncodeRecord(keyspace, ids);
}

Status DecodeKeyspaceRecord(const std::string& keyspace_name, std::string_view value,
                            KeyspaceDef* keyspace, std::map<TableName, TableIds>* ids) {
  return DecodeRecord(CatalogKey(keyspace_name), value, keyspace, ids);
}

// ---- SchemaState --------------------------------------------------------------

SchemaState::SchemaState(std::shared_ptr<const Catalog> catalog, IdMap ids, uint32_t next_table_id)
    : catalog_(std::move(catalog)), ids_(std::move(ids)), next_table_id_(next_table_id) {
  auto find_ids = [this](const std::string& keyspace, const std::string& table) {
    auto it = ids_.find({keyspace, table});
    return it == ids_.end() ? nullptr : &it->second;
  };
  for (const auto& [keyspace_name, keyspace] : catalog_->keyspaces()) {
    // Views first: each base table's handle holds its views' handles.
    std::map<std::string, TableHandle> view_handles;
    std::map<std::string, std::vector<TableHandle>> views_of;
    for (const auto& [table_name, def] : keyspace.tables) {
      if (!def.view) continue;
      auto base = keyspace.tables.find(def.view->base_table);
      const bool has_base = base != keyspace.tables.end();  // the catalog never allows less
      TableHandle handle = MakeHandle(def, find_ids(keyspace_name, table_name),
                                      {has_base ? &base->second : nullptr,
                                       has_base ? find_ids(keyspace_name, base->first) : nullptr});
      if (handle->id != 0 && handle->view) views_of[def.view->base_table].push_back(handle);
      view_handles[table_name] = std::move(handle);
    }
    for (const auto& [table_name, def] : keyspace.tables) {
      TableHandle handle;
      if (def.view) {
        handle = view_handles[table_name];
      } else {
        auto own = views_of.find(table_name);
        handle = MakeHandle(def, find_ids(keyspace_name, table_name), {},
                            own == views_of.end() ? std::vector<TableHandle>() : own->second);
      }
      if (handle->id != 0) tables_by_id_[handle->id] = handle;
      for (const IndexSchema& index : handle->indexes) {
        if (index.id != 0) tables_by_index_id_[index.id] = handle;
      }
      tables_[{keyspace_name, table_name}] = std::move(handle);
    }
  }
}

TableHandle SchemaState::FindTable(const std::string& keyspace, const std::string& table) const {
  auto it = tables_.find({keyspace, table});
  return it == tables_.end() ? nullptr : it->second;
}

TableHandle SchemaState::FindTableById(uint32_t table_id) const {
  auto it = tables_by_id_.find(table_id);
  return it == tables_by_id_.end() ? nullptr : it->second;
}

bool SchemaState::IsLiveId(uint32_t id) const {
  return tables_by_id_.contains(id) || tables_by_index_id_.contains(id);
}

// ---- Changes ------------------------------------------------------------------

std::shared_ptr<const SchemaState> AssignIds(const SchemaState& before,
                                             std::shared_ptr<const Catalog> next,
                                             std::vector<uint32_t>* dropped_table_ids,
                                             const TableName* truncated) {
  IdMap ids;
  uint32_t next_table_id = before.next_table_id();
  for (const auto& [keyspace_name, keyspace] : next->keyspaces()) {
    for (const auto& [table_name, def] : keyspace.tables) {
      const TableName name{keyspace_name, table_name};
      auto old = before.ids().find(name);
      if (old == before.ids().end()) {
        ids[name] = NewTableIds(def, &next_table_id);
        continue;
      }
      TableIds kept = KeptTableIds(def, old->second, &next_table_id);
      if (truncated != nullptr && def.view && truncated->first == keyspace_name &&
          truncated->second == def.view->base_table) {
        // TRUNCATE of the base empties its views too, as in Cassandra.
        if (dropped_table_ids != nullptr) dropped_table_ids->push_back(old->second.table_id);
        kept.table_id = next_table_id++;
        kept.built = true;
      }
      if (truncated != nullptr && *truncated == name) {
        // Every space of the table starts empty: nothing to build.
        if (dropped_table_ids != nullptr) dropped_table_ids->push_back(old->second.table_id);
        kept.table_id = next_table_id++;
        for (auto& [index_name, index] : kept.indexes) {
          auto was = old->second.indexes.find(index_name);
          if (was != old->second.indexes.end() && dropped_table_ids != nullptr) {
            dropped_table_ids->push_back(was->second.id);
          }
          index = {next_table_id++, true};
        }
      }
      ids[name] = std::move(kept);
    }
  }
  if (dropped_table_ids != nullptr) {
    for (const auto& [name, table] : before.ids()) {
      auto now = ids.find(name);
      if (now == ids.end()) dropped_table_ids->push_back(table.table_id);
      for (const auto& [index_name, index] : table.indexes) {
        if (now == ids.end() || !now->second.indexes.contains(index_name)) {
          dropped_table_ids->push_back(index.id);
        }
      }
    }
  }
  return std::make_shared<const SchemaState>(std::move(next), std::move(ids), next_table_id);
}

std::shared_ptr<const SchemaState> WithViewBuilt(const SchemaState& before, const TableName& view) {
  IdMap ids = before.ids();
  auto it = ids.find(view);
  if (it != ids.end()) it->second.built = true;
  return std::make_shared<const SchemaState>(before.catalog(), std::move(ids),
                                             before.next_table_id());
}

std::shared_ptr<const SchemaState> WithIndexBuilt(const SchemaState& before, const TableName& table,
                                                  const std::string& index) {
  IdMap ids = before.ids();
  auto it = ids.find(table);
  if (it != ids.end()) {
    auto found = it->second.indexes.find(index);
    if (found != it->second.indexes.end()) found->second.built = true;
  }
  return std::make_shared<const SchemaState>(before.catalog(), std::move(ids),
                                             before.next_table_id());
}

void WriteSchemaChange(const SchemaState& before, const SchemaState& after,
                       const std::vector<uint32_t>& dropped_table_ids, Batch* batch) {
  for (const auto& [name, keyspace] : after.catalog()->keyspaces()) {
    const KeyspaceDef* old = before.catalog()->FindKeyspace(name);
    if (old == nullptr || !SameKeyspace(*old, keyspace) ||
        !SameKeyspaceIds(before.ids(), after.ids(), name)) {
      const std::string key = CatalogKey(name);
      batch->Put(TaggedAddress(key), EncodeRecord(keyspace, after.ids()));
    }
  }
  for (const auto& [name, keyspace] : before.catalog()->keyspaces()) {
    if (after.catalog()->FindKeyspace(name) == nullptr) {
      const std::string key = CatalogKey(name);
      batch->Delete(TaggedAddress(key));
    }
  }
  const std::string next_key = MetaKey(kNextTableIdName);
  batch->Put(TaggedAddress(next_key), EncodeTableId(after.next_table_id()));
  for (uint32_t id : dropped_table_ids) {
    const std::string key = DroppedTableKey(id);
    batch->Put(TaggedAddress(key), {});
  }
}

bool SameSchema(const SchemaState& a, const SchemaState& b) {
  const auto& a_spaces = a.catalog()->keyspaces();
  const auto& b_spaces = b.catalog()->keyspaces();
  if (a_spaces.size() != b_spaces.size() || a.next_table_id() != b.next_table_id()) return false;
  for (const auto& [name, keyspace] : a_spaces) {
    const KeyspaceDef* other = b.catalog()->FindKeyspace(name);
    if (other == nullptr || !SameKeyspace(keyspace, *other) ||
        !SameKeyspaceIds(a.ids(), b.ids(), name)) {
      return false;
    }
  }
  return true;
}

Status LoadSchema(Storage* storage, std::shared_ptr<const SchemaState>* schema) {
  // One read point, so the records and the next table id agree.
  std::unique_ptr<ReadPoint> at = storage->NewReadPoint();
  auto catalog = std::make_shared<Catalog>();
  IdMap ids;
  uint32_t next_table_id = 1;
  CELLFS_RETURN_IF_ERROR(ReadRecords(storage, at.get(), catalog.get(), &ids));
  CELLFS_RETURN_IF_ERROR(ReadNextTableId(storage, at.get(), &next_table_id));
  uint32_t max_id = 0;
  CELLFS_RETURN_IF_ERROR(CheckUniqueTableIds(ids, &max_id));
  if (max_id == std::numeric_limits<uint32_t>::max()) {
    return Status::Corruption("table ids exhausted");
  }
  next_table_id = std::max(next_table_id, max_id + 1);
  *schema = std::make_shared<const SchemaState>(std::move(catalog), std::move(ids), next_table_id);
  return Status::Ok();
}

}  // namespace storage
}  // namespace cellfs
