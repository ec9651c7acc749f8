// Node resolution: inode -> node, and (directory, name) -> child node,
// without reading data (fs/tree/tree_context.h).
#include <cassert>

#include "fs/formats/element_suffix.h"
#include "fs/formats/key_name.h"
#include "fs/formats/write_suffixes.h"
#include "fs/tree/query_path.h"
#include "fs/tree/slice_path.h"
#include "fs/tree/tree_context.h"
#include "fs/tree/virtual_name.h"

namespace cellfs::fs {
namespace {

std::vector<const CqlType*> KeyTypes(const TableSchema& table, ColumnKind kind) {
  std::vector<const CqlType*> types;
  for (const ColumnDef& column : table.def.columns) {
    if (column.kind == kind) types.push_back(column.type.get());
  }
  return types;
}

TreeLevel LevelOf(const Node& node) {
  switch (node.id.kind) {
    case NodeKind::kRoot:
      return TreeLevel::kMountRoot;
    case NodeKind::kKeyspace:
      return TreeLevel::kKeyspace;
    case NodeKind::kTable:
      return TreeLevel::kTable;
    case NodeKind::kSlice:
      return TreeLevel::kSlice;
    case NodeKind::kRow:
      return TreeLevel::kRow;
    case NodeKind::kQuery:
      return TreeLevel::kQuery;
    default:
      // A partition of a table without clustering columns is also its row;
      // it offers what a partition offers (@json, @csv).
      return TreeLevel::kPartition;
  }
}

// The write attributes of a child reached by a name with suffixes `own`
// under `parent`: what is beneath a directory reached as `X@timestamp=T`
// (`rm -r ROW@timestamp=T`) is written and deleted at T too, and the
// child's own suffixes win per attribute.
WriteAttributes Inherited(const Node& parent, const WriteAttributes& own) {
  WriteAttributes write = parent.id.write;
  if (own.timestamp) write.timestamp = own.timestamp;
  if (own.ttl) write.ttl = own.ttl;
  return write;
}

bool IsSliceKind(VirtualName::Kind kind) {
  return kind == VirtualName::Kind::kSliceBound || kind == VirtualName::Kind::kLimit ||
         kind == VirtualName::Kind::kReverse;
}

// Whether `kind` may follow the query segments of `parent`: an @where
// takes only its term; below a projection only @json and @csv; a row
// reached through a query offers its @json alone.
bool QueryAllows(const Node& parent, VirtualName::Kind kind) {
  using Kind = VirtualName::Kind;
  if (parent.id.query.empty()) {
    // A table without clustering columns: its partition is a row, not filtered.
    return kind != Kind::kWhere || parent.id.kind != NodeKind::kPartition || parent.clustered();
  }
  if (parent.id.kind != NodeKind::kQuery) return kind == Kind::kJson;
  // @by/<column>/@ge=V/...: a slice of the index's values.
  if (kind == Kind::kSliceBound) return EndsInIndexColumnOrBound(parent.id.query);
  if (AwaitsFilterTerm(parent.id.query)) return false;
  if (HasProjection(parent.id.query)) return kind == Kind::kJson || kind == Kind::kCsv;
  return kind != Kind::kSliceBound && kind != Kind::kReverse;
}

// Whether `kind` under `parent` is a query directory: @where, @columns=,
// @limit=N of a table or of a query (a partition's is a slice), and a
// slice bound of an @by lookup.
bool StartsQuery(const Node& parent, VirtualName::Kind kind) {
  using Kind = VirtualName::Kind;
  if (kind == Kind::kWhere || kind == Kind::kColumns || kind == Kind::kBy) return true;
  if (kind == Kind::kSliceBound) return parent.id.kind == NodeKind::kQuery;  // an @by slice
  return kind == Kind::kLimit &&
         (parent.id.kind == NodeKind::kTable || parent.id.kind == NodeKind::kQuery);
}

// A query directory: `segment` appended to the parent's query, checked.
Status QueryChild(const Node& parent, std::string_view segment, Node* child) {
  child->id = parent.id;
  child->table = parent.table;
  child->partition = parent.partition;
  child->id.kind = NodeKind::kQuery;
  child->id.write = {};
  if (parent.id.kind == NodeKind::kTable) child->id.table_query = true;
  child->id.query.emplace_back(segment);
  RowQuery query;  // a term that does not parse fails its lookup
  return BuildQuery(*child->table, child->id.query, &query);
}

// A row listed by a table-wide query, named by its full primary key: the
// partition key's values then the clustering key's, comma-joined. In a
// table without clustering columns the row is its partition.
Status FullKeyChild(const Node& parent, std::string_view name, Node* child) {
  std::vector<const CqlType*> types = parent.PartitionTypes();
  const auto partition_count = static_cast<std::ptrdiff_t>(types.size());
  for (const CqlType* type : parent.ClusteringTypes()) types.push_back(type);
  std::vector<std::string> values;
  if (Status s = ParseKeyName(types, name, &values); !s.ok()) return s;
  child->id = parent.id;
  child->table = parent.table;
  child->partition = nullptr;
  child->id.kind = parent.clustered() ? NodeKind::kRow : NodeKind::kPartition;
  child->id.partition_key.assign(std::make_move_iterator(values.begin()),
                                 std::make_move_iterator(values.begin() + partition_count));
  child->id.clustering.assign(std::make_move_iterator(values.begin() + partition_count),
                              std::make_move_iterator(values.end()));
  return Status::Ok();
}

Status VirtualChild(const Node& parent, std::string_view name, Node* child) {
  VirtualName parsed;
  WriteAttributes own;
  // `@lt=X@timestamp=T`, `@reverse@timestamp=T`: the slice, removed at T.
  // A bound whose key text holds such a segment spells its '@' escaped, as
  // key names do.
  std::string_view base = name;
  VirtualName sliced;
  if (SplitWriteSuffixes(name, &base, &own).ok() && !own.empty() &&
      ParseVirtualName(base, &sliced).ok() && IsSliceKind(sliced.kind)) {
    name = base;
    parsed = sliced;
  } else {
    own = {};
    if (Status s = ParseVirtualName(name, &parsed); !s.ok()) return s;
  }
  if (!IsAllowedIn(parsed.kind, LevelOf(parent)) || !QueryAllows(parent, parsed.kind)) {
    return Status::NotFound(std::string(name) + " does not exist here");
  }
  if (StartsQuery(parent, parsed.kind)) {
    if (!own.empty()) return Status::InvalidArgument("a query directory is read-only");
    return QueryChild(parent, name, child);
  }
  const bool slice_kind = IsSliceKind(parsed.kind);
  child->id = parent.id;
  child->table = parent.table;
  child->partition = parent.partition;
  if (slice_kind) {
    if (!parent.clustered())
      return Status::NotFound("a table without clustering columns has no slices");
    child->id.kind = NodeKind::kSlice;
    child->id.write = Inherited(parent, own);
    child->id.slice.emplace_back(name);
    SliceSpec slice;  // a bound that does not parse fails its lookup, not a later listing
    return BuildSlice(*child->table, child->id.slice, &slice);
  }
  child->id.kind = NodeKind::kVirtualFile;
  child->id.file = parsed.kind;
  child->id.directory = parent.id.kind;
  child->id.write = parsed.write;  // @insert@ttl=N
  return Status::Ok();
}

// A column file under a row, or under a partition (static columns; every
// column when the table has no clustering columns).
Status ColumnChild(const Node& parent, std::string_view name, bool split_suffixes, Node* child) {
  std::string_view base = name;
  WriteAttributes write;
  if (split_suffixes) {
    if (Status s = SplitWriteSuffixes(name, &base, &write); !s.ok()) return s;
  }
  const ColumnDef* column = parent.table->def.FindColumn(std::string(base));
  std::string_view element;  // `m@key=k`: an element of column m
  std::string_view column_name;
  if (column == nullptr && split_suffixes && SplitElementSuffix(base, &column_name, &element)) {
    column = parent.table->def.FindColumn(std::string(column_name));
    if (column != nullptr && !column->is_primary_key()) {
      ElementEdit edit;
      if (Status s = ParseElementEdit(*column->type, element, &edit); !s.ok()) return s;
    }
  }
  if (column == nullptr || column->is_primary_key()) {
    return Status::NotFound("no column " + std::string(base));
  }
  bool in_row = parent.id.kind == NodeKind::kRow;
  bool wanted = in_row ? column->kind == ColumnKind::kRegular
                       : (column->kind == ColumnKind::kStatic || !parent.clustered());
  if (!wanted) return Status::NotFound(std::string(base) + " does not live at this level");
  size_t index = static_cast<size_t>(column - parent.table->def.columns.data());
  child->id = parent.id;
  child->table = parent.table;
  child->partition = parent.partition;
  child->id.kind = NodeKind::kCell;
  child->id.slice.clear();
  child->id.column_id = parent.table->column_ids[index];
  child->id.element = std::string(element);
  child->id.write = Inherited(parent, write);
  return Status::Ok();
}

Status KeyChild(const Node& parent, std::string_view name, bool split_suffixes, bool partition,
                Node* child) {
  std::string_view base = name;
  WriteAttributes write;
  if (split_suffixes) {
    if (Status s = SplitWriteSuffixes(name, &base, &write); !s.ok()) return s;
  }
  std::vector<const CqlType*> types =
      partition ? parent.PartitionTypes() : parent.ClusteringTypes();
  std::vector<std::string> values;
  if (Status s = ParseKeyName(types, base, &values); !s.ok()) return s;
  child->id = parent.id;
  child->table = parent.table;
  child->partition = parent.partition;
  // A row reached through a slice directory keeps the slice in its
  // identity: removing it (or a cell of it) is the slice's range deletion
  // (docs/FILESYSTEM.md, "Deleting"). One reached through a query keeps
  // the query (and the slice under it): a read-only view of the row.
  if (parent.id.kind != NodeKind::kSlice && parent.id.kind != NodeKind::kQuery) {
    child->id.slice.clear();
  }
  child->id.write = Inherited(parent, write);
  if (partition) {
    child->id.kind = NodeKind::kPartition;
    child->id.partition_key = std::move(values);
    child->partition = nullptr;  // prepared on first read (Node::Partition)
  } else {
    child->id.kind = NodeKind::kRow;
    child->id.clustering = std::move(values);
  }
  return Status::Ok();
}

}  // namespace

std::vector<const CqlType*> Node::PartitionTypes() const {
  return KeyTypes(*table, ColumnKind::kPartitionKey);
}

std::vector<const CqlType*> Node::ClusteringTypes() const {
  return KeyTypes(*table, ColumnKind::kClustering);
}

std::optional<size_t> Node::column() const {
  if (!table || id.kind != NodeKind::kCell) return std::nullopt;
  return table->ColumnIndexById(id.column_id);
}

Result<TableHandle> TreeContext::TableOf(const NodeId& id) const {
  Result<TableHandle> table = engine->FindTable(id.keyspace, id.table);
  if (!table.ok()) return table.status();
  if (table.value()->id != id.table_id) {
    return Status::NotFound("table " + id.keyspace + "." + id.table + " was dropped");
  }
  return table;
}

Result<std::shared_ptr<const PartitionRef>> Node::Partition() const {
  if (partition) return partition;
  Result<PartitionRef> made = PartitionRef::Make(*table, id.partition_key);
  if (!made.ok()) return made.status();
  return std::make_shared<const PartitionRef>(std::move(made).value());
}

Result<Node> TreeContext::NodeOf(uint64_t inode) const {
  Node node;
  std::shared_ptr<const NodeMemo> memo = inodes->Memo(inode);
  if (memo) {
    node.id = memo->id;
    node.partition = memo->partition;
  } else {
    std::optional<std::string> identity = inodes->Identity(inode);
    if (!identity) return Status::NotFound("stale inode");
    if (Status s = DecodeNodeId(*identity, &node.id); !s.ok()) return s;
  }
  if (node.id.kind == NodeKind::kKeyspace ||
      (node.id.kind == NodeKind::kVirtualFile && node.id.directory == NodeKind::kKeyspace)) {
    if (engine->catalog()->FindKeyspace(node.id.keyspace) == nullptr) {
      return Status::NotFound("keyspace " + node.id.keyspace + " was dropped");
    }
  }
  if (!node.id.table.empty()) {
    Result<TableHandle> table = TableOf(node.id);
    if (!table.ok()) return table.status();
    node.table = std::move(table).value();
    if (node.id.kind == NodeKind::kCell && !node.column()) {
      return Status::NotFound("column was dropped");
    }
  }
  if (!memo) {
    // Kept for the inode's next requests (the identity cannot change; a
    // dropped table fails above before the memo is used).
    auto made = std::make_shared<NodeMemo>();
    made->id = node.id;
    if (node.table && !node.id.partition_key.empty()) {
      Result<PartitionRef> partition = PartitionRef::Make(*node.table, node.id.partition_key);
      if (partition.ok()) {
        node.partition = std::make_shared<const PartitionRef>(std::move(partition).value());
      }
      made->partition = node.partition;
    }
    inodes->Memoize(inode, std::move(made));
  }
  return node;
}

Status TreeContext::ChildOf(const Node& parent, std::string_view name, bool split_suffixes,
                            Node* child) const {
  if (name.empty() || name == "." || name == "..") return Status::InvalidArgument("bad name");
  child->partition.reset();
  if (IsVirtualName(name)) return VirtualChild(parent, name, child);
  switch (parent.id.kind) {
    case NodeKind::kRoot: {
      if (engine->catalog()->FindKeyspace(std::string(name)) == nullptr && !split_suffixes) {
        return Status::NotFound("no keyspace " + std::string(name));
      }
      child->id = NodeId{};
      child->id.kind = NodeKind::kKeyspace;
      child->id.keyspace = std::string(name);
      return Status::Ok();
    }
    case NodeKind::kKeyspace: {
      Result<TableHandle> table = engine->FindTable(parent.id.keyspace, std::string(name));
      if (!table.ok()) return table.status();
      child->id = parent.id;
      child->id.kind = NodeKind::kTable;
      child->id.table = std::string(name);
      child->id.table_id = table.value()->id;
      child->table = std::move(table).value();
      return Status::Ok();
    }
    case NodeKind::kTable:
      return KeyChild(parent, name, split_suffixes, /*partition=*/true, child);
    case NodeKind::kPartition: {
      if (!parent.clustered()) return ColumnChild(parent, name, split_suffixes, child);
      // A clustered partition holds its static cells and its rows: a static
      // column's name is the cell (a row key spelled the same is listed
      // with its first byte escaped); every other name is a row key, even
      // one that matches a regular or key column.
      std::string_view base = name;
      WriteAttributes write;
      if (split_suffixes && !SplitWriteSuffixes(name, &base, &write).ok()) base = name;
      const ColumnDef* column = parent.table->def.FindColumn(std::string(base));
      std::string_view element_column;
      std::string_view element;
      if (column == nullptr && split_suffixes &&
          SplitElementSuffix(base, &element_column, &element)) {
        column = parent.table->def.FindColumn(std::string(element_column));  // `s@key=k`
      }
      if (column != nullptr && column->kind == ColumnKind::kStatic) {
        return ColumnChild(parent, name, split_suffixes, child);
      }
      return KeyChild(parent, name, split_suffixes, /*partition=*/false, child);
    }
    case NodeKind::kSlice:
      return KeyChild(parent, name, split_suffixes, /*partition=*/false, child);
    case NodeKind::kQuery:
      if (AwaitsFilterTerm(parent.id.query)) return QueryChild(parent, name, child);
      if (HasProjection(parent.id.query)) return Status::NotFound("a projection lists no rows");
      if (parent.id.table_query) return FullKeyChild(parent, name, child);
      return KeyChild(parent, name, /*split_suffixes=*/false, /*partition=*/false, child);
    case NodeKind::kRow:
      return ColumnChild(parent, name, split_suffixes, child);
    case NodeKind::kCell:
    case NodeKind::kVirtualFile:
    case NodeKind::kScratch:
      return Status::NotFound("not a directory");
  }
  return Status::NotFound("no such node");
}

bool TreeContext::HoldsCells(const Node& dir) const {
  if (!dir.id.slice.empty() || !dir.id.query.empty() || !dir.table || dir.table->view) return false;
  return dir.id.kind == NodeKind::kRow || (dir.id.kind == NodeKind::kPartition && !dir.clustered());
}

std::string TreeContext::ScratchDirectory(const Node& dir) const {
  NodeId id = dir.id;
  id.write = {};
  return EncodeNodeId(id);
}

Node TreeContext::ScratchChild(const Node& dir, std::string_view name) const {
  Node child = dir;
  child.id.kind = NodeKind::kScratch;
  child.id.write = {};
  child.id.scratch.assign(name);
  return child;
}

}  // namespace cellfs::fs
