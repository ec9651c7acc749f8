// Index builds: the entries for data written before CREATE INDEX, added
// from a snapshot read after the index joined the schema (so every later
// write adds its own entries), then the index marked built in the catalog.
// A build a crash interrupted starts again when the store opens.
#pragma once

#include "engine/status.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// Builds every index of the current schema that is not built yet, one
// after the other, and marks each built with a synced catalog write.
// REQUIRES: the caller holds core->ddl_mutex (no other schema change runs).
// Storage failures close the write fence as any write's do; the index then
// stays unbuilt (reads through it are refused) until a later open builds it.
Status BuildPendingIndexes(EngineCore* core);

}  // namespace storage
}  // namespace cellfs
