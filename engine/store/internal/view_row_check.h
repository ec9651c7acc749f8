// A materialized view's rows read through their base rows: the check that
// makes a view entry a live view row, and the projection of the base row.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/read_view.h"
#include "engine/store/row_fragment.h"

namespace cellfs {

struct ReadState;

namespace storage {

// The base table of view `view` in the current schema. NotFound when it is
// gone (the view was dropped with it since `view` was looked up).
Result<TableHandle> ViewBase(const ReadState& state, const TableSchema& view);

// The live content of the view row with key values `view_key` (partition
// key, then clustering; canonical serialized), read through its base row
// with `base_reader` (a ReadView of the same snapshot): nullopt unless the
// base row is live, holds a live value in the view's regular key column
// equal to the key's, and satisfies the view's WHERE restrictions. The
// content is the base row's live cells of the view's columns (their ids
// are the base's), with the base row's marker; a base row without a live
// marker lends the view row one with the time and TTL of the view's regular
// key cell, or of its newest live cell, so the row reads as live.
Result<std::optional<RowFragment>> ReadViewRow(const ReadView& base_reader, const TableHandle& base,
                                               const TableSchema& view,
                                               std::span<const std::string> view_key);

// The view's partition prefix for partition reference bytes `data_prefix`
// (a PartitionRef's prefix, made with the view's schema): the same bytes
// under the view tag.
std::string ViewPartitionPrefix(std::string_view data_prefix);

}  // namespace storage
}  // namespace cellfs
