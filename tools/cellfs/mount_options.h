// MountOptions: what `cellfs mount -o` takes, parsed from its comma-separated
// text and turned into the engine's, the filesystem's and the session's options.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/engine_options.h"
#include "engine/status.h"

namespace cellfs::tools {

struct MountOptions {
  bool debug = false;        // libfuse's request log; implies foreground
  bool read_only = false;    // ro
  bool allow_other = false;  // other users may enter the mount
  // noxattr: no extended attributes; the kernel, answered ENOSYS once, stops
  // asking (ls -l otherwise costs three getxattr requests per entry).
  bool xattr = true;
  double entry_timeout = 60.0;
  double attr_timeout = 60.0;
  // Whether the options gave them: a mount of a shared store (RADOS) then
  // keeps them; otherwise it caches for at most kSharedStoreTimeout, since
  // other mounts change what the kernel holds without telling it.
  bool entry_timeout_given = false;
  bool attr_timeout_given = false;
  CommitMode commit_mode = CommitMode::kPeriodic;
  int commit_interval_ms = 0;  // 0: the engine's default for the mode
  // Every other option, as written, for libfuse's own parser
  // (fs::CheckFuseOptions): allow_root, auto_unmount, fsname=, noatime...
  std::vector<std::string> fuse_options;
};

// The entry and attribute timeouts, in seconds, of a mount of a shared
// store (RADOS) whose options give none: how long another host's write may
// stay unseen through names and attributes the kernel cached.
inline constexpr double kSharedStoreTimeout = 1.0;

// The options every `cellfs mount --help` lists, one per line.
extern const char kMountOptionsHelp[];

// Parses "opt,opt=value,...". cellfs's own: debug, ro, rw, allow_other,
// xattr, noxattr,
// entry_timeout=SECONDS, attr_timeout=SECONDS, commit=periodic|group|batch,
// commit_interval_ms=N (the periodic sync period or the group window; not
// with commit=batch); InvalidArgument naming the option for a bad value of
// one of them. suid and dev are refused (cellfs always mounts nosuid,nodev).
// Any other option goes to `fuse_options`, for libfuse to accept or refuse
// (FUSE filesystems' usual options, and mount(8)'s flags such as noatime),
// unless it holds a backslash (libfuse's escapes would let a spelling slip
// past these checks). allow_root sets both timeouts to 0: the kernel would
// answer cached names and attributes to any user without asking libfuse.
Result<MountOptions> ParseMountOptions(std::string_view text);

// Whether `option` (one, no comma) is one of cellfs's own with a good value
// (the access-time flags included), not one left to libfuse.
bool IsCellfsOption(std::string_view option);

// The engine's options for a mount with `options`: the commit mode and its
// interval, read-only, the background sweeper on.
EngineOptions EngineOptionsFor(const MountOptions& options);

}  // namespace cellfs::tools
