// XattrOps: the extended-attribute operations behind fs/ops/filesystem.h
// (getxattr, listxattr, setxattr, removexattr), over the tree's and the
// files' contexts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fs/files/file_context.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Each operation's contract is that of the Filesystem method of the same
// name (fs/ops/filesystem.h), which forwards to it. Thread-safe; setting
// user.cellfs.ttl takes the cell's append lock (FileContext::AppendLock)
// with no other fs lock held.
class XattrOps {
 public:
  // `tree` and `files` must outlive the XattrOps.
  XattrOps(TreeContext* tree, FileContext* files);
  XattrOps(const XattrOps&) = delete;
  XattrOps& operator=(const XattrOps&) = delete;

  int GetXattr(uint64_t inode, std::string_view name, std::string* value);
  int ListXattr(uint64_t inode, std::string* names);
  int SetXattr(uint64_t inode, std::string_view name, std::string_view value, int flags);
  int RemoveXattr(uint64_t inode, std::string_view name);

 private:
  // setfattr user.cellfs.ttl: the cell's value written again with `ttl`
  // (0: kept forever), under its append lock.
  int RewriteWithTtl(uint64_t inode, int64_t ttl);

  TreeContext* const tree_;
  FileContext* const files_;
};

}  // namespace cellfs::fs
