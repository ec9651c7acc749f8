// NodePath (fs/tree/node_path.h).
#include "fs/tree/node_path.h"

#include "fs/formats/key_name.h"

namespace cellfs::fs {
namespace {

void Append(std::string_view component, std::string* path) {
  if (!path->empty()) path->push_back('/');
  path->append(component);
}

void AppendKey(const std::vector<const CqlType*>& types, const std::vector<std::string>& values,
               std::string* path) {
  if (types.empty() || types.size() != values.size()) {
    Append("?", path);
    return;
  }
  Result<std::string> name = FormatKeyName(types, values);
  Append(name.ok() ? name.value() : std::string("?"), path);
}

// Whether `id` lies at or below `level` (its own kind, or its directory's
// for a virtual file).
bool Reaches(const NodeId& id, NodeKind level) {
  const NodeKind kind = id.kind == NodeKind::kVirtualFile ? id.directory : id.kind;
  if (level == NodeKind::kRow) return kind == NodeKind::kRow || !id.clustering.empty();
  return static_cast<int>(kind) >= static_cast<int>(level);
}

}  // namespace

std::string NodePath(const Node& node) {
  const NodeId& id = node.id;
  std::string path;
  if (Reaches(id, NodeKind::kKeyspace)) Append(id.keyspace, &path);
  if (Reaches(id, NodeKind::kTable)) Append(id.table, &path);
  if (id.table_query) {
    // TABLE/@where/col=value/PK,CK: the query first, then the full key.
    for (const std::string& segment : id.query) Append(segment, &path);
    if (!id.partition_key.empty() && node.table) {
      std::vector<const CqlType*> types = node.PartitionTypes();
      std::vector<std::string> values = id.partition_key;
      for (const CqlType* type : node.ClusteringTypes()) types.push_back(type);
      values.insert(values.end(), id.clustering.begin(), id.clustering.end());
      AppendKey(types, values, &path);
    }
  } else {
    if (Reaches(id, NodeKind::kPartition) && node.table && !id.partition_key.empty()) {
      AppendKey(node.PartitionTypes(), id.partition_key, &path);
    }
    for (const std::string& slice : id.slice) Append(slice, &path);
    for (const std::string& segment : id.query) Append(segment, &path);
    if (!id.clustering.empty() && node.table) {
      AppendKey(node.ClusteringTypes(), id.clustering, &path);
    }
  }
  if (id.kind == NodeKind::kCell && node.table) {
    std::optional<size_t> column = node.column();
    Append(column ? node.table->def.columns[*column].name : std::string("?"), &path);
    path += id.element;
  }
  if (id.kind == NodeKind::kScratch) Append(id.scratch, &path);
  if (id.kind == NodeKind::kVirtualFile) {
    std::string_view name = FixedVirtualName(id.file);
    Append(name.empty() ? std::string_view("@?") : name, &path);
  }
  return path.empty() ? "." : path;
}

}  // namespace cellfs::fs
