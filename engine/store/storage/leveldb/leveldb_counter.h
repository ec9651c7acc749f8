// LevelDbCounter: storage::Counter as synced puts of 8-byte big-endian
// values under 'M' || name, serialised by a mutex.
#pragma once

#include <mutex>

#include "engine/store/storage/counter.h"

namespace leveldb {
class DB;
}  // namespace leveldb

namespace cellfs::storage {

// Thread-safe. mutex_ is held across the synced put (a leaf otherwise).
class LevelDbCounter final : public Counter {
 public:
  // `*db` is set before any call and outlives this.
  explicit LevelDbCounter(leveldb::DB* const* db) : db_(db) {}

  Status Load(std::string_view name, std::optional<uint64_t>* value) override;
  Status Raise(std::string_view name, uint64_t at_least, uint64_t* bound) override;
  Status Reserve(std::string_view name, uint64_t initial, uint64_t count, uint64_t* start) override;
  Status Store(std::string_view name, uint64_t value) override;

 private:
  Status Put(std::string_view name, uint64_t value);  // REQUIRES: mutex_ held

  leveldb::DB* const* const db_;
  std::mutex mutex_;  // serialises read-modify-writes of counters
};

}  // namespace cellfs::storage
