// FileOps: the file operations behind fs/ops/filesystem.h (create, unlink,
// open, read, write, flush, fsync, release, discard; truncation), over the
// tree's and the files' contexts, with the open files' handle table.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "fs/files/file_context.h"
#include "fs/files/open_file.h"
#include "fs/ops/filesystem.h"
#include "fs/ops/handle_table.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Each operation's contract is that of the Filesystem method of the same
// name (fs/ops/filesystem.h), which forwards to it. Thread-safe as
// Filesystem is: every call on an open file holds its OpenFile::mutex,
// except Fsync's engine sync.
class FileOps {
 public:
  // `tree` and `files` must outlive the FileOps.
  FileOps(TreeContext* tree, FileContext* files);
  FileOps(const FileOps&) = delete;
  FileOps& operator=(const FileOps&) = delete;

  // A name that is no column, created with O_EXCL in a directory that
  // holds cells, makes a scratch file (fs/tree/scratch_files.h); without
  // O_EXCL it is EINVAL, "Undefined column name".
  int Create(uint64_t parent, std::string_view name, int flags, Entry* out, OpenReply* reply);
  // A scratch file's name removes it; a cell's deletes the cell.
  int Unlink(uint64_t parent, std::string_view name);
  // Filesystem::Rename.
  int Rename(uint64_t parent, std::string_view name, uint64_t new_parent, std::string_view new_name,
             unsigned flags);
  int Open(uint64_t inode, int flags, OpenReply* reply);
  int Read(uint64_t handle, uint64_t offset, size_t size, std::string* out);
  ssize_t Write(uint64_t handle, uint64_t offset, std::string_view data);
  int Flush(uint64_t handle);
  int Fsync(uint64_t handle);
  void Release(uint64_t handle);
  void Discard(uint64_t handle);
  // The inode an open handle was opened through; 0 for an unknown handle.
  uint64_t InodeOf(uint64_t handle) const;

  // Truncation to `size` (Filesystem::SetSize decides whether it is
  // allowed): through the open file `handle` (ftruncate: OpenFile::Truncate,
  // EBADF for a handle not open), or of a cell by path (truncate(2): the
  // cut or extended value stored at once, as an open, an ftruncate and a
  // close would; EINVAL for a size 0 of a type without an empty spelling,
  // or a result that does not parse, and then nothing changes).
  int Truncate(uint64_t handle, uint64_t size);
  int TruncateCell(const Node& cell, uint64_t size);  // also of a scratch file

  // Releases every file the kernel never released (shutdown), each storing
  // what it holds. REQUIRES: no request is in progress.
  void ReleaseAll();

 private:
  int CreateScratch(const Node& directory, std::string_view name, int flags, Entry* out,
                    OpenReply* reply);

  TreeContext* const tree_;
  FileContext* const files_;
  HandleTable<OpenFile> open_;  // the open files, by fuse_file_info::fh
};

}  // namespace cellfs::fs
