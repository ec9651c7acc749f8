// FileOps (fs/ops/file_ops.h): create and unlink of cells, open of cells and
// virtual files, and read / write / flush / fsync through the open-file kinds
// of fs/files/open_file.h.
#include "fs/ops/file_ops.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

#include "fs/files/open_file.h"
#include "fs/ops/removal.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/refusal_log.h"

namespace cellfs::fs {
namespace {

bool Writing(int flags) { return (flags & O_ACCMODE) != O_RDONLY; }

// Why create(2) of `name` in `directory` names no cell (ChildOf: NotFound).
std::string UnknownColumn(const Node& directory, std::string_view name) {
  if (!directory.table || directory.id.kind < NodeKind::kPartition) {
    return "only directories can be made here (a file is a cell, in a partition or row)";
  }
  std::string_view column = name.substr(0, name.find('@'));
  const std::string table = directory.id.keyspace + "." + directory.id.table;
  if (directory.table->def.FindColumn(std::string(column)) != nullptr) {
    return "column " + std::string(column) + " of " + table + " does not live here (" +
           (directory.clustered() && directory.id.kind != NodeKind::kRow
                ? "a regular column is a file of a row directory)"
                : "a key column is part of the directory names)");
  }
  return "Undefined column name " + std::string(column) + " in table " + table;
}

int OpenVirtual(FileContext* files, const Node& node, int flags, std::unique_ptr<OpenFile>* out) {
  switch (node.id.file) {
    case VirtualName::Kind::kCql:
      *out = NewCqlFile(files);
      return 0;
    case VirtualName::Kind::kSchema: {
      Result<std::string> text = SchemaText(*files->engine, node);
      if (!text.ok()) return ErrnoFromStatus(text.status());
      *out = NewTextFile(std::move(text).value());
      return 0;
    }
    case VirtualName::Kind::kJson:
    case VirtualName::Kind::kCsv: {
      if (node.IsRowJson() || (node.IsStaticJson() && Writing(flags))) {
        Node row = node;
        row.id.kind = node.id.directory;
        return OpenRowJsonFile(files, row, out);
      }
      Node dir = node;
      dir.id.kind = node.id.directory;
      *out = NewExportFile(files, dir, node.id.file == VirtualName::Kind::kCsv);
      return 0;
    }
    case VirtualName::Kind::kCount: {
      Node dir = node;
      dir.id.kind = node.id.directory;
      return OpenCountFile(files, dir, out);
    }
    case VirtualName::Kind::kInsert: {
      Node table = node;
      table.id.kind = NodeKind::kTable;
      *out = NewInsertFile(files, table, node.id.write, (flags & O_APPEND) != 0);
      return 0;
    }
    case VirtualName::Kind::kStatus:
      // Direct I/O, as @errors: the store's size changes between a stat and the reads.
      *out = NewTextFile(files->StatusText(), /*direct_io=*/true);
      return 0;
    case VirtualName::Kind::kErrors:
      // Direct I/O: the log grows between a stat and the reads.
      *out = NewTextFile(files->RefusalsText(), /*direct_io=*/true);
      return 0;
    case VirtualName::Kind::kStats:
    case VirtualName::Kind::kStatsJson: {
      Node table = node;
      table.id.kind = NodeKind::kTable;
      return OpenStatsFile(files, table, node.id.file == VirtualName::Kind::kStatsJson, out);
    }
    default:
      return EACCES;
  }
}

void Reply(HandleTable<OpenFile>* open, uint64_t inode, std::unique_ptr<OpenFile> file, int flags,
           OpenReply* reply) {
  file->writable = Writing(flags);
  file->inode = inode;
  reply->direct_io = file->direct_io();
  reply->nonseekable = false;
  reply->handle = open->Add(std::move(file));
}

}  // namespace

FileOps::FileOps(TreeContext* tree, FileContext* files) : tree_(tree), files_(files) {}

void FileOps::ReleaseAll() {
  for (const std::shared_ptr<OpenFile>& file : open_.RemoveAll()) {
    std::lock_guard lock(file->mutex);
    (void)file->Release();
  }
}

int FileOps::Create(uint64_t parent, std::string_view name, int flags, Entry* out,
                    OpenReply* reply) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  if (int e = files_->QueryViewRefusal(directory.value())) return e;
  if (IsVirtualName(name)) return Refuse(EPERM, "no file named with '@' can be made");
  Node child;
  Status s = tree_->ChildOf(directory.value(), name, /*split_suffixes=*/true, &child);
  if (s.code() == StatusCode::kNotFound) {
    // mkstemp(3)'s O_EXCL create of a name that is no column: a scratch
    // file, to be renamed over a cell (sed -i, editors, rsync, tempfile).
    if ((flags & O_EXCL) != 0 && tree_->HoldsCells(directory.value())) {
      return CreateScratch(directory.value(), name, flags, out, reply);
    }
    return Refuse(EINVAL, UnknownColumn(directory.value(), name));
  }
  if (!s.ok()) return ErrnoFromStatus(s);
  // A key is EISDIR: rows are made by mkdir.
  if (int e = files_->WriteRefusal(child)) return e;
  NodeState state;
  state.attr.mode = S_IFREG | 0644;
  state.attr.nlink = 1;
  state.attr.mtime_micros = files_->engine->clock().NowMicros();
  tree_->MakeEntry(child, state, state.attr.mtime_micros, out);
  std::unique_ptr<OpenFile> file;
  if (int e = OpenCellFile(files_, child, flags | O_TRUNC, true, &file)) {
    tree_->Forget(out->attr.inode, 1);
    return e;
  }
  tree_->Keep(child.id);  // an empty file until the open file stores something
  Reply(&open_, out->attr.inode, std::move(file), flags, reply);
  return 0;
}

int FileOps::CreateScratch(const Node& directory, std::string_view name, int flags, Entry* out,
                           OpenReply* reply) {
  if (name.size() > 255) return Refuse(ENAMETOOLONG, "a file name is at most 255 bytes");
  if (directory.table->def.FindColumn(std::string(name)) != nullptr) {
    return Refuse(EINVAL, UnknownColumn(directory, name));  // a key column's name
  }
  const Node scratch = tree_->ScratchChild(directory, name);
  const int64_t now = files_->engine->clock().NowMicros();
  if (int e = tree_->scratch.Create(EncodeNodeId(scratch.id), tree_->ScratchDirectory(directory),
                                    0600, now)) {  // mkstemp's mode
    return e == ENOSPC ? Refuse(ENOSPC, "too many scratch files (" +
                                            std::to_string(ScratchFiles::kMaxFiles) +
                                            "): rename or remove one first")
                       : e;
  }
  NodeState state;
  if (Status s = tree_->StateOf(scratch, files_->engine->NewReadView(), &state); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  tree_->MakeEntry(scratch, state, now, out);
  Reply(&open_, out->attr.inode,
        NewScratchFile(files_, tree_->scratch.Find(EncodeNodeId(scratch.id))), flags, reply);
  return 0;
}

int FileOps::Unlink(uint64_t parent, std::string_view name) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  if (int e = files_->QueryViewRefusal(directory.value())) return e;
  if (IsVirtualName(name)) return EPERM;
  if (tree_->HoldsCells(directory.value()) &&
      tree_->scratch.Remove(EncodeNodeId(tree_->ScratchChild(directory.value(), name).id),
                            ScratchFiles::Fate::kUnlinked)) {
    return 0;  // a scratch file: nothing was stored
  }
  Node child;
  Status s = tree_->ChildOf(directory.value(), name, false, &child);
  if (!s.ok()) s = tree_->ChildOf(directory.value(), name, true, &child);  // col@timestamp=T
  if (!s.ok()) return ErrnoFromStatus(s);
  if (child.id.kind != NodeKind::kCell) return EISDIR;
  if (!child.id.element.empty()) return ErrnoFromStatus(RemoveElementName(files_, child));
  if (!directory.value().id.slice.empty()) {
    return Removal(tree_, files_).RemoveBeneathSlice(directory.value(), child);
  }
  size_t column = *child.column();
  files_->NoteRemoval(*child.table);
  Mutation mutation = files_->engine->NewMutation();
  s = mutation.DeleteCells(child.table, child.id.partition_key, child.id.clustering,
                           std::span<const size_t>(&column, 1), child.id.write);
  if (s.ok()) s = files_->Apply(std::move(mutation));
  if (!s.ok()) return ErrnoFromStatus(s);
  // The directories stay while the kernel holds them, so rm -r can finish.
  NodeId dir = directory.value().id;
  tree_->Keep(dir);
  if (dir.kind == NodeKind::kRow) {
    dir.kind = NodeKind::kPartition;
    dir.clustering.clear();
    dir.write = {};
    tree_->Keep(dir);
  }
  // Removed through `col@timestamp=T`: the kernel still holds an entry for
  // `col`, which would answer the next create with ENOENT until it expired;
  // the notifier sends names before attributes (fs/files/notifier.h).
  if (!child.id.write.empty()) {
    files_->InvalidateCell(child);
  } else {
    NodeId plain = child.id;
    plain.write = {};
    files_->InvalidateNode(plain);
  }
  return 0;
}

int FileOps::Rename(uint64_t parent, std::string_view name, uint64_t new_parent,
                    std::string_view new_name, unsigned flags) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  const Node& dir = directory.value();
  std::shared_ptr<ScratchFiles::File> scratch;
  std::string identity;
  if (tree_->HoldsCells(dir)) {
    identity = EncodeNodeId(tree_->ScratchChild(dir, name).id);
    scratch = tree_->scratch.Find(identity);
  }
  if (!scratch) return EPERM;  // keys and cells are never renamed
  if (new_name.size() > 255) return Refuse(ENAMETOOLONG, "a file name is at most 255 bytes");
  if (flags != 0) return Refuse(EINVAL, "a scratch file is renamed without rename(2) flags");
  if (new_parent != parent) {
    return Refuse(EXDEV, "a scratch file is renamed over a cell of its own directory");
  }
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  Node target;
  Status s = tree_->ChildOf(dir, new_name, /*split_suffixes=*/true, &target);
  if (s.code() == StatusCode::kNotFound) return Refuse(EINVAL, UnknownColumn(dir, new_name));
  if (!s.ok()) return ErrnoFromStatus(s);
  if (target.id.kind != NodeKind::kCell) {
    return Refuse(EINVAL,
                  "a scratch file is renamed over a cell, not over " + std::string(new_name));
  }
  if (int e = files_->WriteRefusal(target)) return e;
  // The scratch file's whole content, written as `cat FILE > col` would.
  std::unique_ptr<OpenFile> file;
  if (int e = OpenCellFile(files_, target, O_WRONLY | O_TRUNC, false, &file)) return e;
  std::lock_guard file_lock(file->mutex);
  int e = 0;
  {
    std::lock_guard scratch_lock(scratch->mutex);
    const std::string& content = scratch->content();
    if (content.empty()) {
      e = file->Truncate(0);  // the empty value, where the type has one
    } else {
      ssize_t wrote = file->Write(0, content);
      if (wrote < 0) e = static_cast<int>(-wrote);
    }
  }
  if (e == 0) e = file->Flush();
  if (e != 0) {
    file->Discard();
    return e;
  }
  tree_->scratch.Remove(identity, ScratchFiles::Fate::kRenamed);
  return 0;
}

int FileOps::Open(uint64_t inode, int flags, OpenReply* reply) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  if (Writing(flags)) {
    if (int e = files_->WriteRefusal(node.value())) return e;
  }
  std::unique_ptr<OpenFile> file;
  switch (node.value().id.kind) {
    case NodeKind::kCell:
      if (int e = OpenCellFile(files_, node.value(), flags, false, &file)) return e;
      break;
    case NodeKind::kVirtualFile:
      if (int e = OpenVirtual(files_, node.value(), flags, &file)) return e;
      break;
    case NodeKind::kScratch: {
      std::shared_ptr<ScratchFiles::File> scratch =
          tree_->scratch.Find(EncodeNodeId(node.value().id));
      if (!scratch) return ENOENT;
      if ((flags & O_TRUNC) != 0 && Writing(flags)) {
        std::lock_guard lock(scratch->mutex);
        if (int e = scratch->Resize(0, files_->engine->clock().NowMicros())) return e;
      }
      file = NewScratchFile(files_, std::move(scratch));
      break;
    }
    default:
      return EISDIR;
  }
  reply->noflush = !Writing(flags);  // a reader leaves nothing to store at close
  Reply(&open_, inode, std::move(file), flags, reply);
  return 0;
}

uint64_t FileOps::InodeOf(uint64_t handle) const {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  return file ? file->inode : 0;
}

int FileOps::Read(uint64_t handle, uint64_t offset, size_t size, std::string* out) {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  if (!file) return EBADF;
  std::lock_guard lock(file->mutex);
  return file->Read(offset, size, out);
}

ssize_t FileOps::Write(uint64_t handle, uint64_t offset, std::string_view data) {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  if (!file || !file->writable) return -EBADF;  // as write(2) through a read-only descriptor
  if (Status health = files_->engine->WriteHealth(); !health.ok()) {
    return -ErrnoFromStatus(health);
  }
  std::lock_guard lock(file->mutex);
  return file->Write(offset, data);
}

int FileOps::Flush(uint64_t handle) {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  if (!file) return EBADF;
  std::lock_guard lock(file->mutex);
  return file->Flush();
}

int FileOps::Fsync(uint64_t handle) {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  if (!file) return EBADF;
  int pending = 0;
  {
    std::lock_guard lock(file->mutex);
    pending = file->Release();  // everything pending, as a flush
  }
  // The sync runs even when this file refused something: fsync makes every
  // write acknowledged so far durable (an @insert with a refused line has
  // stored its valid ones).
  if (int e = ErrnoFromStatus(files_->engine->Sync())) return e;
  return pending;
}

int FileOps::Truncate(uint64_t handle, uint64_t size) {
  std::shared_ptr<OpenFile> file = open_.Find(handle);
  if (!file) return EBADF;
  std::lock_guard lock(file->mutex);
  return file->Truncate(size);
}

int FileOps::TruncateCell(const Node& cell, uint64_t size) {
  if (cell.id.kind == NodeKind::kScratch) {
    std::shared_ptr<ScratchFiles::File> scratch = tree_->scratch.Find(EncodeNodeId(cell.id));
    if (!scratch) return ENOENT;
    std::lock_guard lock(scratch->mutex);
    return scratch->Resize(size, files_->engine->clock().NowMicros());
  }
  // As an open for writing, an ftruncate and a close: one path for both.
  std::unique_ptr<OpenFile> file;
  if (int e = OpenCellFile(files_, cell, O_RDWR, false, &file)) return e;
  std::lock_guard lock(file->mutex);
  if (int e = file->Truncate(size)) {
    file->Discard();
    return e;
  }
  return file->Flush();
}

void FileOps::Discard(uint64_t handle) {
  std::shared_ptr<OpenFile> file = open_.Remove(handle);
  if (!file) return;
  std::lock_guard lock(file->mutex);
  file->Discard();
}

void FileOps::Release(uint64_t handle) {
  std::shared_ptr<OpenFile> file = open_.Remove(handle);
  if (!file) return;
  std::lock_guard lock(file->mutex);
  // Stores what no flush did (a descriptor the kernel never flushed);
  // every flush stored what was dirty, a bare truncation included.
  (void)file->Release();
}

}  // namespace cellfs::fs
