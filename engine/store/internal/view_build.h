// Materialized-view builds: the entries for base rows written before CREATE
// MATERIALIZED VIEW, read by a build scan (build_scan.h) after the view
// joined the schema, so every later base write adds its own entries.
// pending_builds.h decides what to build and marks a build done.
#pragma once

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/internal/build_scan.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Adds the entries of `view` for the rows of `base` after `cursor`, as far
// as `limits` allow (ScanForBuild's contract). Storage failures close the
// write fence as any write's do.
Status RunViewBuild(EngineCore* core, const TableHandle& base, const TableHandle& view,
                    const BuildLimits& limits, BuildCursor* cursor);

}  // namespace storage
}  // namespace cellfs
