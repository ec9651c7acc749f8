// MountOptions: what `cellfs mount -o` takes, parsed from its comma-separated
// text and turned into the engine's, the filesystem's and the session's options.
#pragma once

#include <string_view>

#include "engine/engine_options.h"
#include "engine/status.h"

namespace cellfs::tools {

struct MountOptions {
  bool debug = false;        // libfuse's request log; implies foreground
  bool read_only = false;    // ro
  bool allow_other = false;  // other users may enter the mount
  double entry_timeout = 60.0;
  double attr_timeout = 60.0;
  CommitMode commit_mode = CommitMode::kPeriodic;
  int commit_interval_ms = 0;  // 0: the engine's default for the mode
};

// The options every `cellfs mount --help` lists, one per line.
extern const char kMountOptionsHelp[];

// Parses "opt,opt=value,...". Known: debug, ro, rw, allow_other,
// entry_timeout=SECONDS, attr_timeout=SECONDS, commit=periodic|group|batch,
// commit_interval_ms=N (the periodic sync period or the group window; not
// with commit=batch). InvalidArgument naming the offending option otherwise.
Result<MountOptions> ParseMountOptions(std::string_view text);

// The engine's options for a mount with `options`: the commit mode and its
// interval, read-only, the background sweeper on.
EngineOptions EngineOptionsFor(const MountOptions& options);

}  // namespace cellfs::tools
