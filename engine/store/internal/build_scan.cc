// The bounded, resumable walk of a build over its base table.
#include "engine/store/internal/build_scan.h"

#include <memory>

#include "engine/store/internal/build_batch.h"
#include "engine/store/internal/engine_core.h"
#include "engine/store/internal/read_state.h"

namespace cellfs::storage {
namespace {}  // namespace

Status ScanForBuild(EngineCore* core, const TableHandle& base, BuildBatch* batch,
                    const BuildLimits& limits, BuildCursor* cursor,
                    const BuildPartitionVisitor& visit) {
  ReadView view =
      ReadView(std::make_shared<const ReadState>(core, core->clock->NowMicros())).ForScan();
  std::unique_ptr<PartitionIterator> partitions = view.NewPartitionIterator(
      base, cursor->position.empty() ? std::nullopt : std::optional<std::string>(cursor->position));
  batch->SetWanted(limits.still_wanted);
  // `*cursor` moves only once every entry before `next` is committed: a
  // part that fails leaves it where the part started, so no later part
  // skips partitions whose entries were lost with an unflushed batch.
  BuildCursor next = *cursor;
  uint64_t rows_here = 0;
  uint64_t partitions_here = 0;
  for (; partitions->Valid(); partitions->Next()) {
    if (limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed)) break;
    if (limits.rows != 0 && rows_here >= limits.rows) break;
    if (limits.still_wanted && ++partitions_here % kWantedCheckPartitions == 0 &&
        !limits.still_wanted(*core->CurrentSchema())) {
      return BuildNotWanted();
    }
    uint64_t rows = 0;
    CELLFS_RETURN_IF_ERROR(visit(view, *partitions, &rows));
    rows_here += rows;
    next.rows += rows;
    next.position.assign(partitions->position());
    next.token = partitions->token();
    if (limits.progress) limits.progress(next);
  }
  CELLFS_RETURN_IF_ERROR(partitions->status());
  CELLFS_RETURN_IF_ERROR(batch->Flush());
  next.done = !partitions->Valid();
  *cursor = std::move(next);
  return Status::Ok();
}

}  // namespace cellfs::storage
