// OpenFile: the state of one open file (fuse_file_info::fh): a cell being
// read or written, a generated text (@schema, a row's @json), a streamed
// export (@json / @csv of a partition, slice or table), or an @cql session.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "fs/filesystem_impl.h"

namespace cellfs::fs {

// Calls on one OpenFile are serialised by its mutex, which the Filesystem
// takes around every call (the kernel may send concurrent reads on one fh).
class OpenFile {
 public:
  virtual ~OpenFile() = default;
  // Bytes [offset, offset + size) of the file's content (fewer at the end).
  virtual int Read(uint64_t offset, size_t size, std::string* out) = 0;
  // Returns data.size() or a negative errno. Default: not writable.
  virtual ssize_t Write(uint64_t offset, std::string_view data);
  // Stores what was written since the last flush. Default: nothing to do.
  virtual int Flush();
  // The last close of the file (release): stores what Flush left. Default:
  // Flush.
  virtual int Release();
  // Whether the content was generated for this open and has no fixed size.
  virtual bool direct_io() const { return false; }

  std::mutex mutex;
};

// A file whose content is fixed when opened (@schema, a cell being read).
std::unique_ptr<OpenFile> NewTextFile(std::string content);

// Opens cell `node` with open(2) flags `flags` ("created": by create(2)).
// EINVAL for O_APPEND on a type where appending means nothing (int,
// frozen collections...). *write_time receives the cell's write time (0
// when absent); ENOENT when absent and not created.
int OpenCellFile(Filesystem::Impl* impl, const Node& node, int flags, bool created,
                 std::unique_ptr<OpenFile>* out, int64_t* write_time);

// A row's @json (also the partition's, for a table without clustering
// columns): reads the row as one JSON object; a write of an object changes
// the columns it names (null deletes), stored at flush.
int OpenRowJsonFile(Filesystem::Impl* impl, const Node& row, std::unique_ptr<OpenFile>* out);

// @json / @csv of a table, partition or slice, streamed from one snapshot:
// sequential reads with flat memory.
std::unique_ptr<OpenFile> NewExportFile(Filesystem::Impl* impl, const Node& dir, bool csv);

// MOUNT/@cql.
std::unique_ptr<OpenFile> NewCqlFile(Filesystem::Impl* impl);

}  // namespace cellfs::fs
