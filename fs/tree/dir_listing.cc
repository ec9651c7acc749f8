// The directory listings of fs/tree/dir_listing.h, one class per kind of
// directory.
#include "fs/tree/dir_listing.h"

#include "engine/cql/cql_statement.h"
#include "fs/formats/key_name.h"
#include "fs/tree/query_path.h"
#include "fs/tree/slice_path.h"

namespace cellfs::fs {
namespace {

// A listing small enough to take whole when the directory is opened: the
// keyspaces of the root, the tables of a keyspace, the cells of a row.
class FixedListing final : public DirListing {
 public:
  explicit FixedListing(std::vector<ListedEntry> entries) : entries_(std::move(entries)) {}
  bool Next(ListedEntry* out) override {
    if (next_ >= entries_.size()) return false;
    *out = std::move(entries_[next_++]);
    return true;
  }
  Status status() const override { return Status::Ok(); }

 private:
  std::vector<ListedEntry> entries_;
  size_t next_ = 0;
};

// Keyspaces of the root, tables of a keyspace, from one catalog snapshot.
std::vector<ListedEntry> CatalogEntries(const TreeContext& tree, const Node& dir, int64_t mtime) {
  std::vector<ListedEntry> entries;
  std::shared_ptr<const Catalog> catalog = tree.engine->catalog();
  if (dir.id.kind == NodeKind::kRoot) {
    for (const auto& [name, keyspace] : catalog->keyspaces()) {
      ListedEntry entry;
      entry.name = name;
      entry.node.id.kind = NodeKind::kKeyspace;
      entry.node.id.keyspace = name;
      entry.state = DirectoryState(mtime, static_cast<nlink_t>(2 + keyspace.tables.size()));
      entries.push_back(std::move(entry));
    }
    return entries;
  }
  const KeyspaceDef* keyspace = catalog->FindKeyspace(dir.id.keyspace);
  if (keyspace == nullptr) return entries;
  for (const auto& [name, table_def] : keyspace->tables) {
    Result<TableHandle> table = tree.engine->FindTable(dir.id.keyspace, name);
    if (!table.ok()) continue;  // dropped since the snapshot
    ListedEntry entry;
    entry.name = name;
    entry.node.id = dir.id;
    entry.node.id.kind = NodeKind::kTable;
    entry.node.id.table = name;
    entry.node.id.table_id = table.value()->id;
    entry.node.table = table.value();
    entry.state = DirectoryState(mtime, 1);
    entries.push_back(std::move(entry));
  }
  return entries;
}

// A row's cells (also a partition's cells when the table has no clustering
// columns, and a partition's static cells), in schema order.
void AppendCells(const Node& dir, const RowFragment& row, ColumnKind kind,
                 std::vector<ListedEntry>* out) {
  const TableSchema& table = *dir.table;
  for (size_t i = 0; i < table.def.columns.size(); ++i) {
    const ColumnDef& column = table.def.columns[i];
    if (column.kind != kind) continue;
    const RowCell* cell = row.FindCell(table.column_ids[i]);
    if (cell == nullptr) continue;
    ListedEntry entry;
    entry.name = column.name;
    entry.node = dir;
    entry.node.id.kind = NodeKind::kCell;
    // The directory's write suffixes pass to its cells, as lookups give them.
    entry.node.id.slice.clear();
    entry.node.id.column_id = table.column_ids[i];
    entry.state = CellState(*column.type, *cell);
    out->push_back(std::move(entry));
  }
}

// A table's partitions in token order. In a table without clustering
// columns each partition is its row, which the partition iterator read
// while deciding that the partition is live (first_row): its attributes
// come from there, with no second read.
class PartitionListing final : public DirListing {
 public:
  PartitionListing(const Node& dir, const ReadView& view, int64_t mtime)
      : dir_(dir),
        mtime_(mtime),
        types_(dir.PartitionTypes()),
        it_(view.NewPartitionIterator(dir.table)) {}
  bool Next(ListedEntry* out) override {
    for (; it_->Valid(); it_->Next()) {
      std::vector<std::string> key;
      if (status_ = it_->DecodePartitionKey(&key); !status_.ok()) return false;
      Result<std::string> name = FormatKeyName(types_, key);
      if (!name.ok()) continue;  // no write path stores such a key
      out->name = std::move(name).value();
      out->node = dir_;
      out->node.id.kind = NodeKind::kPartition;
      out->node.id.partition_key = std::move(key);
      out->state = DirectoryState(mtime_, 1);
      if (!dir_.clustered()) {
        const RowFragment* row = it_->first_row();
        if (row == nullptr) continue;  // only static content: not listed as a row
        out->state = RowState(*row);
      }
      it_->Next();
      return true;
    }
    if (status_.ok()) status_ = it_->status();
    return false;
  }
  Status status() const override { return status_; }

 private:
  Node dir_;
  int64_t mtime_;
  std::vector<const CqlType*> types_;
  std::unique_ptr<PartitionIterator> it_;
  Status status_;
};

// A partition's (or slice's) static cells first, then its rows in
// clustering order.
class RowListing final : public DirListing {
 public:
  RowListing(const Node& dir, std::vector<ListedEntry> statics, std::unique_ptr<RowIterator> it)
      : dir_(dir), statics_(std::move(statics)), types_(dir.ClusteringTypes()), it_(std::move(it)) {
    for (const ColumnDef& column : dir.table->def.columns) {
      has_statics_ = has_statics_ || column.kind == ColumnKind::kStatic;
    }
  }
  bool Next(ListedEntry* out) override {
    if (next_static_ < statics_.size()) {
      *out = std::move(statics_[next_static_++]);
      return true;
    }
    for (; it_->Valid(); it_->Next()) {
      // `out` is reused entry after entry: assigning into it keeps its
      // buffers, so a long listing does not allocate per row.
      if (out != prepared_ || out->node.id.kind != NodeKind::kRow) {
        out->node = dir_;
        out->node.id.kind = NodeKind::kRow;  // a slice's rows keep it (node_resolver.cc)
        prepared_ = out;
      }
      if (status_ = it_->DecodeClustering(&out->node.id.clustering); !status_.ok()) return false;
      Result<std::string> name = FormatKeyName(types_, out->node.id.clustering);
      if (!name.ok()) continue;  // no write path stores such a key
      out->name = std::move(name).value();
      EscapeStaticName(&out->name);
      out->state = RowState(it_->row());
      it_->Next();
      return true;
    }
    if (status_.ok()) status_ = it_->status();
    return false;
  }
  Status status() const override { return status_; }

 private:
  Node dir_;
  std::vector<ListedEntry> statics_;
  size_t next_static_ = 0;
  ListedEntry* prepared_ = nullptr;  // holds this partition's row node but the clustering
  bool has_statics_ = false;

  // A row key spelled like a static column would name the static cell;
  // its first byte is escaped instead ("s" -> "%73"), which key names
  // accept on lookup.
  void EscapeStaticName(std::string* name) const {
    if (!has_statics_) return;
    const ColumnDef* column = dir_.table->def.FindColumn(*name);
    if (column == nullptr || column->kind != ColumnKind::kStatic) return;
    static constexpr char kHex[] = "0123456789ABCDEF";
    auto first = static_cast<unsigned char>((*name)[0]);
    name->replace(0, 1, {'%', kHex[first >> 4], kHex[first & 0xf]});
  }
  std::vector<const CqlType*> types_;
  std::unique_ptr<RowIterator> it_;
  Status status_;
};

// A partition's (or slice's) listing: static cells and the row iterator
// from one read of the partition's head.
Result<std::unique_ptr<DirListing>> RowsOf(const Node& dir, const ReadView& view) {
  SliceSpec slice;
  if (Status s = BuildSlice(*dir.table, dir.id.slice, &slice); !s.ok()) return s;
  auto partition = dir.Partition();
  if (!partition.ok()) return partition.status();
  auto read = view.ReadPartition(dir.table, *partition.value(), slice);
  if (!read.ok()) return read.status();
  std::vector<ListedEntry> statics;
  if (dir.id.kind == NodeKind::kPartition && read.value().static_row) {
    AppendCells(dir, *read.value().static_row, ColumnKind::kStatic, &statics);
  }
  return std::unique_ptr<DirListing>(
      std::make_unique<RowListing>(dir, std::move(statics), std::move(read.value().rows)));
}

Result<std::unique_ptr<DirListing>> CellsOf(const Node& dir, const ReadView& view) {
  auto partition = dir.Partition();
  if (!partition.ok()) return partition.status();
  auto row = view.GetRow(dir.table, *partition.value(), dir.id.clustering);
  if (!row.ok()) return row.status();
  std::vector<ListedEntry> cells;
  if (row.value()) AppendCells(dir, *row.value(), ColumnKind::kRegular, &cells);
  return std::unique_ptr<DirListing>(std::make_unique<FixedListing>(std::move(cells)));
}

// The rows a query directory selects (fs/tree/query_path.h), streamed by a
// row cursor: named by their full primary key in a table-wide query, by
// their clustering key in a partition's or slice's. A partition holding
// only static cells has no row directory and is not listed.
class QueryListing final : public DirListing {
 public:
  QueryListing(const Node& dir, RowSource source, const ReadView& view)
      : dir_(dir), cursor_(std::move(source), view, /*rows_only=*/true) {
    table_wide_ = dir.id.table_query;
    if (table_wide_) types_ = dir.PartitionTypes();
    for (const CqlType* type : dir.ClusteringTypes()) types_.push_back(type);
  }
  bool Next(ListedEntry* out) override {
    while (cursor_.Next()) {
      out->node = dir_;
      out->node.id.kind = dir_.clustered() ? NodeKind::kRow : NodeKind::kPartition;
      out->node.id.clustering.assign(cursor_.clustering().begin(), cursor_.clustering().end());
      if (table_wide_) {
        out->node.id.partition_key.assign(cursor_.partition_key().begin(),
                                          cursor_.partition_key().end());
        out->node.partition = nullptr;
        key_ = out->node.id.partition_key;
        key_.insert(key_.end(), out->node.id.clustering.begin(), out->node.id.clustering.end());
      } else {
        key_ = out->node.id.clustering;
      }
      Result<std::string> name = FormatKeyName(types_, key_);
      if (!name.ok()) continue;  // no write path stores such a key
      out->name = std::move(name).value();
      out->state = RowState(cursor_.row());
      return true;
    }
    return false;
  }
  Status status() const override { return cursor_.status(); }

 private:
  Node dir_;
  RowCursor cursor_;
  bool table_wide_ = false;
  std::vector<const CqlType*> types_;
  std::vector<std::string> key_;
};

Result<std::unique_ptr<DirListing>> QueryRowsOf(const Node& dir, const ReadView& view) {
  if (AwaitsFilterTerm(dir.id.query) || HasProjection(dir.id.query)) {
    return std::unique_ptr<DirListing>(std::make_unique<FixedListing>(std::vector<ListedEntry>{}));
  }
  RowSource source;
  if (Status s = RowSourceOf(dir, &source); !s.ok()) return s;
  return std::unique_ptr<DirListing>(std::make_unique<QueryListing>(dir, std::move(source), view));
}

}  // namespace

Result<std::unique_ptr<DirListing>> NewDirListing(const TreeContext& tree, const Node& dir,
                                                  const ReadView& view) {
  switch (dir.id.kind) {
    case NodeKind::kRoot:
    case NodeKind::kKeyspace:
      return std::unique_ptr<DirListing>(
          std::make_unique<FixedListing>(CatalogEntries(tree, dir, tree.mount_micros)));
    case NodeKind::kTable:
      return std::unique_ptr<DirListing>(
          std::make_unique<PartitionListing>(dir, view, tree.mount_micros));
    case NodeKind::kPartition:
    case NodeKind::kSlice:
      if (!dir.clustered()) return CellsOf(dir, view);
      return RowsOf(dir, view);
    case NodeKind::kRow:
      return CellsOf(dir, view);
    case NodeKind::kQuery:
      return QueryRowsOf(dir, view);
    default:
      return Status::InvalidArgument("not a directory");
  }
}

bool HasLiveChild(const TreeContext& tree, const Node& dir) {
  ReadView view = tree.engine->NewReadView();
  auto listing = NewDirListing(tree, dir, view);
  if (!listing.ok()) return false;
  ListedEntry entry;
  return listing.value()->Next(&entry);
}

}  // namespace cellfs::fs
