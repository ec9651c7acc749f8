// `cellfs umount`: unmounts a cellfs mount, forcibly when its daemon hangs.
#pragma once

#include <string>

namespace cellfs::tools {

struct UmountArgs {
  std::string mount_point;
  bool force = false;
};

// Normally `fusermount3 -u MOUNTPOINT`. With force: aborts the mount's FUSE
// connection (/sys/fs/fuse/connections/N/abort), which fails every pending
// and future request, then `fusermount3 -u -z`. Either way, once the mount
// is gone it waits (up to a minute; 5 s when forced) for the daemon to
// release its data directory, so a new mount of it can follow at once.
// Returns the exit code: 0 when the mount is gone, 1 otherwise (with a
// message on stderr).
int RunUmount(const UmountArgs& args);

}  // namespace cellfs::tools
