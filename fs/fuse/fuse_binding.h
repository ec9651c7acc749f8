// The FUSE low-level binding: mounts a Filesystem at a directory and serves
// the kernel's requests with a multi-threaded session loop until unmounted.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/status.h"
#include "fs/ops/filesystem.h"

namespace cellfs::fs {
class KernelNotifierThread;
}  // namespace cellfs::fs

namespace cellfs::fs {

struct SessionOptions {
  std::string mount_point;
  bool debug = false;        // libfuse's request log on stderr
  bool allow_other = false;  // with default_permissions (a private mount has none)
  bool read_only = false;    // mounted "ro"
  // false (noxattr): no xattr operations are registered, so libfuse answers
  // ENOSYS and the kernel never sends another (for the whole mount).
  bool xattr = true;
  std::string fs_name;       // shown by mount(8) as the source: the data directory
  unsigned max_threads = 8;  // the session loop's worker threads
  // Further -o options for libfuse, before cellfs's own (so cellfs's
  // fsname= and subtype= win); CheckFuseOptions says whether it takes them.
  std::vector<std::string> fuse_options;
};

// The mount point's usual faults (missing, not a directory, already a FUSE
// mount, no /dev/fuse), which libfuse would only log, as an IOError naming
// them. A check to make before anything is created; Serve makes it again.
Status CheckMountPoint(const std::string& mount_point);

// Whether libfuse's parser takes `options` (as SessionOptions::fuse_options):
// InvalidArgument naming them when it does not (libfuse says which on
// stderr). Mounts nothing: a check to make before anything is created.
Status CheckFuseOptions(const std::vector<std::string>& options);

// One FUSE session: the mount it serves and the kernel notifier it owns.
// Build the Filesystem with notifier(), then Serve() it:
//   FuseSession session(options);
//   Filesystem filesystem(engine, session.notifier(), ...);
//   session.Serve(&filesystem, on_ready);
// The session outlives the Filesystem (declare it first), so the notifier
// the Filesystem holds is never dangling. Not copyable; Serve runs once.
class FuseSession {
 public:
  explicit FuseSession(SessionOptions options);
  ~FuseSession();
  FuseSession(const FuseSession&) = delete;
  FuseSession& operator=(const FuseSession&) = delete;

  // Invalidations go to the kernel of this session while Serve runs, from a
  // thread of the session's own, never from a request handler; calls
  // before the mount is live or after it ended are dropped.
  Notifier* notifier();

  // Mounts `filesystem` at options.mount_point, calls `on_ready` once the
  // mount is live (a daemonising caller lets its parent exit then), and
  // serves requests until the mount is unmounted (fusermount3 -u, umount)
  // or SIGINT / SIGTERM / SIGHUP arrives, which unmount it. Returns IOError
  // naming the problem when the mount fails (mount point missing, not a
  // directory, already a mount, no /dev/fuse).
  // REQUIRES: `filesystem` was built with notifier().
  Status Serve(Filesystem* filesystem, const std::function<void()>& on_ready);

 private:
  SessionOptions options_;
  std::unique_ptr<KernelNotifierThread> notifier_;
};

}  // namespace cellfs::fs
