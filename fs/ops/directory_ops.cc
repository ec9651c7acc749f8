// DirectoryOps (fs/ops/directory_ops.h): mkdir (CREATE KEYSPACE, partitions,
// rows with markers), rmdir (DROP when empty; rows, partitions and slices
// through fs/ops/removal.h),
// and streaming readdir / readdirplus with key-stable offsets.
#include "fs/ops/directory_ops.h"

#include <sys/stat.h>

#include <cerrno>
#include <functional>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_parser.h"
#include "fs/formats/write_suffixes.h"
#include "fs/ops/removal.h"
#include "fs/tree/dir_listing.h"
#include "fs/tree/errno_map.h"

namespace cellfs::fs {

// An open directory (DirectoryOps::dirs_): its snapshot and where its
// listing stands.
struct DirHandle {
  std::mutex mutex;  // guards everything below
  Node node;
  uint64_t inode = 0;
  std::optional<ReadView> view;
  std::unique_ptr<DirListing> listing;
  uint64_t position = 0;  // the offset of the next entry to emit
  // The entry produced last; `pending` while the kernel has not taken it.
  // Reused for every entry, so a long listing does not allocate per entry.
  ListedEntry slot;
  bool pending = false;
};

namespace {

// Entries 0 and 1 are "." and ".."; the children follow.
constexpr uint64_t kFirstChild = 2;

// readdir's d_ino: a stable, non-zero number from the directory and the
// name, outside the inode table's range. Looking up the node's real inode
// would cost an identity encoding and a table probe per entry, a fifth of a
// listing's time; like libfuse's high-level API, plain readdir reports a
// number of its own and stat reports the inode.
uint64_t ListedInode(uint64_t directory, std::string_view name) {
  uint64_t hash = std::hash<std::string_view>{}(name) ^ (directory * 0x9E3779B97F4A7C15ull);
  return (hash | (uint64_t{1} << 62)) & ~(uint64_t{1} << 63);
}

// Runs one DDL statement given as CQL text.
Status RunStatement(Engine* engine, const std::string& cql) {
  CqlParser parser(cql);
  Statement statement;
  bool done = false;
  if (Status s = parser.Next(&statement, &done); !s.ok()) return s;
  if (done) return Status::InvalidArgument("empty statement");
  std::string keyspace;
  return engine->Execute(statement, &keyspace);
}

}  // namespace

DirectoryOps::DirectoryOps(TreeContext* tree, FileContext* files) : tree_(tree), files_(files) {}

DirectoryOps::~DirectoryOps() = default;

void DirectoryOps::ReleaseAll() { (void)dirs_.RemoveAll(); }  // each freed as its pointer goes

int DirectoryOps::MkDir(uint64_t parent, std::string_view name, Entry* out) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  const Node& dir = directory.value();
  if (int e = files_->QueryViewRefusal(dir)) return e;
  if (IsVirtualName(name)) return EPERM;  // no @ name can be made (as for files)
  Node child;
  bool keep = false;
  switch (dir.id.kind) {
    case NodeKind::kRoot: {
      Status s = RunStatement(tree_->engine, "CREATE KEYSPACE " + QuoteIdentifier(name) +
                                                 " WITH replication = {'class': "
                                                 "'SimpleStrategy', 'replication_factor': 1}");
      if (!s.ok()) return ErrnoFromStatus(s);
      if (s = tree_->ChildOf(dir, name, false, &child); !s.ok()) return ErrnoFromStatus(s);
      break;
    }
    case NodeKind::kKeyspace:
      return EOPNOTSUPP;  // tables are made by CREATE TABLE (@cql)
    case NodeKind::kTable:
    case NodeKind::kPartition: {
      if (dir.id.kind == NodeKind::kPartition && !dir.clustered()) return ENOTDIR;
      // `mkdir CK@update`: the row for UPDATEs, no marker (SplitUpdateFlag).
      std::string_view base = name;
      const bool update = SplitUpdateFlag(name, &base);
      Status s = tree_->ChildOf(dir, base, /*split_suffixes=*/true, &child);
      if (s.code() == StatusCode::kNotFound) return EINVAL;
      if (!s.ok()) return ErrnoFromStatus(s);
      if (child.id.kind == NodeKind::kCell) return EEXIST;  // a column's name
      bool stores_marker = (child.id.kind == NodeKind::kRow || !dir.clustered()) &&
                           !dir.table->def.has_counters() && !update;
      if (!stores_marker) {
        // A clustered partition, a counter row (counters have no row
        // marker) or a row made @update: nothing is stored until something
        // is written under it.
        if (!child.id.write.empty()) return EINVAL;
        keep = true;
        break;
      }
      Mutation mutation = tree_->engine->NewMutation();
      s = mutation.Insert(dir.table, child.id.partition_key, child.id.clustering, {},
                          child.id.write);
      if (s.ok()) s = files_->Apply(std::move(mutation));
      if (!s.ok()) return ErrnoFromStatus(s);
      break;
    }
    default:
      return dir.id.kind == NodeKind::kSlice ? EOPNOTSUPP : ENOTDIR;
  }
  ReadView view = tree_->engine->NewReadView();
  NodeState state;
  if (!tree_->StateOf(child, view, &state).ok()) {
    state = DirectoryState(tree_->mount_micros, child.clustered() ? 1 : 2);
  }
  // The entry's lookup holds the identity, which a kept mark needs.
  tree_->MakeEntry(child, state, view.now(), out);
  if (keep) tree_->Keep(child.id);
  return 0;
}

int DirectoryOps::RmDir(uint64_t parent, std::string_view name) {
  Result<Node> directory = tree_->NodeOf(parent);
  if (!directory.ok()) return ErrnoFromStatus(directory.status());
  if (Status s = files_->CheckWritable(); !s.ok()) return ErrnoFromStatus(s);
  const Node& dir = directory.value();
  if (int e = files_->QueryViewRefusal(dir)) return e;
  Node child;
  Removal removal(tree_, files_);
  if (IsVirtualName(name)) {
    // Of the @ names only a slice directory can be removed: its range.
    if (!tree_->ChildOf(dir, name, false, &child).ok() || child.id.kind != NodeKind::kSlice) {
      return EPERM;
    }
    return removal.RemoveSlice(child);
  }
  if (Status s = removal.Target(dir, name, &child); !s.ok()) return ErrnoFromStatus(s);
  switch (child.id.kind) {
    case NodeKind::kKeyspace:
    case NodeKind::kTable: {
      if (HasLiveChild(*tree_, child)) return ENOTEMPTY;
      // An empty materialized view's directory goes as a table's does.
      const bool view = child.table != nullptr && child.table->view;
      std::string what = child.id.kind == NodeKind::kKeyspace
                             ? "DROP KEYSPACE " + QuoteIdentifier(child.id.keyspace)
                             : std::string(view ? "DROP MATERIALIZED VIEW " : "DROP TABLE ") +
                                   QuoteIdentifier(child.id.keyspace) + "." +
                                   QuoteIdentifier(child.id.table);
      Status s = RunStatement(tree_->engine, what);
      return s.ok() ? 0 : ErrnoFromStatus(s);
    }
    case NodeKind::kPartition:
    case NodeKind::kRow:
      return removal.RemoveKeyDirectory(dir, name, child);
    case NodeKind::kCell:
      return ENOTDIR;
    default:
      return EPERM;
  }
}

bool DirectoryOps::CachesListing(uint64_t inode) const {
  Result<Node> node = tree_->NodeOf(inode);
  return node.ok() &&
         (node.value().id.kind == NodeKind::kRoot || node.value().id.kind == NodeKind::kKeyspace);
}

int DirectoryOps::OpenDir(uint64_t inode, uint64_t* handle) {
  Result<Node> node = tree_->NodeOf(inode);
  if (!node.ok()) return ErrnoFromStatus(node.status());
  auto dir = std::make_unique<DirHandle>();
  dir->node = std::move(node).value();
  dir->inode = inode;
  *handle = dirs_.Add(std::move(dir));  // ReleaseAll frees it if the kernel never does
  return 0;
}

int DirectoryOps::ReadDir(uint64_t handle, uint64_t offset, bool plus, const DirEntrySink& sink) {
  std::shared_ptr<DirHandle> dir = dirs_.Find(handle);
  if (!dir) return EBADF;
  std::lock_guard lock(dir->mutex);
  if (offset != dir->position || !dir->view) {
    // The start takes a fresh snapshot, as rewinddir shows what changed; a
    // seek elsewhere walks the same snapshot again to the offset asked for.
    // Read past the block cache (ReadView::ForScan): a listing streams a
    // partition once, and would otherwise evict what point reads keep hot and
    // grow the daemon by the cache's size (docs/BENCHMARKS.md "Listing
    // memory").
    if (offset == 0 || !dir->view) dir->view = tree_->engine->NewReadView().ForScan();
    auto listing = NewDirListing(*tree_, dir->node, *dir->view);
    if (!listing.ok()) return ErrnoFromStatus(listing.status());
    dir->listing = std::move(listing).value();
    dir->pending = false;
    dir->position = 0;
    while (dir->position < offset) {
      if (dir->position >= kFirstChild && !dir->listing->Next(&dir->slot)) break;
      ++dir->position;
    }
  }
  while (true) {
    DirEntry out;
    out.next_offset = dir->position + 1;
    if (dir->position < kFirstChild) {
      out.name = dir->position == 0 ? "." : "..";
      out.entry.attr.inode = dir->position == 0 ? dir->inode : InodeTable::kRootInode;
      out.entry.attr.mode = S_IFDIR | 0755;
      if (!sink(out)) return 0;
      ++dir->position;
      continue;
    }
    if (!dir->pending) {
      if (!dir->listing->Next(&dir->slot)) return ErrnoFromStatus(dir->listing->status());
      dir->pending = true;
    }
    const ListedEntry& child = dir->slot;
    out.name = child.name;
    if (plus) {
      tree_->MakeEntry(child.node, child.state, dir->view->now(), &out.entry);
    } else {
      out.entry.attr.inode = ListedInode(dir->inode, child.name);
      out.entry.attr.mode = child.state.attr.mode;
    }
    if (!sink(out)) {
      if (plus) tree_->Forget(out.entry.attr.inode, 1);
      return 0;
    }
    dir->pending = false;
    ++dir->position;
  }
}

int DirectoryOps::FsyncDir(uint64_t handle) {
  if (!dirs_.Find(handle)) return EBADF;
  // The engine syncs its log as a whole, so the directory does not matter:
  // the same sync as a file's fsync (FileOps::Fsync), without a flush.
  return ErrnoFromStatus(tree_->engine->Sync());
}

void DirectoryOps::ReleaseDir(uint64_t handle) { (void)dirs_.Remove(handle); }

}  // namespace cellfs::fs
