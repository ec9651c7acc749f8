// ReadState: pins one storage read point for a view and its iterators, and
// releases it when the last of them goes.
#include "engine/store/internal/read_state.h"

namespace cellfs {

ReadState::ReadState(EngineCore* engine_core, int64_t read_time)
    : core(engine_core),
      schema_before(engine_core->CurrentSchema()),
      point(engine_core->storage->NewReadPoint()),
      now(read_time) {}

ReadState::~ReadState() = default;

std::unique_ptr<storage::Cursor> ReadState::NewCursor(const storage::ShardAddress& shard,
                                                      bool fill_cache) const {
  return core->storage->NewCursor(point.get(), shard, {fill_cache});
}

}  // namespace cellfs
