// ReadState: one storage read point and the time reads through it judge TTLs
// by; shared by a ReadView and every iterator made from it.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/store/internal/engine_core.h"

namespace cellfs {

// Immutable after construction; thread-safe.
struct ReadState {
  ReadState(EngineCore* core, int64_t now);
  ~ReadState();  // releases the read point
  ReadState(const ReadState&) = delete;
  ReadState& operator=(const ReadState&) = delete;

  // A cursor over `shard` at the read point; fill_cache as given.
  std::unique_ptr<storage::Cursor> NewCursor(const storage::ShardAddress& shard,
                                             bool fill_cache = true) const;

  EngineCore* const core;
  // The schema as it was just before the read point was taken: what it says
  // is built (an index, a view) has all its entries in the snapshot.
  const std::shared_ptr<const storage::SchemaState> schema_before;
  const std::unique_ptr<storage::ReadPoint> point;
  const int64_t now;  // microseconds
};

}  // namespace cellfs
