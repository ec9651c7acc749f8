// Materialized-view builds: the entries for base rows written before CREATE
// MATERIALIZED VIEW, added from a snapshot read after the view joined the
// schema (so every later base write adds its own entries), then the view
// marked built in the catalog. A build a crash interrupted starts again
// when the store opens.
#pragma once

#include "engine/status.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Builds every view of the current schema that is not built yet, one after
// the other, and marks each built with a synced catalog write. REQUIRES:
// the caller holds core->ddl_mutex. Storage failures close the write fence
// as any write's do; the view then stays unbuilt (reads of it are refused)
// until a later open builds it.
Status BuildPendingViews(EngineCore* core);

}  // namespace storage
}  // namespace cellfs
