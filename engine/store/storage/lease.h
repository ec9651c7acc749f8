// Lease: who may do a piece of exclusive background work (sweeping an
// expiry bucket), for a while.
#pragma once

#include <cstdint>
#include <string_view>

namespace cellfs::storage {

// Thread-safe. LevelDB: one process owns the store (the LOCK file), so it
// always holds every lease. RADOS (issue 19): a lock object with a TTL.
class Lease {
 public:
  virtual ~Lease() = default;
  // True when this process holds `name` for the next `ttl_ms` milliseconds.
  virtual bool Acquire(std::string_view name, int64_t ttl_ms) = 0;
  // Gives `name` up early; a no-op when not held.
  virtual void Release(std::string_view name) = 0;
  // Gives `name` up for good: no one will ask for it again (a past expiry
  // bucket's lease). A backend that keeps a lease in an object of its own
  // (RADOS) removes it. Default: Release.
  virtual void Retire(std::string_view name) { Release(name); }
};

}  // namespace cellfs::storage
