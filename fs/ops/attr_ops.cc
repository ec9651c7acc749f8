// AttrOps (fs/ops/attr_ops.h): lookup (with write suffixes), forget, getattr
// and setattr (chmod/chown/utimens/truncate rules), and the names the tree
// never takes.
#include "fs/ops/attr_ops.h"

#include <sys/stat.h>

#include <cerrno>

#include "fs/formats/write_suffixes.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/refusal_log.h"

namespace cellfs::fs {

AttrOps::AttrOps(TreeContext* tree, FileContext* files, FileOps* file_ops)
    : tree_(tree), files_(files), file_ops_(file_ops) {}

int AttrOps::Lookup(uint64_t parent, std::string_view name, Entry* out) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  ReadView view = tree_->engine->NewReadView();
  NodeState state;
  // The exact name first; then, for data names, the name less its write
  // suffixes ("col@ttl=60" reaches the cell col, remembering the TTL).
  Node child;
  Status exact = tree_->ChildOf(directory.value(), name, false, &child);
  if (exact.ok()) {
    Status live = tree_->StateOf(child, view, &state);
    if (live.ok()) {
      tree_->MakeEntry(child, state, view.now(), out);
      return 0;
    }
    if (live.code() != StatusCode::kNotFound) return ErrnoFromStatus(live);
  }
  Node suffixed;
  Status split = tree_->ChildOf(directory.value(), name, true, &suffixed);
  if (split.ok() && (!suffixed.id.write.empty() || !suffixed.id.element.empty()) &&
      suffixed.id.kind != NodeKind::kKeyspace) {
    Status live = tree_->StateOf(suffixed, view, &state);
    if (live.ok()) {
      tree_->MakeEntry(suffixed, state, view.now(), out);
      return 0;
    }
    return ErrnoFromStatus(live);
  }
  if (exact.ok()) return ENOENT;
  if (exact.code() == StatusCode::kNotFound && tree_->HoldsCells(directory.value())) {
    Node scratch = tree_->ScratchChild(directory.value(), name);
    if (tree_->StateOf(scratch, view, &state).ok()) {
      tree_->MakeEntry(scratch, state, view.now(), out);
      return 0;
    }
  }
  // `CK@update` names a directory only mkdir makes (write_suffixes.h), so
  // it is looked up as absent, not as a key that does not parse.
  if (std::string_view base; SplitUpdateFlag(name, &base)) return ENOENT;
  if (!split.ok() && split.code() == StatusCode::kInvalidArgument) return ErrnoFromStatus(split);
  return ErrnoFromStatus(exact);
}

void AttrOps::Forget(uint64_t inode, uint64_t count) { tree_->Forget(inode, count); }

int AttrOps::GetAttr(uint64_t inode, NodeAttr* out, double* attr_timeout) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  ReadView view = tree_->engine->NewReadView();
  NodeState state;
  if (Status s = tree_->StateOf(node.value(), view, &state, /*held=*/true); !s.ok()) {
    // A cell gone behind a name the kernel still caches: ESTALE makes a
    // path walk start again with every name looked up anew (the VFS's
    // LOOKUP_REVAL retry), so stat(2) answers ENOENT and open(O_CREAT)
    // creates the cell, where ENOENT would fail the open.
    if (s.code() == StatusCode::kNotFound && node.value().id.kind == NodeKind::kCell) return ESTALE;
    return ErrnoFromStatus(s);
  }
  *out = state.attr;
  tree_->FinishAttr(inode, out);
  *attr_timeout = tree_->TimeoutFor(node.value(), state, view.now(), tree_->options->attr_timeout);
  return 0;
}

int AttrOps::SetSize(uint64_t inode, uint64_t size, uint64_t handle, NodeAttr* out,
                     double* attr_timeout) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  const NodeId& id = node.value().id;
  if (int e = files_->WriteRefusal(node.value())) return e;
  if (id.kind == NodeKind::kCell || id.kind == NodeKind::kScratch) {
    int e = handle != 0 ? file_ops_->Truncate(handle, size)
                        : file_ops_->TruncateCell(node.value(), size);
    if (e != 0) return e;
  } else if (size != 0) {
    return Refuse(EINVAL, "only a cell's file can be truncated to a length other than 0");
  }
  int result = GetAttr(inode, out, attr_timeout);
  if (result == ESTALE && id.kind == NodeKind::kCell) {
    *out = NodeAttr{};
    out->mode = S_IFREG | 0644;
    tree_->FinishAttr(inode, out);
    *attr_timeout = 0;
    return 0;
  }
  // Through an open file the new length is what it holds until it stores it.
  if (result == 0 && handle != 0) out->size = size;
  return result;
}

bool AttrOps::SetScratchMode(uint64_t inode, mode_t mode) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok() || node.value().id.kind != NodeKind::kScratch) return false;
  std::shared_ptr<ScratchFiles::File> file = tree_->scratch.Find(EncodeNodeId(node.value().id));
  if (!file) return false;
  std::lock_guard lock(file->mutex);
  file->mode = mode;
  return true;
}

int AttrOps::SetAttr(uint64_t inode, const AttrChanges& changes, const Caller& caller,
                     uint64_t handle, NodeAttr* out, double* attr_timeout) {
  if (changes.mode || changes.uid || changes.gid) {
    if (tree_->options->read_only) return EROFS;
    NodeAttr now;
    double timeout = 0;
    if (int e = GetAttr(inode, &now, &timeout)) return e;
    if (caller.uid != 0 && caller.uid != now.uid) return EPERM;  // neither owner nor root
    constexpr mode_t kPermissionBits = 07777;
    const bool same_owner =
        (!changes.uid || *changes.uid == now.uid) && (!changes.gid || *changes.gid == now.gid);
    bool same_mode =
        !changes.mode || (*changes.mode & kPermissionBits) == (now.mode & kPermissionBits);
    // A scratch file takes the mode it is given (sed -i and rsync give it
    // the cell's before the rename).
    if (!same_mode && same_owner && SetScratchMode(inode, *changes.mode & kPermissionBits)) {
      same_mode = true;
    }
    if (!same_mode || !same_owner) return EPERM;
  }
  // Times need no check: they are ignored (changes.times).
  if (changes.size) return SetSize(inode, *changes.size, handle, out, attr_timeout);
  return GetAttr(inode, out, attr_timeout);
}

int AttrOps::Link(uint64_t, uint64_t, std::string_view) { return EPERM; }
int AttrOps::Symlink(std::string_view, uint64_t, std::string_view) { return EPERM; }
int AttrOps::MkNod(uint64_t, std::string_view, mode_t) { return EPERM; }

}  // namespace cellfs::fs
