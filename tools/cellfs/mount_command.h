// `cellfs mount`: serves a data directory at a mount point until unmounted.
#pragma once

#include <string>
#include <vector>

namespace cellfs::tools {

struct MountArgs {
  std::string data_dir;
  std::string mount_point;
  bool foreground = false;
  std::vector<std::string> options;  // each -o given, comma-separated inside
};

// Creates the data directory (0700) when missing, refuses one inside the
// mount point, forks into the background unless args.foreground (or the
// debug option), opens the engine, mounts and serves. Returns the exit
// code: 0 after a clean unmount (a daemonising parent: once mounted), 1
// when anything fails (the message printed as "cellfs: ..."), 2 for a bad
// mount option.
int RunMount(const MountArgs& args);

}  // namespace cellfs::tools
