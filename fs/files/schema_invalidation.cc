// InvalidateSchemaChanges and TableIdsOf (fs/files/schema_invalidation.h).
#include "fs/files/schema_invalidation.h"

#include "fs/tree/node_id.h"

namespace cellfs::fs {

TableIdsByName TableIdsOf(const Engine& engine, const Catalog& catalog) {
  TableIdsByName ids;
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    for (const auto& [table_name, table] : keyspace.tables) {
      Result<TableHandle> handle = engine.FindTable(name, table_name);
      if (handle.ok()) ids[{name, table_name}] = handle.value()->id;
    }
  }
  return ids;
}

namespace {

NodeId KeyspaceNode(const std::string& name) {
  NodeId id;
  id.kind = NodeKind::kKeyspace;
  id.keyspace = name;
  return id;
}

}  // namespace

// Entries of dropped keyspaces and of dropped, remade or altered tables; a
// table's entry invalidation drops the kernel's dentries below it too, and
// its @schema (whose size the kernel may hold) is invalidated itself.
// Listings of the root and of keyspaces (cached across opens) always.
void InvalidateSchemaChanges(FileContext* context, const Catalog& before,
                             const TableIdsByName& ids_before, const Catalog& after) {
  NodeId root;
  for (const auto& [name, keyspace] : before.keyspaces()) {
    const KeyspaceDef* now = after.FindKeyspace(name);
    if (now == nullptr) {
      context->InvalidateName(root, name);
      continue;
    }
    const NodeId keyspace_id = KeyspaceNode(name);
    for (const auto& [table_name, table] : keyspace.tables) {
      const TableDef* current = after.FindTable(name, table_name);
      Result<TableHandle> handle = context->engine->FindTable(name, table_name);
      auto old_id = ids_before.find({name, table_name});
      const bool remade =
          old_id != ids_before.end() && (!handle.ok() || handle.value()->id != old_id->second);
      if (current != nullptr && !remade && SameTable(*current, table)) continue;
      context->InvalidateName(keyspace_id, table_name);
      if (old_id == ids_before.end()) continue;
      NodeId schema = keyspace_id;
      schema.kind = NodeKind::kVirtualFile;
      schema.table = table_name;
      schema.table_id = old_id->second;
      schema.file = VirtualName::Kind::kSchema;
      schema.directory = NodeKind::kTable;
      context->InvalidateNode(schema);
    }
    context->InvalidateNode(keyspace_id);
  }
  // Names made since, which the kernel may hold as negative entries (a
  // lookup before another mount made them).
  for (const auto& [name, keyspace] : after.keyspaces()) {
    if (before.FindKeyspace(name) == nullptr) {
      context->InvalidateName(root, name);
      continue;
    }
    for (const auto& [table_name, table] : keyspace.tables) {
      if (before.FindTable(name, table_name) == nullptr) {
        context->InvalidateName(KeyspaceNode(name), table_name);
      }
    }
  }
  context->InvalidateNode(root);
}

}  // namespace cellfs::fs
