// Index builds: the entries for data written before CREATE INDEX, read by
// a build scan (build_scan.h) after the index joined the schema, so every
// later write adds its own entries. pending_builds.h decides what to build
// and marks a build done.
#pragma once

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/internal/build_scan.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Adds the entries of `index` of `table` for the rows after `cursor`, as
// far as `limits` allow (ScanForBuild's contract). Storage failures close
// the write fence as any write's do.
Status RunIndexBuild(EngineCore* core, const TableHandle& table, const IndexSchema& index,
                     const BuildLimits& limits, BuildCursor* cursor);

}  // namespace storage
}  // namespace cellfs
