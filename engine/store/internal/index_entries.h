// Secondary-index entries (docs/FORMAT.md "Index entries"): what a write
// adds, in its own batch, for each indexed value it stores, and the bytes a
// reader checks an entry against.
//
//   index_key := 'I' || u32 index_id || component(value) || token || pk || kind || [clustering]
//
// The value component is the indexed value's ascending key encoding, so an
// index's entries sort by value (Cassandra's order for the type), then by
// the row's place in its table (token, partition key, static row before
// rows, clustering order). Entries have empty values and are never updated
// or deleted by writes: a reader checks each one against the row it names
// (ValidateIndexEntry), so an entry for a value since overwritten, deleted
// or expired never shows, and a write never has to read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/batch.h"

namespace cellfs::storage {

// The value components index `index` holds for the cells of `fragment`,
// stored under data group `group` (table prefix, token, partition key,
// kind, clustering; a partition prefix `prefix_size` bytes long), appended
// to `*values`. Regular and static columns: one per live cell of the
// column (per element for KEYS, VALUES, ENTRIES); a key column: its value,
// for any fragment of a row (clustering) or of the partition (partition
// key). Corruption when the group's key bytes do not decode.
Status IndexValuesOf(const TableSchema& table, const IndexSchema& index, std::string_view group,
                     size_t prefix_size, const RowFragment& fragment,
                     std::vector<std::string>* values);

// Builds in `*key` the entry of `index` for value component `value` and a
// fragment stored under `group`: an index on a partition key column names
// the partition (one entry per partition, kind STATIC_ROW, no clustering),
// every other index the group's row or static row. Returns where the
// value ends in `*key` (IndexAddress's `value_end`).
size_t MakeIndexEntryKey(const TableSchema& table, const IndexSchema& index, std::string_view value,
                         std::string_view group, size_t prefix_size, std::string* key);

// Adds to `batch` the entries of every index of `table` for `fragment`
// stored under `group` (see IndexValuesOf). `scratch` is reused between
// calls. A group whose keys do not decode adds nothing (writes encode
// their own keys, so this never happens on the write path).
void PutIndexEntries(const TableSchema& table, std::string_view group, size_t prefix_size,
                     const RowFragment& fragment, std::vector<std::string>* scratch,
                     std::string* key, Batch* batch);

// The component index `index` gives the live value `cell` of a regular or
// static column (one element's for KEYS/VALUES/ENTRIES); appended to `*out`.
void AppendIndexValue(const TableSchema& table, const IndexSchema& index, const RowCell& cell,
                      std::string* out);

// Cassandra's refusal of a value an index cannot hold: InvalidArgument
// "Cannot index value of size N for index I on ks.t(col) (maximum allowed
// size=65535)" when a live cell of `fragment` gives an index of `table` on
// a regular or static column a value of 65535 bytes or more (one
// element's, for KEYS, VALUES and ENTRIES: ENTRIES counts key and value as
// Cassandra's composite does). Checked before the fragment is written, so
// the write is refused whole rather than stored without its entry.
Status CheckIndexedValues(const TableSchema& table, const RowFragment& fragment);

// Identifies the set of `table`'s indexes and materialized views (their
// ids): a write prepared with one set must not land once the set has
// changed.
uint64_t IndexFingerprint(const TableSchema& table);

}  // namespace cellfs::storage
