// `cellfs mount`: serves a store (a data directory, or a RADOS pool spelled
// rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE]) at a mount point until unmounted.
#pragma once

#include <string>
#include <vector>

namespace cellfs::tools {

struct MountArgs {
  std::string data_dir;  // a directory or a rados spelling (store_argument.h)
  std::string mount_point;
  bool foreground = false;
  std::vector<std::string> options;  // each -o given, comma-separated inside
};

// Creates the data directory (0700) when missing, refuses one inside the
// mount point, forks into the background unless args.foreground (or the
// debug option), opens the engine, mounts and serves. A pool's spelling
// goes to the engine as it is: no local directory is judged or made, and
// no other mount of the pool is refused. Returns the exit code: 0 after a
// clean unmount (a daemonising parent: once mounted), 1 when anything
// fails (the message printed as "cellfs: ..."), 2 for a bad mount option.
// (main.cc refuses a bad rados spelling before this runs, also with 2.)
int RunMount(const MountArgs& args);

}  // namespace cellfs::tools
