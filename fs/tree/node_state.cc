// Whether a node is live at a read view, and what stat shows for it
// (fs/tree/tree_context.h): exact sizes, write times as mtime, TTL-bounded
// cache timeouts.
#include <sys/stat.h>

#include <algorithm>
#include <climits>

#include "engine/cql/describe.h"
#include "engine/store/cell.h"
#include "fs/formats/cell_text.h"
#include "fs/tree/export_text.h"
#include "fs/tree/mount_status.h"
#include "fs/tree/query_path.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// How long the kernel may trust that a clustered partition (or a slice of
// it) exists: expiry of its last row is not worth computing per lookup.
constexpr int64_t kShortLivedMicros = kMicrosPerSecond;

NodeState DirectoryStateImpl(int64_t mtime, nlink_t nlink) {
  NodeState state;
  state.attr.mode = S_IFDIR | 0755;
  state.attr.nlink = nlink;
  state.attr.mtime_micros = mtime;
  return state;
}

// The newest write and the end of life of a row's live content.
NodeState RowStateImpl(const RowFragment& row) {
  NodeState state = DirectoryStateImpl(0, 2);
  bool forever = false;
  int64_t last_expiry = 0;
  auto account = [&](int64_t write_time, uint32_t ttl, int64_t expiry) {
    state.attr.mtime_micros = std::max(state.attr.mtime_micros, write_time);
    if (ttl == 0) {
      forever = true;
    } else {
      last_expiry = std::max(last_expiry, expiry);
    }
  };
  if (row.marker) account(row.marker->write_time, row.marker->ttl, row.marker->expiry);
  for (const RowCell& cell : row.cells) {
    account(cell.cell.write_time, cell.cell.ttl, cell.cell.local_deletion_time);
  }
  if (!forever) state.valid_until_micros = last_expiry * kMicrosPerSecond;
  return state;
}

NodeState CellStateImpl(const CqlType& type, const RowCell& cell) {
  NodeState state;
  state.attr.mode = S_IFREG | 0644;
  state.attr.nlink = 1;
  state.attr.size = FormatCellContent(type, cell.cell.value).size();
  state.attr.mtime_micros = cell.cell.write_time;
  if (cell.cell.ttl != 0)
    state.valid_until_micros = cell.cell.local_deletion_time * kMicrosPerSecond;
  return state;
}

mode_t VirtualFileMode(const Node& node) {
  if (WritabilityOf(node) != Writability::kWritable) return S_IFREG | 0444;
  // @insert is written, then read back for its report: its owner's alone.
  return node.id.file == VirtualName::Kind::kInsert ? S_IFREG | 0600 : S_IFREG | 0644;
}

// The exact size of a generated @json, @csv or @count, and for the first
// two their newest write as mtime
// (kept when it holds no row): a row's @json reads the row; an export
// streams its rows once, the cost of reading it (docs/FILESYSTEM.md
// "Virtual files"), so copies by size (tar, rsync, shutil) copy every byte.
Status ExportState(const Node& node, const ReadView& view, NodeState* state) {
  Node directory = node;
  directory.id.kind = node.id.directory;
  uint64_t size = 0;
  int64_t newest = 0;
  if (node.id.file == VirtualName::Kind::kCount) {
    uint64_t rows = 0;
    CELLFS_RETURN_IF_ERROR(CountRows(directory, view, &rows));
    size = std::to_string(rows).size() + 1;
  } else if (node.IsRowJson()) {
    std::string text;
    CELLFS_RETURN_IF_ERROR(RowJsonText(directory, view, &text, &newest));
    size = text.size();
  } else {
    ExportMeasure measure;
    CELLFS_RETURN_IF_ERROR(
        MeasureExport(directory, node.id.file == VirtualName::Kind::kCsv, view, &measure));
    size = measure.size;
    newest = measure.newest_write_micros;
  }
  state->attr.size = size;
  if (newest > 0) state->attr.mtime_micros = newest;
  return Status::Ok();
}

// Whether a row reached through a query passes its filters (a lookup by
// name of a row the listing would not show is ENOENT). One more read, of
// the static row, when there are filters.
Result<bool> PassesQuery(const Node& node, const ReadView& view, const RowFragment& row) {
  RowQuery query;
  if (Status s = BuildQuery(*node.table, node.id.query, &query); !s.ok()) return s;
  if (query.filters.empty() && query.bounds.empty()) return true;
  auto statics = view.GetStaticRow(node.table, node.id.partition_key);
  if (!statics.ok()) return statics.status();
  const RowFragment* static_row = statics.value() ? &*statics.value() : nullptr;
  return RowMatches(*node.table, query, node.id.partition_key, node.id.clustering, static_row, row);
}

}  // namespace

Writability WritabilityOf(const Node& node) {
  // Everything beneath a query directory, and all of a materialized view,
  // is read-only.
  if (!node.id.query.empty() || (node.table != nullptr && node.table->view)) {
    return node.id.kind == NodeKind::kCell || node.id.kind == NodeKind::kVirtualFile
               ? Writability::kReadOnlyFile
               : Writability::kDirectory;
  }
  switch (node.id.kind) {
    case NodeKind::kCell:
    case NodeKind::kScratch:
      return Writability::kWritable;
    case NodeKind::kVirtualFile:
      switch (node.id.file) {
        case VirtualName::Kind::kCql:
        case VirtualName::Kind::kInsert:
          return Writability::kWritable;
        case VirtualName::Kind::kJson:
          return node.IsRowJson() || node.IsStaticJson() ? Writability::kWritable
                                                         : Writability::kReadOnlyFile;
        default:  // @schema, @csv, @stats, @stats.json, @errors, @status
          return Writability::kReadOnlyFile;
      }
    default:
      return Writability::kDirectory;
  }
}

NodeState DirectoryState(int64_t mtime, nlink_t nlink) { return DirectoryStateImpl(mtime, nlink); }
NodeState RowState(const RowFragment& row) { return RowStateImpl(row); }
NodeState CellState(const CqlType& type, const RowCell& cell) { return CellStateImpl(type, cell); }

Result<std::string> SchemaText(const Engine& engine, const Node& node) {
  std::shared_ptr<const Catalog> catalog = engine.catalog();  // outlives `keyspace`
  const KeyspaceDef* keyspace = catalog->FindKeyspace(node.id.keyspace);
  // A table's text ends with its views, as Cassandra's DESCRIBE TABLE.
  if (node.table) {
    if (node.table->def.view || keyspace == nullptr) return DescribeTable(node.table->def);
    return DescribeTableAndViews(*keyspace, node.table->def);
  }
  if (keyspace == nullptr) return Status::NotFound("no keyspace " + node.id.keyspace);
  return DescribeKeyspace(*keyspace);
}

const std::string& ColumnName(const TableSchema& table, size_t column) {
  return table.def.columns[column].name;
}

Status TreeContext::StateOf(const Node& node, const ReadView& view, NodeState* state,
                            bool held) const {
  const NodeId& id = node.id;
  switch (id.kind) {
    case NodeKind::kRoot:
      *state = DirectoryState(mount_micros,
                              static_cast<nlink_t>(2 + engine->catalog()->keyspaces().size()));
      return Status::Ok();
    case NodeKind::kKeyspace: {
      // Holds the catalog while its KeyspaceDef is read: a DDL may replace it.
      std::shared_ptr<const Catalog> catalog = engine->catalog();
      const KeyspaceDef* keyspace = catalog->FindKeyspace(id.keyspace);
      if (keyspace == nullptr) return Status::NotFound("no keyspace " + id.keyspace);
      *state = DirectoryState(mount_micros, static_cast<nlink_t>(2 + keyspace->tables.size()));
      return Status::Ok();
    }
    case NodeKind::kTable:
    case NodeKind::kQuery:  // checked when resolved; what it holds is read when listed
      *state = DirectoryState(mount_micros, 1);
      return Status::Ok();
    case NodeKind::kPartition:
    case NodeKind::kSlice: {
      bool live = false;
      auto prepared = node.Partition();
      if (!prepared.ok()) return prepared.status();
      if (!node.clustered() && id.kind == NodeKind::kPartition) {
        auto row = view.GetRow(node.table, *prepared.value(), {});
        if (!row.ok()) return row.status();
        if (row.value() && !id.query.empty()) {
          Result<bool> passes = PassesQuery(node, view, *row.value());
          if (!passes.ok()) return passes.status();
          if (!passes.value()) return Status::NotFound("the row does not match the query");
        }
        if (row.value()) {
          *state = RowState(*row.value());
          return Status::Ok();
        }
        if (!id.query.empty()) return Status::NotFound("no such row");
      } else if (held) {
        live = true;  // getattr of a partition the kernel holds: see StateOf
      } else {
        auto found = view.IsPartitionLive(node.table, *prepared.value());
        if (!found.ok()) return found.status();
        live = found.value();
      }
      if (live) {
        // Whether a clustered partition lives depends on all its rows, which
        // may expire at any time; rather than read them all, the kernel is
        // told to ask again within kShortLivedMicros.
        *state = DirectoryState(mount_micros, 1);
        state->valid_until_micros = view.now() + kShortLivedMicros;
        return Status::Ok();
      }
      NodeId partition = id;
      partition.kind = NodeKind::kPartition;
      partition.slice.clear();
      partition.write = {};
      if (!IsKept(partition)) return Status::NotFound("no such partition");
      *state = DirectoryState(mount_micros, node.clustered() ? 1 : 2);
      return Status::Ok();
    }
    case NodeKind::kRow: {
      auto partition = node.Partition();
      if (!partition.ok()) return partition.status();
      auto row = view.GetRow(node.table, *partition.value(), id.clustering);
      if (!row.ok()) return row.status();
      if (row.value() && !id.query.empty()) {
        Result<bool> passes = PassesQuery(node, view, *row.value());
        if (!passes.ok()) return passes.status();
        if (!passes.value()) return Status::NotFound("the row does not match the query");
      }
      if (row.value()) {
        *state = RowState(*row.value());
        return Status::Ok();
      }
      if (!id.query.empty()) return Status::NotFound("no such row");
      // Emptied through its plain name or a suffixed one (`rm -r ROW@timestamp=T`).
      NodeId kept = id;
      kept.slice.clear();
      NodeId plain = kept;
      plain.write = {};
      // A row beneath a slice whose range a removal deleted stays, empty,
      // for the rest of `rm -r SLICE` (fs/ops/removal.h).
      NodeId slice = id;
      slice.kind = NodeKind::kSlice;
      slice.clustering.clear();
      if (!IsKept(plain) && !IsKept(kept) && (id.slice.empty() || !IsKept(slice))) {
        return Status::NotFound("no such row");
      }
      *state = DirectoryState(mount_micros, 2);
      return Status::Ok();
    }
    case NodeKind::kCell: {
      size_t column = *node.column();
      auto partition = node.Partition();
      if (!partition.ok()) return partition.status();
      auto cell = view.GetCell(node.table, *partition.value(), id.clustering,
                               node.table->column_ids[column]);
      if (!cell.ok()) return cell.status();
      if (!cell.value()) {
        // Created and still open, nothing stored yet: an empty file.
        if (!IsKept(id)) return Status::NotFound("no such cell");
        *state = NodeState{};
        state->attr.mode = S_IFREG | 0644;
        state->attr.mtime_micros = mount_micros;
        return Status::Ok();
      }
      *state = CellState(*node.table->column(column).type, *cell.value());
      return Status::Ok();
    }
    case NodeKind::kScratch: {
      const std::string identity = EncodeNodeId(id);
      std::shared_ptr<ScratchFiles::File> file = scratch.Find(identity);
      // Its name gone (renamed, removed), an open file still holds it:
      // fstat of that descriptor shows it with no link, as Unix does.
      if (!file) file = scratch.FindGone(identity);
      if (!file) return Status::NotFound("no such scratch file");
      std::lock_guard lock(file->mutex);
      *state = NodeState{};
      state->attr.mode = S_IFREG | file->mode;
      state->attr.nlink = file->fate == ScratchFiles::Fate::kNamed ? 1 : 0;
      state->attr.size = file->content().size();
      state->attr.mtime_micros = file->mtime_micros;
      return Status::Ok();
    }
    case NodeKind::kVirtualFile: {
      Node directory = node;
      directory.id.kind = id.directory;
      directory.id.file = VirtualName::Kind::kCql;
      directory.id.directory = NodeKind::kRoot;
      if (Status s = StateOf(directory, view, state); !s.ok()) return s;
      *state = NodeState{};
      state->attr.mode = VirtualFileMode(node);
      state->attr.nlink = 1;
      state->attr.mtime_micros = mount_micros;
      if (id.file == VirtualName::Kind::kSchema) {
        Result<std::string> text = SchemaText(*engine, node);
        if (!text.ok()) return text.status();
        state->attr.size = text.value().size();
      }
      if (id.file == VirtualName::Kind::kErrors) state->attr.size = refusals.Render().size();
      if (id.file == VirtualName::Kind::kStatus) state->attr.size = MountStatusText(*this).size();
      // A generated file's attributes time out at once (TimeoutFor), so the
      // kernel asks getattr for every stat and never uses what a lookup
      // answered: only a getattr streams an export to size it.
      if (held && (id.file == VirtualName::Kind::kJson || id.file == VirtualName::Kind::kCsv ||
                   id.file == VirtualName::Kind::kCount)) {
        return ExportState(node, view, state);
      }
      return Status::Ok();
    }
  }
  return Status::NotFound("no such node");
}

void TreeContext::FinishAttr(uint64_t inode, NodeAttr* attr) const {
  attr->inode = inode;
  attr->uid = options->uid;
  attr->gid = options->gid;
  if (options->read_only) attr->mode &= static_cast<mode_t>(~0222);
}

double TreeContext::TimeoutFor(const Node& node, const NodeState& state, int64_t now_micros,
                               double bound) const {
  if (!node.id.write.empty()) return 0;  // a suffixed name is a one-off spelling
  // A scratch file is renamed away: the kernel must look its name up again
  // (and, after the rename, find the cell's own inode under it).
  if (node.id.kind == NodeKind::kScratch) return 0;
  // A row beneath a query may stop matching it when any of its cells
  // changes, which no invalidation follows: asked again on every use.
  if (!node.id.query.empty() && node.id.kind != NodeKind::kQuery) return 0;
  // A materialized view changes with every write to its base table, which
  // invalidates only the base's entries: asked again on every use.
  if (node.table != nullptr && node.table->view && node.id.kind != NodeKind::kTable) return 0;
  if (node.id.kind == NodeKind::kVirtualFile && node.id.file != VirtualName::Kind::kCql) {
    return 0;  // generated: describe the current data on every stat
  }
  if (state.valid_until_micros == INT64_MAX) return bound;
  double remaining = static_cast<double>(state.valid_until_micros - now_micros) / 1e6;
  return std::clamp(remaining, 0.0, bound);
}

void TreeContext::MakeEntry(const Node& node, const NodeState& state, int64_t now_micros,
                            Entry* out) {
  out->attr = state.attr;
  FinishAttr(inodes->Acquire(EncodeNodeId(node.id)), &out->attr);
  out->entry_timeout = TimeoutFor(node, state, now_micros, options->entry_timeout);
  out->attr_timeout = TimeoutFor(node, state, now_micros, options->attr_timeout);
}

}  // namespace cellfs::fs
