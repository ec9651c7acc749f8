// Persists the catalog in storage with the stable table and column ids that
// stored data carries (docs/FORMAT.md "Catalog"), and assigns those ids when
// DDL changes the schema.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cql/catalog.h"
#include "engine/cql/table_schema.h"
#include "engine/status.h"

namespace cellfs::storage {

class Batch;
class Storage;

// The stored state of one index: its entries' space and whether the
// entries for data written before it existed are all in.
struct IndexIds {
  uint32_t id = 0;
  bool built = false;
  bool operator==(const IndexIds&) const = default;
};

// Stable ids of one table: the table's id, each static or regular column's
// id by name, and each index's ids by name.
struct TableIds {
  uint32_t table_id = 0;
  std::map<std::string, uint32_t> column_ids;
  uint32_t next_column_id = 1;
  std::map<std::string, IndexIds> indexes;
  // A materialized view: false while entries for the base rows written
  // before it are still being added. Always true for a table. A view's
  // columns have no ids of their own: they carry their base columns'.
  bool built = true;
};

// The schema with its ids: what the engine reads tables from. Immutable once
// built; the engine swaps in a new one on every DDL change.
class SchemaState {
 public:
  SchemaState(std::shared_ptr<const Catalog> catalog,
              std::map<std::pair<std::string, std::string>, TableIds> ids, uint32_t next_table_id);

  const std::shared_ptr<const Catalog>& catalog() const { return catalog_; }
  const std::map<std::pair<std::string, std::string>, TableIds>& ids() const { return ids_; }
  uint32_t next_table_id() const { return next_table_id_; }

  // nullptr when absent.
  TableHandle FindTable(const std::string& keyspace, const std::string& table) const;
  // nullptr when no live table has this id.
  TableHandle FindTableById(uint32_t table_id) const;
  // Whether `id` is a live table's or a live index's (the sweeper reclaims
  // a dropped id's spaces only once it is neither).
  bool IsLiveId(uint32_t id) const;

 private:
  std::shared_ptr<const Catalog> catalog_;
  std::map<std::pair<std::string, std::string>, TableIds> ids_;
  uint32_t next_table_id_;
  std::map<std::pair<std::string, std::string>, TableHandle> tables_;
  std::map<uint32_t, TableHandle> tables_by_id_;
  std::map<uint32_t, TableHandle> tables_by_index_id_;
};

// The ids for `next` given the state before a DDL change: tables and
// columns that persist keep their ids (matched by name; a renamed key
// column has no id), new ones get fresh ids, dropped ones lose theirs for
// good. Indexes likewise: a new index gets a fresh id from the table ids
// and starts unbuilt, unless its table is new or truncated (nothing to
// build). `dropped_table_ids` receives the ids of tables that are gone.
// `truncated`, when given, names a table that keeps its name, definition
// and column ids but gets a fresh table id, an empty data space (TRUNCATE):
// its old id joins `dropped_table_ids`, so the sweeper reclaims the old
// space as it does a dropped table's (docs/ENGINE.md "Truncation").
std::shared_ptr<const SchemaState> AssignIds(
    const SchemaState& before, std::shared_ptr<const Catalog> next,
    std::vector<uint32_t>* dropped_table_ids,
    const std::pair<std::string, std::string>* truncated = nullptr);

// `before` with view `view` (keyspace, name) marked built.
std::shared_ptr<const SchemaState> WithViewBuilt(const SchemaState& before,
                                                 const std::pair<std::string, std::string>& view);

// `before` with index `index` of table `table` marked built.
std::shared_ptr<const SchemaState> WithIndexBuilt(const SchemaState& before,
                                                  const std::pair<std::string, std::string>& table,
                                                  const std::string& index);

// Adds to `*batch` what turns the stored catalog of `before` into that of
// `after`: a record per changed or new keyspace, a deletion per dropped one,
// the next table id, and a DroppedTableKey per id in `dropped_table_ids`.
void WriteSchemaChange(const SchemaState& before, const SchemaState& after,
                       const std::vector<uint32_t>& dropped_table_ids, Batch* batch);

// A keyspace's catalog record (docs/FORMAT.md "Catalog"): its DESCRIBE
// text and the ids of its tables among `ids` (keyed by keyspace and table).
// Snapshots keep the record of the keyspace as it was.
std::string EncodeKeyspaceRecord(
    const KeyspaceDef& keyspace,
    const std::map<std::pair<std::string, std::string>, TableIds>& ids);

// The inverse: Corruption when `value` is no record of keyspace
// `keyspace_name`.
Status DecodeKeyspaceRecord(const std::string& keyspace_name, std::string_view value,
                            KeyspaceDef* keyspace,
                            std::map<std::pair<std::string, std::string>, TableIds>* ids);

// Reads the stored catalog (every CatalogKey record and the next table id).
// An empty store yields an empty schema. Corruption naming the keyspace when
// a record does not parse or load. Reads at one read point.
Status LoadSchema(Storage* storage, std::shared_ptr<const SchemaState>* schema);

// True when `a` and `b` hold the same keyspaces, tables and ids (what
// WriteSchemaChange would write nothing of between them).
bool SameSchema(const SchemaState& a, const SchemaState& b);

}  // namespace cellfs::storage
