// ReadState: one LevelDB snapshot and the time reads through it judge TTLs
// by; shared by a ReadView and every iterator made from it.
#pragma once

#include <cstdint>

#include "engine/store/internal/engine_core.h"

namespace leveldb {
class Snapshot;
struct ReadOptions;
}  // namespace leveldb

namespace cellfs {

// Immutable after construction; thread-safe.
struct ReadState {
  ReadState(EngineCore* core, int64_t now);
  ~ReadState();  // releases the snapshot
  ReadState(const ReadState&) = delete;
  ReadState& operator=(const ReadState&) = delete;

  // Options reading at the snapshot; fill_cache as given.
  leveldb::ReadOptions Options(bool fill_cache = true) const;

  EngineCore* const core;
  const leveldb::Snapshot* const snapshot;
  const int64_t now;  // microseconds
};

}  // namespace cellfs
