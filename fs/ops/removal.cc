// Removal (fs/ops/removal.h): rmdir of rows and partitions at the timestamp
// their names carry, and slices removed as one range tombstone.
#include "fs/ops/removal.h"

#include <cerrno>
#include <string>
#include <vector>

#include "fs/formats/write_suffixes.h"
#include "fs/tree/dir_listing.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/slice_path.h"

namespace cellfs::fs {
namespace {

bool IsLive(const TreeContext& tree, const Node& node) {
  ReadView view = tree.engine->NewReadView();
  NodeState state;
  return tree.StateOf(node, view, &state).ok();
}

// The slice a row reached through one belongs to.
Node SliceOf(const Node& row) {
  Node slice = row;
  slice.id.kind = NodeKind::kSlice;
  slice.id.clustering.clear();
  return slice;
}

// A row listed in a slice, as the kernel knows it under the partition's
// plain path (PK/CK).
struct HeldRow {
  NodeId id;
  std::string name;
};

NodeId PlainPartition(const NodeId& id) {
  NodeId partition = id;
  partition.kind = NodeKind::kPartition;
  partition.slice.clear();
  partition.clustering.clear();
  partition.write = {};
  return partition;
}

// The rows of `slice` the kernel holds under the partition's plain path,
// read before the range is deleted, so that their entries can be
// invalidated after: the kernel cannot hold a row without its partition,
// so nothing is read when it does not hold the partition.
std::vector<HeldRow> HeldRows(const TreeContext& tree, const Node& slice) {
  std::vector<HeldRow> held;
  if (!tree.inodes->Find(EncodeNodeId(PlainPartition(slice.id)))) return held;
  ReadView view = tree.engine->NewReadView();
  auto listing = NewDirListing(tree, slice, view);
  if (!listing.ok()) return held;
  ListedEntry entry;
  while (listing.value()->Next(&entry)) {
    NodeId row = entry.node.id;
    row.slice.clear();
    row.write = {};
    if (tree.inodes->Find(EncodeNodeId(row))) held.push_back({std::move(row), entry.name});
  }
  return held;
}

}  // namespace

Status Removal::Target(const Node& dir, std::string_view name, Node* child) const {
  Status exact = tree_->ChildOf(dir, name, false, child);
  if (exact.ok() && IsLive(*tree_, *child)) return exact;
  Node suffixed;
  Status split = tree_->ChildOf(dir, name, true, &suffixed);
  if (split.ok() && !suffixed.id.write.empty()) {
    *child = std::move(suffixed);
    return split;
  }
  if (exact.ok()) return exact;
  return split.code() == StatusCode::kInvalidArgument ? split : exact;
}

int Removal::RemoveKeyDirectory(const Node& dir, std::string_view name, const Node& child) {
  if (child.id.kind == NodeKind::kRow && !child.id.slice.empty()) {
    return RemoveBeneathSlice(child, child);
  }
  if (child.id.write.ttl) return EINVAL;  // DELETE takes no TTL
  const bool at_timestamp = child.id.write.timestamp.has_value();
  if (!at_timestamp && HasLiveChild(*tree_, child)) return ENOTEMPTY;
  files_->NoteRemoval(*child.table);
  Mutation mutation = tree_->engine->NewMutation();
  Status s = child.id.kind == NodeKind::kPartition
                 ? mutation.DeletePartition(child.table, child.id.partition_key, child.id.write)
                 : mutation.DeleteRow(child.table, child.id.partition_key, child.id.clustering,
                                      child.id.write);
  if (s.ok()) s = files_->Apply(std::move(mutation));
  if (!s.ok()) return ErrnoFromStatus(s);
  tree_->Unkeep(child.id);
  tree_->scratch.RemoveIn(tree_->ScratchDirectory(child));  // they go with their directory
  if (child.id.kind == NodeKind::kRow) {
    NodeId partition = dir.id;
    partition.kind = NodeKind::kPartition;
    partition.slice.clear();
    tree_->Keep(partition);  // rm -r removes it next
  }
  if (!child.id.write.empty()) {
    // Removed as `ROW@timestamp=T`: the kernel's entry for the plain name
    // may show what the tombstone deleted until it expires.
    std::string_view base = name;
    WriteAttributes ignored;
    if (SplitWriteSuffixes(name, &base, &ignored).ok() && base != name) {
      NodeId plain = child.id;
      plain.write = {};
      files_->InvalidateNamedNode(dir.id, std::string(base), plain);
    }
  }
  return 0;
}

int Removal::RemoveSlice(const Node& slice) {
  if (slice.id.write.ttl) return EINVAL;
  if (tree_->IsKept(slice.id)) {
    tree_->Unkeep(slice.id);  // a removal beneath it wrote its tombstone
    return 0;
  }
  if (!slice.id.write.timestamp && HasLiveChild(*tree_, slice)) return ENOTEMPTY;
  return WriteRangeTombstone(slice);
}

int Removal::RemoveBeneathSlice(const Node& row, const Node& target) {
  Node slice = SliceOf(row);
  if (tree_->IsKept(slice.id)) return 0;  // its tombstone is written
  if (!IsLive(*tree_, target)) return 0;  // gone already
  if (int e = WriteRangeTombstone(slice)) return e;
  tree_->Keep(slice.id);  // the rest of `rm -r SLICE`, and its rmdir, write nothing
  return 0;
}

int Removal::WriteRangeTombstone(const Node& slice) {
  SliceSpec range;
  if (Status s = BuildSlice(*slice.table, slice.id.slice, &range); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  if (range.limit != 0 || range.reverse) return EINVAL;  // DELETE takes no LIMIT nor order
  std::vector<HeldRow> held = HeldRows(*tree_, slice);
  files_->NoteRemoval(*slice.table);
  Mutation mutation = tree_->engine->NewMutation();
  Status s = mutation.DeleteRange(slice.table, slice.id.partition_key, range, slice.id.write);
  if (s.ok()) s = files_->Apply(std::move(mutation));
  if (!s.ok()) return ErrnoFromStatus(s);
  // `ls PK/CK` must not answer from the kernel's cache what the range
  // deleted (rows newer than a timestamped range are looked up again too).
  const NodeId partition = PlainPartition(slice.id);
  for (const HeldRow& row : held) files_->InvalidateNamedNode(partition, row.name, row.id);
  return 0;
}

}  // namespace cellfs::fs
