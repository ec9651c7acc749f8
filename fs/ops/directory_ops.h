// DirectoryOps: the directory operations behind fs/ops/filesystem.h (mkdir,
// rmdir, opendir, readdir / readdirplus, fsyncdir, releasedir), over the
// tree's and the files' contexts, with the open directories' handle table.
#pragma once

#include <cstdint>
#include <string_view>

#include "fs/files/file_context.h"
#include "fs/ops/filesystem.h"
#include "fs/ops/handle_table.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

struct DirHandle;  // fs/ops/directory_ops.cc: an open directory

// Each operation's contract is that of the Filesystem method of the same
// name (fs/ops/filesystem.h), which forwards to it. Thread-safe as
// Filesystem is: an open directory's calls are serialised by its own lock
// (DirHandle::mutex, held while ReadDir fills the sink).
class DirectoryOps {
 public:
  // `tree` and `files` must outlive the DirectoryOps.
  DirectoryOps(TreeContext* tree, FileContext* files);
  ~DirectoryOps();
  DirectoryOps(const DirectoryOps&) = delete;
  DirectoryOps& operator=(const DirectoryOps&) = delete;

  int MkDir(uint64_t parent, std::string_view name, Entry* out);
  int RmDir(uint64_t parent, std::string_view name);
  int OpenDir(uint64_t inode, uint64_t* handle);
  bool CachesListing(uint64_t inode) const;
  int ReadDir(uint64_t handle, uint64_t offset, bool plus, const DirEntrySink& sink);
  int FsyncDir(uint64_t handle);
  void ReleaseDir(uint64_t handle);

  // Frees every directory the kernel never released (shutdown), so that no
  // listing still holds an engine snapshot or iterator when the engine
  // closes. REQUIRES: no request is in progress.
  void ReleaseAll();

 private:
  TreeContext* const tree_;
  FileContext* const files_;
  HandleTable<DirHandle> dirs_;  // the open directories, by fuse_file_info::fh
};

}  // namespace cellfs::fs
