// Slice paths: nested slice directories (@ge=T/@lt=T/@limit=N/@reverse)
// combined into the one SliceSpec the engine reads.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/slice.h"

namespace cellfs::fs {

// Nesting means AND, whatever the order of the directories:
//  - bounds intersect: of two lower (upper) bounds the tighter one is kept,
//    compared as CQL compares clustering tuples (per column in each type's
//    natural order; a shorter bound equal on its columns is tighter when
//    exclusive, looser when inclusive);
//  - @limit keeps the smallest N;
//  - @reverse flips the order, so two of them cancel.
// The engine compares the bounds (NarrowSlice); this file only parses the
// names. Pure; thread-safe. InvalidArgument / NameTooLong (from
// ParseKeyPrefix) for a bound that does not parse for the table's
// clustering columns; InvalidArgument for a name that is not a slice
// directory. REQUIRES: table.clustering_count() > 0.
Status BuildSlice(const TableSchema& table, std::span<const std::string> slice_names,
                  SliceSpec* out);

}  // namespace cellfs::fs
