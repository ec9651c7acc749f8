// Schema invalidation: what the kernel may have cached of keyspaces and
// tables that a schema change removed, made again or reshaped, dropped
// after the change (a DDL write to @cql here, or another mount's change of
// a shared store, Engine::SetSchemaListener).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "engine/cql/catalog.h"
#include "engine/engine.h"
#include "fs/files/file_context.h"

namespace cellfs::fs {

// Each table's id by (keyspace, table): a table dropped and made again may
// look the same as before, but its id is new, and the kernel's entry still
// leads to the old one (whose id never resolves).
using TableIdsByName = std::map<std::pair<std::string, std::string>, uint32_t>;

// The ids of `catalog`'s tables as `engine` resolves them now.
TableIdsByName TableIdsOf(const Engine& engine, const Catalog& catalog);

// Invalidates the entries of keyspaces dropped and of tables dropped,
// remade or altered between `before` (with `ids_before`) and `after` (the
// engine's current schema); a table's entry invalidation drops the
// kernel's dentries below it too, and its @schema (whose size the kernel
// may hold) is invalidated itself. The listings of the root and of every
// keyspace (cached across opens) always.
void InvalidateSchemaChanges(FileContext* context, const Catalog& before,
                             const TableIdsByName& ids_before, const Catalog& after);

}  // namespace cellfs::fs
