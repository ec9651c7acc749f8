// Materialized-view entries (docs/FORMAT.md "View entries"): what a base
// write adds, in its own batch, for each view row it may bring into being,
// and the mapping between a view row's key and its base row's.
//
//   view_entry := 'V' || u32 view_id || token(view pk) || view pk || view clustering
//
// Entries have empty values, are never updated or deleted by writes and
// sort as the view's rows do (token, then clustering order). A reader
// checks each one against the base row it names (view_row_check.h), so an
// entry whose base row has since changed its view key, died or expired
// never shows, and a base write never has to read.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/batch.h"

namespace cellfs::storage {

// Scratch space reused between calls of PutViewEntries.
struct ViewEntryScratch {
  std::vector<std::string> base_key;  // partition key values, then clustering values
  std::vector<std::string> view_key;
  std::string key;
};

// Adds to `batch` an entry in every view of `base` for `fragment`, stored
// under data group `group` (a partition prefix `prefix_size` bytes long):
// for a fragment of a row (not of the static row) with a live marker or a
// live cell, and, in a view keyed by a regular base column, only when the
// fragment holds a live value of that column. A group whose keys do not
// decode, or a value the view's key refuses, adds nothing.
void PutViewEntries(const TableSchema& base, std::string_view group, size_t prefix_size,
                    const RowFragment& fragment, ViewEntryScratch* scratch, Batch* batch);

// InvalidArgument when a live cell of `fragment` holds, for a view of
// `base` keyed by that column, a value longer than a key may be (65535
// bytes): the base write is refused whole rather than stored without its
// view row. (Cassandra itself has no clean answer here: its view update
// fails after the base write.)
Status CheckViewKeyValues(const TableSchema& base, const RowFragment& fragment);

// The key values (partition key, then clustering, canonical serialized) of
// view `view`'s row for a base row with key values `base_key` (partition
// key then clustering) and regular key column value `regular_value`
// (ignored unless the view has one). Into `*view_key`.
void ViewKeyOf(const TableSchema& view, std::span<const std::string> base_key,
               std::string_view regular_value, std::vector<std::string>* view_key);

// The base row's key values (partition key, then clustering) of the view
// row with key values `view_key`. Into `*base_key`.
void BaseKeyOf(const TableSchema& view, std::span<const std::string> view_key,
               std::vector<std::string>* base_key);

// Builds in `*key` the entry of the view row with key values `view_key`;
// `*prefix_size` receives where its partition ends (for DataAddress).
// InvalidArgument when a value does not fit the view's key.
Status MakeViewEntryKey(const TableSchema& view, std::span<const std::string> view_key,
                        std::string* key, size_t* prefix_size);

}  // namespace cellfs::storage
