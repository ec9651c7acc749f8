// OpenFile: the state of one open file (what fuse_file_info::fh names, through
// fs/ops/handle_table.h): a cell being
// read or written, a generated text (@schema, a row's @json), a streamed
// export (@json / @csv of a partition, slice or table), or an @cql session.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "fs/files/file_context.h"

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
  // close(2) of a descriptor: stores everything not yet stored (writes,
  // and for cells a truncation alone), so that what close acknowledged is
  // in the engine when it returns; the store's errno otherwise. Default:
  // nothing to do.
  virtual int Flush();
  // The last close of the file (release, which close(2) does not wait
  // for), and fsync: stores what no flush did (a descriptor the kernel
  // never flushed). Default: Flush.
  virtual int Release();
  // ftruncate(fd, size). A cell: to 0 the value written so far is dropped
  // (EINVAL where the empty value has no spelling); to another length its
  // content is cut or zero-extended, judged when stored; to its current
  // length nothing changes. Default: 0 for size 0 (nothing to drop),
  // EINVAL otherwise.
  virtual int Truncate(uint64_t size);
  // The open never reached the kernel: forget what a release would store.
  virtual void Discard() {}
  // Whether reads bypass the kernel's page cache: the content was
  // generated for this open, or (cells) each open must read its own value.
  virtual bool direct_io() const { return false; }

  std::mutex mutex;
  // Opened for writing (O_WRONLY, O_RDWR), which only files that take
  // writes are (WritabilityOf, fs/tree/node.h); set at open.
  // Filesystem::Write refuses a file opened read-only with EBADF.
  bool writable = false;
  // The inode it was opened through (the path MOUNT/@errors shows); set at open.
  uint64_t inode = 0;

 protected:
  // Bytes [offset, offset + size) of `content` into *out (fewer at its end).
  static int ReadFrom(std::string_view content, uint64_t offset, size_t size, std::string* out);
};

// A file whose content is fixed when opened (@schema, @stats). `direct_io`
// when stat cannot know its size beforehand.
std::unique_ptr<OpenFile> NewTextFile(std::string content, bool direct_io = false);

// Opens cell `node` with open(2) flags `flags` ("created": by create(2)).
// EINVAL for O_APPEND on a type where appending means nothing (int, frozen
// collections...); ENOENT when absent, not created and not opened for
// writing. The file is direct_io: each open reads the one whole value it
// found (docs/FILESYSTEM.md, "Attributes and caching"). Each flush stores
// what is dirty: the writes since the last store, or the empty value of a
// truncation alone (text, blobs). Once a write or a store is refused
// (EINVAL, EFBIG; ENOSPC when the write buffers of all open files would
// pass their 256 MiB budget; ESTALE when the cell's column or table was
// dropped since the open; a storage errno), the file stores nothing more
// and its flush, fsync and further writes fail with that errno.
int OpenCellFile(FileContext* context, const Node& node, int flags, bool created,
                 std::unique_ptr<OpenFile>* out);

// A scratch file (fs/tree/scratch_files.h), read and written in place:
// writes and truncations change the daemon's copy at once (EFBIG past a
// cell's 64 MiB, ENOSPC past the scratch budget); nothing is stored until
// it is renamed over a cell (AttrOps::Rename).
std::unique_ptr<OpenFile> NewScratchFile(FileContext* context,
                                         std::shared_ptr<ScratchFiles::File> file);

// An element name of a cell (node.id.element set: `tags@remove`,
// `l@prepend`, `m@key=k`, `l@index=2`, `u@field=f`; fs/formats/element_suffix.h),
// opened for writing (EACCES for reading: it has no content of its own).
// Each write must keep the value parseable for the edit's value type
// (EINVAL otherwise); each close stores the one CQL element operation
// (fs/files/element_file.cc). A refused write or store leaves the file
// storing nothing more, as for cells.
int OpenElementFile(FileContext* context, const Node& node, int flags, bool created,
                    std::unique_ptr<OpenFile>* out);

// `rm` of an element name: DELETE m[k], DELETE l[i], u.f = null.
// InvalidArgument for @remove and @prepend names, which name no element.
Status RemoveElementName(FileContext* context, const Node& node);

// A row's @json (also the partition's, for a table without clustering
// columns): reads the row as one JSON object; a write of an object changes
// the columns it names (null deletes), stored at flush. Writes must start
// with '{' (after blanks) and stay within 64 MiB (and the budget of all
// write buffers); the object is parsed once, when its closing brace
// arrives. As for cells, a refused write or store (ESTALE: a column it
// names was dropped since the open) leaves the file storing nothing more
// and failing its flush with that errno. `row` may also be a clustered
// partition, opened for writing: then the object names its static columns
// only (a regular one is EINVAL; key members must match the partition),
// stored as an UPDATE of the static row, and nothing is read.
int OpenRowJsonFile(FileContext* context, const Node& row, std::unique_ptr<OpenFile>* out);

// @json / @csv of a table, partition, slice or query directory, streamed from one snapshot:
// sequential reads with flat memory.
std::unique_ptr<OpenFile> NewExportFile(FileContext* context, const Node& dir, bool csv);

// @count of a table, partition, slice or query directory: the rows it
// covers counted at the open, by one streamed read (SELECT count(*): a
// partition holding only static cells counts once, except in a slice),
// then read as "N\n".
int OpenCountFile(FileContext* context, const Node& dir, std::unique_ptr<OpenFile>* out);

// MOUNT/@cql.
std::unique_ptr<OpenFile> NewCqlFile(FileContext* context);

// TABLE/@insert (fs/files/insert_file.cc): JSON Lines or CSV written to it are
// stored record by record in batches (fs/formats/insert_batcher.h); a write()
// that completes a refused record fails with EINVAL (the valid ones are
// kept); flush and fsync end the input's last record and apply what is
// batched. Reading it returns the report: one "line N: message" per refused
// record, then "N rows stored, M lines refused".
// `append`: opened with O_APPEND, whose write offsets follow a file size
// the kernel may refresh to 0, so they are not used to skip resent bytes.
std::unique_ptr<OpenFile> NewInsertFile(FileContext* context, const Node& table,
                                        const WriteAttributes& defaults, bool append);

// TABLE/@stats and @stats.json: fs/formats/table_stats.h, computed when opened.
int OpenStatsFile(FileContext* context, const Node& table, bool json,
                  std::unique_ptr<OpenFile>* out);

}  // namespace cellfs::fs
