// Watch: notifications of committed writes to a space (schema changes; on a
// shared backend, writes from other mounts for cache invalidation).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace cellfs::storage {

// Called after a commit that wrote into the watched space, with that space,
// on the committing thread (LevelDB: only this process writes, so local
// notifications are all there is). Must not commit or (un)watch.
using WatchCallback = std::function<void(std::string_view space)>;

// Registration handle: Storage::Watch returns one, Storage::Unwatch takes it.
using WatchId = uint64_t;

}  // namespace cellfs::storage
