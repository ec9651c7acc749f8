// RadosCounter: storage::Counter over one object of the pool, each counter
// an omap value (8 bytes big-endian) changed only by GuardedUpdate, so that
// mounts on several hosts share counters without losing an update.
#pragma once

#include <functional>
#include <rados/librados.hpp>
#include <string>

#include "engine/store/storage/counter.h"

namespace cellfs::storage {

// Thread-safe. Counters live where the metadata space does (the key `name`
// of the space 'M''s object), so Storage::Get of the metadata space reads
// them too. Store stores unconditionally, as the engine's clean close
// asks; on a shared store that may lower a bound another mount raised (the
// write-time bound: write times are then as good as the mounts' clocks,
// like Cassandra's client timestamps).
class RadosCounter final : public Counter {
 public:
  explicit RadosCounter(librados::IoCtx* io);

  Status Load(std::string_view name, std::optional<uint64_t>* value) override;
  Status Raise(std::string_view name, uint64_t at_least, uint64_t* bound) override;
  Status Reserve(std::string_view name, uint64_t initial, uint64_t count, uint64_t* start) override;
  Status Store(std::string_view name, uint64_t value) override;

 private:
  using Step =
      std::function<Status(std::optional<uint64_t> current, std::optional<uint64_t>* next)>;
  // GuardedUpdate of counter `name` with 8-byte values.
  Status Update(std::string_view name, const Step& step);

  librados::IoCtx* io_;
  std::string object_;
};

}  // namespace cellfs::storage
