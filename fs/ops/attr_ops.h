// AttrOps: the name and attribute operations behind fs/ops/filesystem.h
// (lookup, forget, getattr, setattr and its truncation; rename, link,
// symlink and mknod, which the tree never takes), over the tree's and the
// files' contexts.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>

#include "fs/files/file_context.h"
#include "fs/ops/file_ops.h"
#include "fs/ops/filesystem.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Each operation's contract is that of the Filesystem method of the same
// name (fs/ops/filesystem.h), which forwards to it. Thread-safe; takes no
// lock of its own (a truncation through an open file takes that file's).
class AttrOps {
 public:
  // `tree`, `files` and `file_ops` (truncation: FileOps::Truncate,
  // FileOps::TruncateCell) must outlive the AttrOps.
  AttrOps(TreeContext* tree, FileContext* files, FileOps* file_ops);
  AttrOps(const AttrOps&) = delete;
  AttrOps& operator=(const AttrOps&) = delete;

  int Lookup(uint64_t parent, std::string_view name, Entry* out);
  void Forget(uint64_t inode, uint64_t count);
  int GetAttr(uint64_t inode, NodeAttr* out, double* attr_timeout);
  int SetAttr(uint64_t inode, const AttrChanges& changes, const Caller& caller, uint64_t handle,
              NodeAttr* out, double* attr_timeout);
  int SetSize(uint64_t inode, uint64_t size, uint64_t handle, NodeAttr* out, double* attr_timeout);

  int Link(uint64_t inode, uint64_t new_parent, std::string_view new_name);
  int Symlink(std::string_view target, uint64_t parent, std::string_view name);
  int MkNod(uint64_t parent, std::string_view name, mode_t mode);

 private:
  // Gives scratch file `inode` the permission bits `mode`; false when it
  // is no scratch file.
  bool SetScratchMode(uint64_t inode, mode_t mode);

  TreeContext* const tree_;
  FileContext* const files_;
  FileOps* const file_ops_;
};

}  // namespace cellfs::fs
