// Filesystem (fs/ops/filesystem.h): the facade. Impl composes the tree's and
// the files' contexts with the operation groups; each operation forwards to
// its group.
#include "fs/ops/filesystem.h"

#include <sys/stat.h>
#include <unistd.h>

#include "fs/files/file_context.h"
#include "fs/files/schema_invalidation.h"
#include "fs/ops/attr_ops.h"
#include "fs/ops/directory_ops.h"
#include "fs/ops/file_ops.h"
#include "fs/ops/xattr_ops.h"
#include "fs/tree/node_path.h"
#include "fs/tree/refusal_log.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

// Members in construction order: each refers only to those above it.
struct Filesystem::Impl {
  Impl(Engine* engine, Notifier* notifier, InodeTable* inodes, const FilesystemOptions* options)
      : tree(engine, inodes, options),
        files(&tree, notifier),
        file_ops(&tree, &files),
        directories(&tree, &files),
        attrs(&tree, &files, &file_ops),
        xattrs(&tree, &files) {}

  TreeContext tree;
  FileContext files;
  FileOps file_ops;
  DirectoryOps directories;
  AttrOps attrs;
  XattrOps xattrs;

  // Runs `op` as one request of `operation` on `inode` (and `name` in it,
  // when the request names a child): a reason noted by an earlier request
  // on this thread is forgotten first; a refusal worth it is recorded with
  // the reason the operation noted (MOUNT/@errors, the daemon's log).
  template <typename Op>
  int Run(std::string_view operation, uint64_t inode, std::string_view name, Op&& op) {
    ClearRefusalReason();
    const int err = op();
    if (err != 0 && RefusalLog::Worth(operation, err)) Record(operation, inode, name, err);
    return err;
  }

  void Record(std::string_view operation, uint64_t inode, std::string_view name, int err) {
    Refusal refusal;
    refusal.time_micros = tree.engine->clock().NowMicros();
    refusal.operation = std::string(operation);
    refusal.err = err;
    refusal.reason = TakeRefusalReason(err);
    Result<Node> node = inode == 0 ? Result<Node>(Status::NotFound("")) : tree.NodeOf(inode);
    refusal.path = node.ok() ? NodePath(node.value()) : std::string(inode == 0 ? "" : "?");
    if (!name.empty()) {
      refusal.path = refusal.path.empty() || refusal.path == "."
                         ? std::string(name)
                         : refusal.path + "/" + std::string(name);
    }
    if (refusal.path.empty()) refusal.path = "?";
    tree.refusals.Record(std::move(refusal));
  }
};

Filesystem::Filesystem(Engine* engine, Notifier* notifier, const FilesystemOptions& options)
    : inodes_(EncodeNodeId(NodeId{})),
      options_(options),
      impl_(std::make_unique<Impl>(engine, notifier, &inodes_, &options_)) {
  // Another mount's schema change (a shared store): names and listings the
  // kernel cached go, as after a DDL write to @cql here.
  engine->SetSchemaListener([files = &impl_->files](const SchemaReload& reload) {
    InvalidateSchemaChanges(files, *reload.before, reload.table_ids_before, *reload.after);
  });
}

Filesystem::~Filesystem() {
  impl_->files.engine->SetSchemaListener(nullptr);
  // Handles the kernel never released (the session ended by a signal):
  // files store what they hold and directories drop their snapshots before
  // the engine goes.
  impl_->file_ops.ReleaseAll();
  impl_->directories.ReleaseAll();
}

// ---- Names and attributes.
int Filesystem::Lookup(uint64_t parent, std::string_view name, Entry* out) {
  return impl_->Run("lookup", parent, name, [&] { return impl_->attrs.Lookup(parent, name, out); });
}
void Filesystem::Forget(uint64_t inode, uint64_t count) { impl_->attrs.Forget(inode, count); }
int Filesystem::GetAttr(uint64_t inode, NodeAttr* out, double* attr_timeout) {
  return impl_->Run("getattr", inode, {},
                    [&] { return impl_->attrs.GetAttr(inode, out, attr_timeout); });
}
int Filesystem::Access(uint64_t inode, int mask) {
  return impl_->Run("access", inode, {}, [&] {
    NodeAttr attr;
    double timeout = 0;
    if (int e = impl_->attrs.GetAttr(inode, &attr, &timeout)) return e;
    const auto any = [&](mode_t owner_bit) {
      return (attr.mode & (owner_bit | owner_bit >> 3 | owner_bit >> 6)) != 0;
    };
    if ((mask & R_OK) != 0 && !any(S_IRUSR)) return EACCES;
    if ((mask & W_OK) != 0 && !any(S_IWUSR)) return EACCES;
    if ((mask & X_OK) != 0 && !any(S_IXUSR)) return EACCES;
    return 0;
  });
}
int Filesystem::SetAttr(uint64_t inode, const AttrChanges& changes, const Caller& caller,
                        uint64_t handle, NodeAttr* out, double* attr_timeout) {
  return impl_->Run("setattr", inode, {}, [&] {
    return impl_->attrs.SetAttr(inode, changes, caller, handle, out, attr_timeout);
  });
}
int Filesystem::SetSize(uint64_t inode, uint64_t size, uint64_t handle, NodeAttr* out,
                        double* attr_timeout) {
  return impl_->Run("truncate", inode, {},
                    [&] { return impl_->attrs.SetSize(inode, size, handle, out, attr_timeout); });
}
int Filesystem::Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                       std::string_view new_name, unsigned flags) {
  return impl_->Run("rename", parent, name, [&] {
    return impl_->file_ops.Rename(parent, name, new_parent, new_name, flags);
  });
}
int Filesystem::Link(uint64_t inode, uint64_t new_parent, std::string_view new_name) {
  return impl_->Run("link", new_parent, new_name,
                    [&] { return impl_->attrs.Link(inode, new_parent, new_name); });
}
int Filesystem::Symlink(std::string_view target, uint64_t parent, std::string_view name) {
  return impl_->Run("symlink", parent, name,
                    [&] { return impl_->attrs.Symlink(target, parent, name); });
}
int Filesystem::MkNod(uint64_t parent, std::string_view name, mode_t mode) {
  return impl_->Run("mknod", parent, name, [&] { return impl_->attrs.MkNod(parent, name, mode); });
}

// ---- Directories.
int Filesystem::MkDir(uint64_t parent, std::string_view name, Entry* out) {
  return impl_->Run("mkdir", parent, name,
                    [&] { return impl_->directories.MkDir(parent, name, out); });
}
int Filesystem::RmDir(uint64_t parent, std::string_view name) {
  return impl_->Run("rmdir", parent, name, [&] { return impl_->directories.RmDir(parent, name); });
}
int Filesystem::OpenDir(uint64_t inode, uint64_t* handle) {
  return impl_->Run("opendir", inode, {},
                    [&] { return impl_->directories.OpenDir(inode, handle); });
}
bool Filesystem::CachesListing(uint64_t inode) const {
  return impl_->directories.CachesListing(inode);
}
int Filesystem::ReadDir(uint64_t handle, uint64_t offset, bool plus, const DirEntrySink& sink) {
  return impl_->directories.ReadDir(handle, offset, plus, sink);
}
int Filesystem::FsyncDir(uint64_t handle) {
  return impl_->Run("fsync", 0, "(an open directory)",
                    [&] { return impl_->directories.FsyncDir(handle); });
}
void Filesystem::ReleaseDir(uint64_t handle) { impl_->directories.ReleaseDir(handle); }

// ---- Files.
int Filesystem::Create(uint64_t parent, std::string_view name, int flags, Entry* out,
                       OpenReply* reply) {
  return impl_->Run("create", parent, name,
                    [&] { return impl_->file_ops.Create(parent, name, flags, out, reply); });
}
int Filesystem::Unlink(uint64_t parent, std::string_view name) {
  return impl_->Run("unlink", parent, name, [&] { return impl_->file_ops.Unlink(parent, name); });
}
int Filesystem::Open(uint64_t inode, int flags, OpenReply* reply) {
  return impl_->Run("open", inode, {}, [&] { return impl_->file_ops.Open(inode, flags, reply); });
}
int Filesystem::Read(uint64_t handle, uint64_t offset, size_t size, std::string* out) {
  return impl_->Run("read", impl_->file_ops.InodeOf(handle), {},
                    [&] { return impl_->file_ops.Read(handle, offset, size, out); });
}
ssize_t Filesystem::Write(uint64_t handle, uint64_t offset, std::string_view data) {
  ssize_t written = 0;
  const int err = impl_->Run("write", impl_->file_ops.InodeOf(handle), {}, [&] {
    written = impl_->file_ops.Write(handle, offset, data);
    return written < 0 ? static_cast<int>(-written) : 0;
  });
  return err != 0 ? -err : written;
}
int Filesystem::Flush(uint64_t handle) {
  return impl_->Run("close", impl_->file_ops.InodeOf(handle), {},
                    [&] { return impl_->file_ops.Flush(handle); });
}
int Filesystem::Fsync(uint64_t handle) {
  return impl_->Run("fsync", impl_->file_ops.InodeOf(handle), {},
                    [&] { return impl_->file_ops.Fsync(handle); });
}
void Filesystem::Release(uint64_t handle) { impl_->file_ops.Release(handle); }
void Filesystem::Discard(uint64_t handle) { impl_->file_ops.Discard(handle); }

// ---- Extended attributes.
int Filesystem::GetXattr(uint64_t inode, std::string_view name, std::string* value) {
  return impl_->Run("getxattr", inode, {},
                    [&] { return impl_->xattrs.GetXattr(inode, name, value); });
}
int Filesystem::ListXattr(uint64_t inode, std::string* names) {
  return impl_->Run("listxattr", inode, {}, [&] { return impl_->xattrs.ListXattr(inode, names); });
}
int Filesystem::SetXattr(uint64_t inode, std::string_view name, std::string_view value, int flags) {
  return impl_->Run("setxattr(" + std::string(name) + ")", inode, {},
                    [&] { return impl_->xattrs.SetXattr(inode, name, value, flags); });
}
int Filesystem::RemoveXattr(uint64_t inode, std::string_view name) {
  return impl_->Run("removexattr(" + std::string(name) + ")", inode, {},
                    [&] { return impl_->xattrs.RemoveXattr(inode, name); });
}

}  // namespace cellfs::fs
