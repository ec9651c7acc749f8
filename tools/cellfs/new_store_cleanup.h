// NewStoreCleanup: a mount that fails before it serves takes away the store
// it created, so that a typo in a mount point or a refused FUSE mount
// leaves DATADIR as it was (issue 17: "a failed mount must not leave a new
// store behind"), and never touches a store that another mount uses or that
// was there before.
#pragma once

#include <set>
#include <string>

#include "engine/status.h"
#include "tools/cellfs/data_dir_trust.h"

namespace cellfs::tools {

// Not thread-safe; one per mount attempt.
class NewStoreCleanup {
 public:
  // Takes an exclusive flock on `data_dir_fd` (waiting for another mount's
  // check and open to end), then notes whether a store is there already:
  // LevelDB's CURRENT, or any file LevelDB writes (a damaged store counts
  // as a store), and which names the directory holds. `made`: the directory
  // itself, when this mount created it (OpenTrustedDataDir), else empty.
  // The flock is held until Opened() or Undo().
  NewStoreCleanup(int data_dir_fd, MadeDirectory made);
  ~NewStoreCleanup();
  NewStoreCleanup(const NewStoreCleanup&) = delete;
  NewStoreCleanup& operator=(const NewStoreCleanup&) = delete;

  // The engine opened the store (and holds LevelDB's LOCK): other mounts
  // may look now.
  void Opened();

  // After a failure, with the engine closed: under the flock again, and
  // only when no store was there before and no other process holds
  // LevelDB's LOCK, removes the LevelDB files that were not there before,
  // then the directory itself when this mount made it and it is empty.
  // Returns the first removal that failed.
  Status Undo();

 private:
  void Lock();
  void Unlock();

  int data_dir_fd_;
  MadeDirectory made_;
  bool locked_ = false;
  bool store_existed_ = true;  // in doubt, remove nothing
  std::set<std::string> names_before_;
};

// Whether `name` is one LevelDB writes in its directory: CURRENT, LOCK,
// LOG, LOG.old, MANIFEST-N, N.log, N.ldb, N.sst, N.dbtmp.
bool IsLevelDbFileName(const std::string& name);

}  // namespace cellfs::tools
