// Filesystem: the tree of DESIGN.md over an Engine, as operations shaped like
// FUSE's low-level requests but free of the kernel, so they run (and are
// tested) without a mount. The FUSE binding binds them to fuse_lowlevel_ops.
// The one facade of fs/ops: each group of operations lives in a header of
// its own (attr_ops.h, directory_ops.h, file_ops.h, xattr_ops.h).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "fs/files/notifier.h"
#include "fs/tree/inode_table.h"
#include "fs/tree/node_attr.h"

namespace cellfs::fs {

// What a setattr asks to change; unset fields stay as they are.
struct AttrChanges {
  std::optional<mode_t> mode;    // chmod
  std::optional<uid_t> uid;      // chown
  std::optional<gid_t> gid;      // chown, chgrp
  std::optional<uint64_t> size;  // truncate, ftruncate
  bool times = false;            // utimens, touch: atime and/or mtime
};

// Who sends a request (fuse_req_ctx).
struct Caller {
  uid_t uid = 0;
  gid_t gid = 0;
};

struct OpenReply {
  uint64_t handle = 0;  // fuse_file_info::fh
  // Reads and writes bypass the kernel's page cache: cells (each open reads
  // its own snapshot) and generated content with no fixed size (@cql, @json...).
  bool direct_io = false;
  bool nonseekable = false;
  bool noflush = false;  // nothing to store at close: the kernel need not send flush
};

// One directory entry for readdir / readdirplus. `next_offset` is the
// offset to pass back to continue after this entry. In readdirplus mode
// `entry` is filled (and holds a lookup); otherwise only entry.attr.inode
// and entry.attr.mode are meaningful.
struct DirEntry {
  std::string_view name;
  Entry entry;
  uint64_t next_offset = 0;
};

// Receives entries; returns false when the reply buffer is full, in which
// case the entry was NOT taken (the fs takes back its lookup) and will be
// offered again by the next ReadDir from the same offset.
using DirEntrySink = std::function<bool(const DirEntry&)>;

// Errors: every operation returns 0 or a positive errno (ErrnoFromStatus
// for engine errors); Write returns the bytes taken or a negative errno.
// A handle (OpenReply::handle, OpenDir's) is a number checked against a
// table (fs/ops/handle_table.h), never a pointer: one released, or never
// issued, is EBADF; Release, Discard and ReleaseDir of one do nothing.
//
// Thread-safe: the FUSE session calls from several threads at once; every
// operation may run concurrently with every other. Handles (files and
// directories) may also see concurrent calls. Lock order: a handle's own
// lock -> a cell's append lock (fs/files/file_context.h) -> the kept
// directories' lock (fs/tree/tree_context.h) -> the inode table's. A
// handle's lock is held across that handle's store (flush, fsync, release),
// which serialises the writes through one handle; the append lock across
// an append's read and write; the other two are held only for map
// operations. The handle tables' locks (fs/ops/handle_table.h) are leaves,
// taken with none of these held. None is held across a reply to the
// kernel.
class Filesystem {
 public:
  // `engine` and `notifier` must outlive the Filesystem.
  Filesystem(Engine* engine, Notifier* notifier, const FilesystemOptions& options);
  // Releases, storing what they hold, the files the kernel never released
  // (a session ended by a signal), and the directories it never released.
  // REQUIRES: no request is in progress.
  ~Filesystem();
  Filesystem(const Filesystem&) = delete;
  Filesystem& operator=(const Filesystem&) = delete;

  // ---- Names and attributes.
  int Lookup(uint64_t parent, std::string_view name, Entry* out);
  void Forget(uint64_t inode, uint64_t count);
  // ESTALE for a cell that is gone (deleted or expired) while the kernel
  // holds it: the VFS then walks a path again looking every name up anew.
  int GetAttr(uint64_t inode, NodeAttr* out, double* attr_timeout);
  // access(2) (`test -w`, faccessat), asked only on a private mount (no
  // default_permissions, see docs/FILESYSTEM.md "Permissions"): `mask`'s
  // R_OK, W_OK and X_OK against the node's mode as open and exec would
  // treat it: EACCES when a bit it asks for is in none of the mode's
  // owner, group or other bits, for root too (the daemon refuses writes to
  // read-only files whoever asks); else 0. F_OK alone: 0 when it exists.
  int Access(uint64_t inode, int mask);
  // setattr (chmod, chown, utimens, truncate), the changes decided here:
  // - A mode, owner or group that is already true succeeds (`cp -p`,
  //   `rsync -a` and `tar` set them); any other is EPERM, as is any such
  //   request from a caller who is neither the owner nor root (the kernel,
  //   with default_permissions, checks that too); EROFS when mounted
  //   read-only. Only the permission bits of `mode` are compared.
  // - Times are accepted and ignored (a cell's mtime is its write time), so
  //   `touch` of a cell works.
  // - A size: SetSize. A refused mode or owner comes first: nothing changes.
  // On success *out holds the attributes after the change.
  int SetAttr(uint64_t inode, const AttrChanges& changes, const Caller& caller, uint64_t handle,
              NodeAttr* out, double* attr_timeout);
  // Truncation (setattr of the size): only size 0 of a node that takes
  // writes is accepted (what O_TRUNC asks); the write that follows
  // supplies the value. A node that does not is refused as Open for
  // writing refuses it (EISDIR, EROFS, EACCES: WritabilityOf in
  // fs/tree/node.h). `handle`: the open file the truncation came
  // through (ftruncate, which drops what that file has written), or 0
  // (truncate(2) by path, which stores the empty value at once for text
  // and blobs). Either way, a type without an empty spelling (int...) is
  // EINVAL and nothing changes.
  int SetSize(uint64_t inode, uint64_t size, uint64_t handle, NodeAttr* out, double* attr_timeout);

  // ---- Directories.
  int MkDir(uint64_t parent, std::string_view name, Entry* out);
  int RmDir(uint64_t parent, std::string_view name);
  int OpenDir(uint64_t inode, uint64_t* handle);
  // Whether the kernel may cache `inode`'s listing across opens
  // (cache_readdir + keep_cache): only for listings that change solely by
  // events the kernel sees or the fs invalidates (the root's keyspaces and
  // a keyspace's tables, changed by mkdir/rmdir or DDL). Partitions and rows
  // change by TTL expiry, which no event announces, so they are not cached.
  bool CachesListing(uint64_t inode) const;
  // Lists from `offset` (0: the start, with "." and ".."), calling `sink`
  // until it returns false or the listing ends. Offsets are those the
  // sink's entries carried: entry i has offset i + 1, counted in a
  // snapshot taken at offset 0 and held by the handle, so entries appearing
  // or going meanwhile neither repeat nor skip others. Continuing from the
  // last offset given resumes the open iterator; any other nonzero offset
  // (seekdir) walks the same snapshot again from its start to that position.
  int ReadDir(uint64_t handle, uint64_t offset, bool plus, const DirEntrySink& sink);
  // fsync(2) of an open directory: makes every write acknowledged so far
  // durable (mkdir, rmdir, rm, rm -r under it included, and everything
  // else: the engine has one log). The errno of the engine's sync: EIO,
  // ENOSPC or EROFS once the store's write fence is up.
  int FsyncDir(uint64_t handle);
  void ReleaseDir(uint64_t handle);

  // ---- Files.
  // create(2) of a cell (O_CREAT of a name that does not exist).
  int Create(uint64_t parent, std::string_view name, int flags, Entry* out, OpenReply* reply);
  int Unlink(uint64_t parent, std::string_view name);
  // Opening for writing (O_WRONLY, O_RDWR) a node that takes no writes:
  // EISDIR for a directory, EROFS when mounted read-only, EACCES for a
  // read-only file (@schema, an export, @stats).
  int Open(uint64_t inode, int flags, OpenReply* reply);
  int Read(uint64_t handle, uint64_t offset, size_t size, std::string* out);
  // EBADF through a file opened read-only. Validates as it goes: a write
  // that makes the value invalid fails with EINVAL and is not kept. Once
  // storage has failed (a full or read-only device: Engine::WriteHealth)
  // every write fails at once with that errno, so a shell's `echo >`,
  // which ignores close(2)'s result, still reports it. Returns data.size()
  // on success.
  ssize_t Write(uint64_t handle, uint64_t offset, std::string_view data);
  // close(2) of one descriptor: stores what was written (the engine has it
  // when flush returns 0).
  int Flush(uint64_t handle);
  // Flush, then make every acknowledged write durable.
  int Fsync(uint64_t handle);
  void Release(uint64_t handle);
  // Frees a handle whose open or create reply never reached the kernel,
  // storing nothing.
  void Discard(uint64_t handle);

  // rename(2) of a scratch file (fs/tree/scratch_files.h) onto a cell's
  // name in the same directory stores its content as the cell's value, as
  // a write of the whole file would (a column's name with write suffixes
  // or an element suffix too: `col@ttl=60`); the scratch file is gone. A
  // value that does not parse fails the rename with EINVAL and its reason,
  // and the scratch file stays. EXDEV into another directory (mv then
  // copies), EINVAL for rename(2) flags or a target that is no column.
  // Every other rename is EPERM: a key is an identity (Cassandra has no
  // UPDATE of a primary key).
  int Rename(uint64_t parent, std::string_view name, uint64_t new_parent, std::string_view new_name,
             unsigned flags = 0);

  // ---- Names the tree never takes: the tree holds keys and cells, never
  // links or device nodes, so these are EPERM, not ENOSYS ("Function not
  // implemented" reads like a missing feature).
  int Link(uint64_t inode, uint64_t new_parent, std::string_view new_name);
  int Symlink(std::string_view target, uint64_t parent, std::string_view name);
  int MkNod(uint64_t parent, std::string_view name, mode_t mode);

  // ---- Extended attributes.
  int GetXattr(uint64_t inode, std::string_view name, std::string* value);
  int ListXattr(uint64_t inode, std::string* names);  // NUL-terminated names
  // `flags`: setxattr(2)'s. XATTR_CREATE fails with EEXIST when the
  // attribute exists; XATTR_REPLACE with GetXattr's errno (ENODATA) when
  // it does not.
  int SetXattr(uint64_t inode, std::string_view name, std::string_view value, int flags = 0);
  int RemoveXattr(uint64_t inode, std::string_view name);

  InodeTable& inodes() { return inodes_; }
  const InodeTable& inodes() const { return inodes_; }
  const FilesystemOptions& options() const { return options_; }

 private:
  struct Impl;  // fs/ops/filesystem.cc: the contexts and the operation groups
  InodeTable inodes_;
  FilesystemOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cellfs::fs
