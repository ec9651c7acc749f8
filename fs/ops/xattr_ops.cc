// XattrOps (fs/ops/xattr_ops.h): user.cellfs.ttl and user.cellfs.writetime
// on cells, user.cellfs.token on partitions; setting the TTL rewrites the cell.
#include "fs/ops/xattr_ops.h"

#include <sys/xattr.h>

#include <cerrno>
#include <cstring>

#include "engine/store/cell.h"
#include "fs/tree/errno_map.h"

namespace cellfs::fs {
namespace {

constexpr std::string_view kTtl = "user.cellfs.ttl";
constexpr std::string_view kWriteTime = "user.cellfs.writetime";
constexpr std::string_view kToken = "user.cellfs.token";

// The live cell a node names; NotFound when it has none.
Result<RowCell> ReadCell(const Node& node, const ReadView& view) {
  auto partition = node.Partition();
  if (!partition.ok()) return partition.status();
  auto read = view.GetCell(node.table, *partition.value(), node.id.clustering,
                           node.table->column_ids[*node.column()]);
  if (!read.ok()) return read.status();
  if (!read.value()) return Status::NotFound("no such cell");
  return std::move(*read.value());
}

// The attributes a node has now, as (name, value) pairs.
Status AttributesNow(const TreeContext& tree, const Node& node,
                     std::vector<std::pair<std::string_view, std::string>>* out) {
  ReadView view = tree.engine->NewReadView();
  if (node.id.kind == NodeKind::kCell) {
    Result<RowCell> cell = ReadCell(node, view);
    if (!cell.ok()) return cell.status();
    if (cell.value().cell.ttl != 0) {
      int64_t remaining = cell.value().cell.local_deletion_time - FloorSeconds(view.now());
      out->emplace_back(kTtl, std::to_string(remaining > 0 ? remaining : 0));
    }
    out->emplace_back(kWriteTime, std::to_string(cell.value().cell.write_time));
  } else if (node.id.kind == NodeKind::kPartition) {
    auto partition = node.Partition();
    if (!partition.ok()) return partition.status();
    out->emplace_back(kToken, std::to_string(partition.value()->token()));
  }
  return Status::Ok();
}

}  // namespace

XattrOps::XattrOps(TreeContext* tree, FileContext* files) : tree_(tree), files_(files) {}

int XattrOps::GetXattr(uint64_t inode, std::string_view name, std::string* value) {
  // The kernel asks for security.capability before page-cache writes:
  // answer names cellfs never has without reading anything.
  if (name != kTtl && name != kWriteTime && name != kToken) return ENODATA;
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  std::vector<std::pair<std::string_view, std::string>> attributes;
  if (Status s = AttributesNow(*tree_, node.value(), &attributes); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  for (auto& [key, text] : attributes) {
    if (key == name) {
      *value = std::move(text);
      return 0;
    }
  }
  return ENODATA;
}

int XattrOps::ListXattr(uint64_t inode, std::string* names) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  std::vector<std::pair<std::string_view, std::string>> attributes;
  if (Status s = AttributesNow(*tree_, node.value(), &attributes); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  names->clear();
  for (const auto& attribute : attributes) {
    names->append(attribute.first);
    names->push_back('\0');
  }
  return 0;
}

int XattrOps::SetXattr(uint64_t inode, std::string_view name, std::string_view value, int flags) {
  if ((flags & (XATTR_CREATE | XATTR_REPLACE)) != 0) {
    std::string existing;
    int found = GetXattr(inode, name, &existing);
    if ((flags & XATTR_CREATE) != 0 && found == 0) return EEXIST;
    if ((flags & XATTR_REPLACE) != 0 && found != 0) return found;
  }
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  if (name != kTtl || node.value().id.kind != NodeKind::kCell) {
    return name == kWriteTime || name == kToken ? EPERM : EOPNOTSUPP;
  }
  if (int e = files_->QueryViewRefusal(node.value())) return e;
  int64_t ttl = 0;
  std::string_view text = value;
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (!ParseTtlText(text, &ttl).ok()) return EINVAL;
  return RewriteWithTtl(inode, ttl);
}

int XattrOps::RemoveXattr(uint64_t inode, std::string_view name) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  if (name != kTtl || node.value().id.kind != NodeKind::kCell) {
    return name == kWriteTime || name == kToken ? EPERM : ENODATA;
  }
  if (int e = files_->QueryViewRefusal(node.value())) return e;
  return RewriteWithTtl(inode, 0);  // the cell, kept forever
}

int XattrOps::RewriteWithTtl(uint64_t inode, int64_t ttl) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  const Node& cell_node = node.value();
  size_t column = *cell_node.column();
  if (cell_node.table->column(column).type->kind() == TypeKind::kCounter) return EINVAL;
  // Read and rewrite as one step against other read-modify-writes of the
  // cell (appends), with a write time taken after the read.
  std::lock_guard lock(files_->AppendLock(cell_node.id));
  ReadView view = files_->engine->NewReadView();
  Result<RowCell> cell = ReadCell(cell_node, view);
  if (!cell.ok()) return ErrnoFromStatus(cell.status());
  Mutation mutation = files_->engine->NewMutation();
  ColumnValue value{column, std::move(cell.value().cell.value)};
  WriteAttributes attributes;
  attributes.ttl = ttl;
  Status s = mutation.Update(cell_node.table, cell_node.id.partition_key, cell_node.id.clustering,
                             std::span<const ColumnValue>(&value, 1), attributes);
  if (s.ok()) s = files_->Apply(std::move(mutation));
  if (!s.ok()) return ErrnoFromStatus(s);
  files_->InvalidateCellName(cell_node);  // its entry timeout follows the new TTL
  files_->InvalidateNode(cell_node.id);
  return 0;
}

}  // namespace cellfs::fs
