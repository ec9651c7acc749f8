// NewStoreCleanup: a mount that fails before it serves takes away the store
// it created, so that a typo in a mount point or a refused FUSE mount
// leaves DATADIR as it was (issue 17: "a failed mount must not leave a new
// store behind").
#pragma once

#include <set>
#include <string>

#include "engine/status.h"
#include "tools/cellfs/data_dir_trust.h"

namespace cellfs::tools {

class NewStoreCleanup {
 public:
  // Notes, before the engine opens the data directory `data_dir_fd`,
  // whether a store is there already (LevelDB's CURRENT file) and which
  // names the directory holds. `made`: the directory itself, when this
  // mount created it (OpenTrustedDataDir), else empty.
  NewStoreCleanup(int data_dir_fd, MadeDirectory made);

  // After a failure, with the engine closed: when no store was there
  // before, removes every name that was not there before (recursively),
  // then the directory itself when this mount made it. A store that
  // existed is never touched. Returns the first removal that failed.
  Status Undo();

 private:
  int data_dir_fd_;
  MadeDirectory made_;
  bool store_existed_ = true;  // in doubt, remove nothing
  std::set<std::string> names_before_;
};

}  // namespace cellfs::tools
