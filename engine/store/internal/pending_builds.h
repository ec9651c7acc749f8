// Pending builds: the indexes and views of a schema whose entries for the
// rows written before them are not all in yet, each named by the ids that
// make it this build and no other (a TRUNCATE or a DROP and CREATE under
// the same name is another build), and the step that marks one done.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "engine/status.h"
#include "engine/store/build_progress.h"
#include "engine/store/internal/build_scan.h"
#include "engine/store/internal/catalog_store.h"

namespace cellfs {

struct EngineCore;

namespace storage {

// One index or view to build. A plain value type.
struct BuildTarget {
  BuildProgress::Kind kind = BuildProgress::Kind::kIndex;
  std::string keyspace;
  std::string table;      // the indexed table, or the view
  std::string name;       // the index's name, or the view's
  uint32_t table_id = 0;  // the indexed table's id, or the view's
  uint32_t other_id = 0;  // the index's id, or the view's base table id

  bool operator<(const BuildTarget& o) const {
    return std::tie(kind, table_id, other_id) < std::tie(o.kind, o.table_id, o.other_id);
  }
  bool operator==(const BuildTarget& o) const {
    return kind == o.kind && table_id == o.table_id && other_id == o.other_id;
  }
};

// Every unbuilt index and view of `schema`: indexes first, in table order.
std::vector<BuildTarget> PendingBuilds(const SchemaState& schema);

// Whether `target` is still an unbuilt index or view of `schema` with the
// same ids.
bool IsPending(const SchemaState& schema, const BuildTarget& target);

// Runs part of `target`'s build, as it stands in `schema` (RunIndexBuild,
// RunViewBuild). Aborted when `schema` no longer holds it.
Status RunBuild(EngineCore* core, const SchemaState& schema, const BuildTarget& target,
                const BuildLimits& limits, BuildCursor* cursor);

// Marks `target` built in the current schema (a synced catalog write, then
// the swap), when it is still pending there; nothing otherwise. REQUIRES:
// the caller holds core->ddl_mutex.
Status MarkBuilt(EngineCore* core, const BuildTarget& target);

}  // namespace storage
}  // namespace cellfs
