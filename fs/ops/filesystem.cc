// Filesystem: construction, lookup, attributes, and the shared Impl helpers
// (kept directories, open handles, invalidation, writes).
#include "fs/ops/filesystem.h"

#include <sys/stat.h>

#include <cerrno>

#include "fs/files/open_file.h"
#include "fs/ops/errno_map.h"
#include "fs/ops/filesystem_impl.h"

namespace cellfs::fs {

Filesystem::Impl::Impl(Filesystem* owner, Engine* engine_in, Notifier* notifier_in)
    : fs(owner),
      engine(engine_in),
      notifier(notifier_in),
      mount_micros(engine_in->clock().NowMicros()) {}

Filesystem::Filesystem(Engine* engine, Notifier* notifier, const FilesystemOptions& options)
    : inodes_(EncodeNodeId(NodeId{})),
      options_(options),
      impl_(std::make_unique<Impl>(this, engine, notifier)) {}

Filesystem::~Filesystem() {
  // Handles the kernel never released (the session ended by a signal):
  // files store what they hold and directories drop their snapshots before
  // the engine goes.
  for (const std::shared_ptr<OpenFile>& file : impl_->files.RemoveAll()) {
    std::lock_guard lock(file->mutex);
    (void)file->Release();
  }
  (void)impl_->dirs.RemoveAll();  // each freed as its pointer goes
}

int Filesystem::Lookup(uint64_t parent, std::string_view name, Entry* out) {
  Result<Node> directory = impl_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  ReadView view = impl_->engine->NewReadView();
  NodeState state;
  // The exact name first; then, for data names, the name less its write
  // suffixes ("col@ttl=60" reaches the cell col, remembering the TTL).
  Node child;
  Status exact = impl_->ChildOf(directory.value(), name, false, &child);
  if (exact.ok()) {
    Status live = impl_->StateOf(child, view, &state);
    if (live.ok()) {
      impl_->MakeEntry(child, state, view.now(), out);
      return 0;
    }
    if (live.code() != StatusCode::kNotFound) return ErrnoFromStatus(live);
  }
  Node suffixed;
  Status split = impl_->ChildOf(directory.value(), name, true, &suffixed);
  if (split.ok() && !suffixed.id.write.empty() && suffixed.id.kind != NodeKind::kKeyspace) {
    Status live = impl_->StateOf(suffixed, view, &state);
    if (live.ok()) {
      impl_->MakeEntry(suffixed, state, view.now(), out);
      return 0;
    }
    return ErrnoFromStatus(live);
  }
  if (exact.ok()) return ENOENT;
  if (!split.ok() && split.code() == StatusCode::kInvalidArgument) return ErrnoFromStatus(split);
  return ErrnoFromStatus(exact);
}

void Filesystem::Forget(uint64_t inode, uint64_t count) {
  if (std::optional<std::string> dropped = inodes_.Forget(inode, count)) {
    impl_->Forgotten(*dropped);
  }
}

int Filesystem::GetAttr(uint64_t inode, NodeAttr* out, double* attr_timeout) {
  Result<Node> node = impl_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  ReadView view = impl_->engine->NewReadView();
  NodeState state;
  if (Status s = impl_->StateOf(node.value(), view, &state, /*held=*/true); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  *out = state.attr;
  impl_->FinishAttr(inode, out);
  *attr_timeout = impl_->TimeoutFor(node.value(), state, view.now(), options_.attr_timeout);
  return 0;
}

int Filesystem::SetSize(uint64_t inode, uint64_t size, uint64_t handle, NodeAttr* out,
                        double* attr_timeout) {
  Result<Node> node = impl_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  const NodeId& id = node.value().id;
  if (int e = impl_->WriteRefusal(node.value())) return e;
  if (size != 0) return EINVAL;  // a value is replaced whole, never cut
  if (id.kind == NodeKind::kCell) {
    int e = handle != 0 ? TruncateOpenFile(handle) : TruncateCell(node.value());
    if (e != 0) return e;
  }
  int result = GetAttr(inode, out, attr_timeout);
  if (result == ENOENT && id.kind == NodeKind::kCell) {
    *out = NodeAttr{};
    out->mode = S_IFREG | 0644;
    impl_->FinishAttr(inode, out);
    *attr_timeout = 0;
    return 0;
  }
  if (result == 0) out->size = 0;
  return result;
}

int Filesystem::SetAttr(uint64_t inode, const AttrChanges& changes, const Caller& caller,
                        uint64_t handle, NodeAttr* out, double* attr_timeout) {
  if (changes.mode || changes.uid || changes.gid) {
    if (options_.read_only) return EROFS;
    NodeAttr now;
    double timeout = 0;
    if (int e = GetAttr(inode, &now, &timeout)) return e;
    if (caller.uid != 0 && caller.uid != now.uid) return EPERM;  // neither owner nor root
    constexpr mode_t kPermissionBits = 07777;
    bool already =
        (!changes.mode || (*changes.mode & kPermissionBits) == (now.mode & kPermissionBits)) &&
        (!changes.uid || *changes.uid == now.uid) && (!changes.gid || *changes.gid == now.gid);
    if (!already) return EPERM;
  }
  // Times need no check: they are ignored (changes.times).
  if (changes.size) return SetSize(inode, *changes.size, handle, out, attr_timeout);
  return GetAttr(inode, out, attr_timeout);
}

int Filesystem::Rename(uint64_t, std::string_view, uint64_t, std::string_view) { return EPERM; }
int Filesystem::Link(uint64_t, uint64_t, std::string_view) { return EPERM; }
int Filesystem::Symlink(std::string_view, uint64_t, std::string_view) { return EPERM; }
int Filesystem::MkNod(uint64_t, std::string_view, mode_t) { return EPERM; }

// ---- Impl helpers shared by the operation files.

void Filesystem::Impl::Keep(const NodeId& id) {
  std::lock_guard lock(mutex);
  kept.insert(EncodeNodeId(id));
}

void Filesystem::Impl::Unkeep(const NodeId& id) {
  std::lock_guard lock(mutex);
  kept.erase(EncodeNodeId(id));
}

bool Filesystem::Impl::IsKept(const NodeId& id) const {
  std::string identity = EncodeNodeId(id);
  if (!fs->inodes().Find(identity)) return false;  // the kernel let go of it
  std::lock_guard lock(mutex);
  return kept.count(identity) != 0;
}

void Filesystem::Impl::Forgotten(const std::string& identity) {
  // A new lookup of the same node may have come in since: then it is held
  // again (under a new inode) and its kept mark stays. The probe is made
  // under `mutex`: a maker acquires its inode before Keep, so either the
  // probe sees that inode or the maker's Keep comes after this erase.
  std::lock_guard lock(mutex);
  if (!fs->inodes().Find(identity)) kept.erase(identity);
}

std::mutex& Filesystem::Impl::AppendLock(const NodeId& cell) {
  NodeId plain = cell;
  plain.write = {};
  return append_locks[std::hash<std::string>{}(EncodeNodeId(plain)) % append_locks.size()];
}

void Filesystem::Impl::InvalidateNode(const NodeId& id) {
  if (auto inode = fs->inodes().Find(EncodeNodeId(id))) notifier->InvalidateInode(*inode);
}

void Filesystem::Impl::InvalidateCellName(const Node& cell) {
  std::optional<size_t> column = cell.column();
  if (!column) return;
  NodeId dir = cell.id;
  dir.column_id = 0;
  dir.write = {};
  dir.kind = cell.id.clustering.empty() ? NodeKind::kPartition : NodeKind::kRow;
  InvalidateName(dir, ColumnName(*cell.table, *column));
}

void Filesystem::Impl::AwaitInvalidations() { notifier->AwaitSent(1000); }

void Filesystem::Impl::InvalidateName(const NodeId& parent, const std::string& name) {
  if (auto inode = fs->inodes().Find(EncodeNodeId(parent))) {
    notifier->InvalidateEntry(*inode, name);
  }
}

Status Filesystem::Impl::CheckWritable() const {
  if (fs->options().read_only) return Status::ReadOnly("mounted read-only");
  return Status::Ok();
}

int Filesystem::Impl::WriteRefusal(const Node& node) const {
  switch (WritabilityOf(node)) {
    case Writability::kDirectory:
      return EISDIR;
    case Writability::kReadOnlyFile:
      return fs->options().read_only ? EROFS : EACCES;
    case Writability::kWritable:
      return fs->options().read_only ? EROFS : 0;
  }
  return EACCES;
}

Status Filesystem::Impl::Apply(Mutation&& mutation) {
  if (Status s = CheckWritable(); !s.ok()) return s;
  return engine->Apply(std::move(mutation));
}

}  // namespace cellfs::fs
