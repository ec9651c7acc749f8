// The FUSE low-level binding: mounts a Filesystem at a directory and serves
// the kernel's requests with a multi-threaded session loop until unmounted.
#pragma once

#include <functional>
#include <string>

#include "engine/status.h"
#include "fs/ops/filesystem.h"

namespace cellfs::fs {

struct SessionOptions {
  std::string mount_point;
  bool debug = false;        // libfuse's request log on stderr
  bool allow_other = false;  // default_permissions is always on
  bool read_only = false;    // mounted "ro"
  std::string fs_name;       // shown by mount(8) as the source: the data directory
  unsigned max_threads = 8;  // the session loop's worker threads
};

// Mounts `filesystem` at options.mount_point, calls `on_ready` once the
// mount is live (a daemonising caller lets its parent exit then), and serves
// requests until the mount is unmounted (fusermount3 -u, umount) or SIGINT /
// SIGTERM / SIGHUP arrives, which unmount it. Kernel invalidations
// (Notifier) are sent from a thread of the binding's own, never from a
// request handler. Returns IOError naming the problem when the mount fails
// (mount point missing, not a directory, already a mount, no /dev/fuse).
// The Filesystem's notifier should be the one `MakeKernelNotifier` made.
Status ServeFilesystem(Filesystem* filesystem, const SessionOptions& options,
                       const std::function<void()>& on_ready);

// A Notifier whose invalidations go to the kernel of the session that
// ServeFilesystem runs; calls before the mount is live or after it ended are
// dropped. One per process (the binding keeps the session it serves).
Notifier* KernelNotifier();

}  // namespace cellfs::fs
