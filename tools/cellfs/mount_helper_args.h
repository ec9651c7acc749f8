// MountHelperArgs: what mount(8) passes to /sbin/mount.cellfs
// (`mount.cellfs DATADIR MOUNTPOINT [-sfnv] [-N NS] [-o OPTIONS] [-t TYPE]`),
// turned into the `cellfs mount` command that serves it.
#pragma once

#include <string>
#include <vector>

#include "engine/status.h"

namespace cellfs::tools {

struct MountHelperArgs {
  std::string data_dir;  // as given: a directory or rados:POOL[?...] (store_argument.h)
  std::string mount_point;
  // The options `cellfs mount -o` takes, comma-joined; empty when none.
  std::string cellfs_options;
  bool fake = false;     // -f: do everything but the mount
  bool verbose = false;  // -v: print the command run
};

// Parses the helper's argv (argv[0] excluded). mount(8)'s own options that
// mean nothing to a FUSE daemon or that mount(8) handles itself (defaults,
// auto/noauto, user/users/nouser, owner, group, _netdev, nofail, comment=,
// x-*, suid/nosuid, dev/nodev, exec/noexec, the atime family, sync/async,
// rw, lazytime, silent/loud) are dropped; the rest is kept for `cellfs
// mount -o`, where libfuse's parser judges what cellfs does not take itself
// — unless -s (sloppy) was given, in which case every option that is not
// cellfs's own is dropped (libfuse's included: sloppy mode cannot ask it).
// InvalidArgument naming the problem for a missing DATADIR or MOUNTPOINT,
// an unknown flag, or a flag missing its value.
Result<MountHelperArgs> ParseMountHelperArgs(const std::vector<std::string>& args);

}  // namespace cellfs::tools
