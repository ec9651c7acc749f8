// FileContext (fs/files/file_context.h): invalidation, the write rule, the
// append locks.
#include "fs/files/file_context.h"

#include <cerrno>
#include <functional>

#include "fs/tree/refusal_log.h"

namespace cellfs::fs {

FileContext::FileContext(TreeContext* tree, Notifier* notifier)
    : engine(tree->engine), tree_(tree), notifier_(notifier) {}

std::mutex& FileContext::AppendLock(const NodeId& cell) {
  NodeId plain = cell;
  plain.write = {};
  return append_locks_[std::hash<std::string>{}(EncodeNodeId(plain)) % append_locks_.size()];
}

void FileContext::InvalidateNode(const NodeId& id) {
  if (auto inode = tree_->inodes->Find(EncodeNodeId(id))) notifier_->InvalidateInode(*inode);
}

void FileContext::InvalidateCellName(const Node& cell) {
  std::optional<size_t> column = cell.column();
  if (!column) return;
  NodeId dir = cell.id;
  dir.column_id = 0;
  dir.write = {};
  dir.element.clear();
  dir.kind = cell.id.clustering.empty() ? NodeKind::kPartition : NodeKind::kRow;
  InvalidateName(dir, ColumnName(*cell.table, *column));
}

void FileContext::InvalidateNamedNode(const NodeId& parent, const std::string& name,
                                      const NodeId& node) {
  InvalidateName(parent, name);
  InvalidateNode(node);
}

void FileContext::InvalidateCell(const Node& cell) {
  InvalidateCellName(cell);
  NodeId plain = cell.id;
  plain.write = {};
  plain.element.clear();
  InvalidateNode(plain);
}

void FileContext::AwaitInvalidations() { notifier_->AwaitSent(1000); }

void FileContext::InvalidateName(const NodeId& parent, const std::string& name) {
  if (auto inode = tree_->inodes->Find(EncodeNodeId(parent))) {
    notifier_->InvalidateEntry(*inode, name);
  }
}

Status FileContext::CheckWritable() const {
  if (tree_->options->read_only) return Status::ReadOnly("mounted read-only");
  return Status::Ok();
}

int FileContext::QueryViewRefusal(const Node& node) const {
  if (node.table != nullptr && node.table->def.view) {
    return Refuse(EROFS, "materialized view " + node.table->def.keyspace + "." +
                             node.table->def.name + " is read-only: write to its base table " +
                             node.table->def.view->base_table);
  }
  if (node.id.query.empty()) return 0;
  return Refuse(EROFS, "a query view (@where, @limit=, @columns=) is read-only");
}

int FileContext::WriteRefusal(const Node& node) const {
  if (int e = QueryViewRefusal(node)) return e;
  switch (WritabilityOf(node)) {
    case Writability::kDirectory:
      return Refuse(EISDIR, "a directory: keys are made with mkdir, values are its files");
    case Writability::kReadOnlyFile:
      return tree_->options->read_only ? Refuse(EROFS, "mounted read-only")
                                       : Refuse(EACCES, "a read-only file");
    case Writability::kWritable:
      return tree_->options->read_only ? Refuse(EROFS, "mounted read-only") : 0;
  }
  return EACCES;
}

Status FileContext::Apply(Mutation&& mutation) {
  if (Status s = CheckWritable(); !s.ok()) return s;
  return engine->Apply(std::move(mutation));
}

void FileContext::NoteRemoval(const TableSchema& table) const {
  if (CheckWritable().ok()) engine->NoteFileRemoval(table);
}

}  // namespace cellfs::fs
