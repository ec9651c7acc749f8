// `cellfs sync`: makes every write acknowledged by a cellfs mount durable,
// which sync(1) cannot do: the kernel's syncfs sends nothing to a FUSE
// daemon that runs without writeback caching.
#pragma once

#include <string>

namespace cellfs::tools {

struct SyncArgs {
  std::string mount_point;
};

// Checks that MOUNTPOINT is a cellfs mount (its entry in the mount table),
// opens its root directory and fsyncs it, which has the daemon sync its
// store (docs/FILESYSTEM.md). Returns the exit code: 0 once the store is
// synced; 1 with a message on stderr when MOUNTPOINT is not a cellfs mount,
// its daemon is gone (ENOTCONN), or the sync failed (EIO; ENOSPC or EROFS
// once the store refuses writes).
int RunSync(const SyncArgs& args);

}  // namespace cellfs::tools
