// Finding pending builds in a schema, running one, marking one done.
#include "engine/store/internal/pending_builds.h"

#include "engine/store/internal/build_batch.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/index_build.h"
#include "engine/store/internal/view_build.h"

namespace cellfs::storage {
namespace {

using Kind = BuildProgress::Kind;

}  // namespace

std::vector<BuildTarget> PendingBuilds(const SchemaState& schema) {
  std::vector<BuildTarget> indexes;
  std::vector<BuildTarget> views;
  for (const auto& [name, ids] : schema.ids()) {
    for (const auto& [index_name, index_ids] : ids.indexes) {
      if (index_ids.built) continue;
      indexes.push_back(
          {Kind::kIndex, name.first, name.second, index_name, ids.table_id, index_ids.id});
    }
    if (ids.built) continue;
    TableHandle view = schema.FindTable(name.first, name.second);
    if (view == nullptr || !view->view) continue;
    views.push_back({Kind::kView, name.first, name.second, name.second, ids.table_id,
                     view->view->base_table_id});
  }
  indexes.insert(indexes.end(), views.begin(), views.end());
  return indexes;
}

bool IsPending(const SchemaState& schema, const BuildTarget& target) {
  auto it = schema.ids().find({target.keyspace, target.table});
  if (it == schema.ids().end() || it->second.table_id != target.table_id) return false;
  if (target.kind == Kind::kView) {
    if (it->second.built) return false;
    TableHandle view = schema.FindTableById(target.table_id);
    return view != nullptr && view->view && view->view->base_table_id == target.other_id &&
           schema.FindTableById(target.other_id) != nullptr;
  }
  auto index = it->second.indexes.find(target.name);
  return index != it->second.indexes.end() && !index->second.built &&
         index->second.id == target.other_id;
}

Status RunBuild(EngineCore* core, const SchemaState& schema, const BuildTarget& target,
                const BuildLimits& limits, BuildCursor* cursor) {
  if (!IsPending(schema, target)) return Status::Aborted("the build is no longer pending");
  TableHandle table = schema.FindTableById(target.table_id);
  if (target.kind == Kind::kView) {
    return RunViewBuild(core, schema.FindTableById(target.other_id), table, limits, cursor);
  }
  const IndexSchema* index = table->FindIndex(target.name);
  return RunIndexBuild(core, table, *index, limits, cursor);
}

Status MarkBuilt(EngineCore* core, const BuildTarget& target) {
  std::shared_ptr<const SchemaState> before = core->CurrentSchema();
  if (!IsPending(*before, target)) return Status::Ok();
  const std::pair<std::string, std::string> name{target.keyspace, target.table};
  return StoreBuiltSchema(core, *before,
                          target.kind == Kind::kView ? WithViewBuilt(*before, name)
                                                     : WithIndexBuilt(*before, name, target.name));
}

}  // namespace cellfs::storage
