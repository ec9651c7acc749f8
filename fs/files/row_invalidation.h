// InvalidateRows: what the kernel holds of rows that a write behind its back
// changed (an @insert batch, a CQL data statement through @cql) is
// invalidated, looking only at nodes the kernel holds.
#pragma once

#include <span>

#include "engine/cql/table_schema.h"
#include "fs/files/file_context.h"
#include "fs/formats/touched_rows.h"

namespace cellfs::fs {

// `table` is the table's node id (kind kTable). For each row: its partition
// and row directories (their mtimes) and its cells (inode and name: a null
// may have deleted one). A partition the kernel does not hold ends the
// search below it, so rows nobody looked at cost one probe per partition.
// Rows reached through slice directories are other inodes and are not
// invalidated (docs/FILESYSTEM.md "Attributes and caching").
void InvalidateRows(FileContext* context, const NodeId& table, const TableSchema& schema,
                    const TouchedRows& rows);

// A row (`clustering` non-empty) or a partition deleted as a whole, or a
// clustering range of it (`clustering` empty, `whole_partition` false):
// the directories and the name of what went away.
void InvalidateDeletion(FileContext* context, const NodeId& table, const TableSchema& schema,
                        std::span<const std::string> partition_key,
                        std::span<const std::string> clustering, bool whole_partition);

}  // namespace cellfs::fs
