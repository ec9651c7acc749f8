// Snapshots of dropped and truncated tables, Cassandra's auto_snapshot
// (docs/FORMAT.md "Snapshots", docs/ENGINE.md "Snapshots"): instead of
// filing a dropped table's data for the sweeper, DROP and TRUNCATE file a
// snapshot record under the table's old id, and its data stays where it
// is, so taking one costs the same for any table. A restore makes the
// table again over that data; a clear files the id for the sweeper.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/schema.h"
#include "engine/status.h"
#include "engine/store/internal/catalog_store.h"
#include "engine/store/internal/removal_runs.h"
#include "engine/store/internal/write_fence.h"

namespace cellfs::storage {

class Batch;
class Storage;

struct SnapshotRecord {
  std::string name;      // e.g. dropped-1764270000000-ks.t
  std::string keyspace;  // the table's keyspace and name when it was taken
  std::string table;
  std::string reason;  // "dropped" or "truncated"
  int64_t created_ms = 0;
  // Taken during the table's removal run (removal_runs.h): the table as of
  // the run's start, whose entries are those with a lower sequence (a
  // restore deletes the others), and when that was. Empty otherwise.
  std::optional<uint64_t> as_of_sequence;
  int64_t as_of_ms = 0;
  // The keyspace as it was (its DESCRIBE text and ids): the table's
  // definition, its types, its indexes, and `ids` holds the table's old
  // id, under which its data stays.
  KeyspaceDef keyspace_def;
  std::map<std::pair<std::string, std::string>, TableIds> ids;

  const TableDef& table_def() const { return keyspace_def.tables.at(table); }
  const TableIds& table_ids() const { return ids.at({keyspace, table}); }
};

std::string SnapshotKey(std::string_view name);

// For every table (not view) of `before` whose id is in `*dropped`: adds to
// `*batch` a snapshot record named `<reason>-<now_ms>-<keyspace>.<table>`
// (a `-2`, `-3`… after it when the name is taken) and takes the id out of
// `*dropped`, so the sweeper leaves its data. A table with a removal run
// open in `runs` at `now_micros` is kept as of the run's start. Ids of
// indexes and views stay in `*dropped`. `reason` is "dropped" or
// "truncated".
Status SnapshotDroppedTables(Storage* storage, const SchemaState& before, const std::string& reason,
                             int64_t now_micros, const RemovalRuns& runs,
                             std::vector<uint32_t>* dropped, Batch* batch);

// Deletes the entries of table `table_id` whose sequence is `first` or
// more (what a removal run wrote), in synced batches of a bounded size.
Status DeleteEntriesFrom(Storage* storage, WriteFence* fence, uint32_t table_id, uint64_t first);

// Every snapshot record that decodes, by name; each one that does not adds
// "snapshot NAME: reason" to `*unreadable` (when given) and is skipped.
// The Status is a failure to read.
Status ReadSnapshots(Storage* storage, std::vector<SnapshotRecord>* out,
                     std::vector<std::string>* unreadable = nullptr);

// The record named `name`: NotFound "no snapshot named x"; Corruption
// "snapshot x: ..." when it does not decode.
Status ReadSnapshot(Storage* storage, const std::string& name, SnapshotRecord* out);

// The stored bytes of record `name` (NotFound as above).
Status ReadSnapshotValue(Storage* storage, const std::string& name, std::string* value);

// The kept table id of a record's bytes, read without decoding its
// keyspace (so also from a record whose CQL no longer loads); nullopt when
// even that is unreadable.
std::optional<uint32_t> SnapshotTableIdOf(std::string_view value);

// The table ids the snapshots keep: every record's, readable or not.
Status SnapshotTableIds(Storage* storage, std::set<uint32_t>* ids);

}  // namespace cellfs::storage
