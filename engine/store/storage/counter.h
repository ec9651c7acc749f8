// Counter: durable named 64-bit values that leases are kept in (the next
// sequence block, the write-time bound).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/status.h"

namespace cellfs::storage {

// Values live in the metadata space under their name, 8 bytes big-endian.
// Thread-safe; stores of one name are serialised (LevelDB: a synced put
// under a mutex; RADOS: a compare-and-set on an object).
class Counter {
 public:
  virtual ~Counter() = default;

  // The stored value; nullopt when none. Corruption when not 8 bytes.
  virtual Status Load(std::string_view name, std::optional<uint64_t>* value) = 0;

  // Makes the stored value at least `at_least`, durably, and sets *bound
  // to the stored value: never lower than before (monotonic, across
  // reopens). On error nothing is known to be stored.
  virtual Status Raise(std::string_view name, uint64_t at_least, uint64_t* bound) = 0;

  // Adds `count` to the stored value (absent: `initial`) as one atomic step
  // and sets *start to the value before it: the block [start, start+count)
  // is this caller's alone, also among processes sharing the store (RADOS
  // mounts). Durable before it returns; on error nothing is known to be
  // stored and no block is handed out. Corruption when the sum overflows.
  virtual Status Reserve(std::string_view name, uint64_t initial, uint64_t count,
                         uint64_t* start) = 0;
  // Stores `value` durably even when lower. Only for a holder that knows no
  // value above it was handed out (a clean close).
  virtual Status Store(std::string_view name, uint64_t value) = 0;
};

}  // namespace cellfs::storage
