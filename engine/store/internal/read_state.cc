// ReadState: pins one LevelDB snapshot for a view and its iterators, and
// releases it when the last of them goes.
#include "engine/store/internal/read_state.h"

#include <leveldb/db.h>
#include <leveldb/options.h>

namespace cellfs {

ReadState::ReadState(EngineCore* engine_core, int64_t read_time)
    : core(engine_core), snapshot(engine_core->db->GetSnapshot()), now(read_time) {}

ReadState::~ReadState() { core->db->ReleaseSnapshot(snapshot); }

leveldb::ReadOptions ReadState::Options(bool fill_cache) const {
  leveldb::ReadOptions options;
  options.snapshot = snapshot;
  options.fill_cache = fill_cache;
  return options;
}

}  // namespace cellfs
