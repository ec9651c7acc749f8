// Watch: notifications of committed writes to a space (schema changes; on a
// shared backend, writes from other mounts for cache invalidation).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace cellfs::storage {

// Called after a commit that wrote into the watched space, with that space
// and whether another process (another mount of a shared store) made the
// commit. This process's own commits call it on the committing thread
// (LevelDB: only this process writes, so that is all there is); another
// process's on a thread of the backend's, and a shared backend lets that
// process's commit return only after the callback returned (or a timeout
// passed), so that what the callback does (reload the schema) is done
// before the change is acknowledged. Must not commit or (un)watch.
using WatchCallback = std::function<void(std::string_view space, bool from_other_process)>;

// Registration handle: Storage::Watch returns one, Storage::Unwatch takes it.
using WatchId = uint64_t;

}  // namespace cellfs::storage
