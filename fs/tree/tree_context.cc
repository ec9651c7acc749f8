// TreeContext (fs/tree/tree_context.h): construction and the kept
// directories; resolution is in node_resolver.cc, state in node_state.cc.
#include "fs/tree/tree_context.h"

namespace cellfs::fs {

TreeContext::TreeContext(Engine* engine_in, InodeTable* inodes_in,
                         const FilesystemOptions* options_in)
    : engine(engine_in),
      inodes(inodes_in),
      options(options_in),
      mount_micros(engine_in->clock().NowMicros()),
      refusals(RefusalLog::kDefaultCapacity, options_in->refusal_sink) {}

void TreeContext::Keep(const NodeId& id) {
  std::lock_guard lock(kept_mutex_);
  kept_.insert(EncodeNodeId(id));
}

void TreeContext::Unkeep(const NodeId& id) {
  std::lock_guard lock(kept_mutex_);
  kept_.erase(EncodeNodeId(id));
}

bool TreeContext::IsKept(const NodeId& id) const {
  std::string identity = EncodeNodeId(id);
  if (!inodes->Find(identity)) return false;  // the kernel let go of it
  std::lock_guard lock(kept_mutex_);
  return kept_.count(identity) != 0;
}

void TreeContext::Forget(uint64_t inode, uint64_t count) {
  std::optional<std::string> dropped = inodes->Forget(inode, count);
  if (!dropped) return;
  // A new lookup of the same node may have come in since: then it is held
  // again (under a new inode) and its kept mark stays. The probe is made
  // under kept_mutex_: a maker acquires its inode before Keep, so either
  // the probe sees that inode or the maker's Keep comes after this erase.
  std::lock_guard lock(kept_mutex_);
  if (!inodes->Find(*dropped)) kept_.erase(*dropped);
}

}  // namespace cellfs::fs
