// The file face's removal runs: a map of table id to run under one mutex.
// The contract is in removal_runs.h.
#include "engine/store/internal/removal_runs.h"

#include "engine/store/internal/sequence_allocator.h"

namespace cellfs::storage {

void RemovalRuns::Note(uint32_t table_id, int64_t now_micros, const SequenceAllocator& sequences) {
  std::lock_guard lock(mutex_);
  std::erase_if(runs_, [&](const auto& entry) {
    return entry.first != table_id && !IsOpen(entry.second, now_micros);
  });
  auto [it, inserted] = runs_.try_emplace(table_id);
  Run& run = it->second;
  if (inserted || !IsOpen(run, now_micros)) {
    // Under the lock, after any sweeper commit that checked before us: a
    // rewrite committed earlier took its sequence below this one.
    run = Run{sequences.Peek(), now_micros, now_micros, false};
    return;
  }
  if (now_micros - run.started_micros >= max_age_micros_) run.retired = true;
  run.last_micros = now_micros;
}

std::optional<RemovalRuns::Run> RemovalRuns::Open(uint32_t table_id, int64_t now_micros) const {
  std::lock_guard lock(mutex_);
  const auto it = runs_.find(table_id);
  if (it == runs_.end() || !Protects(it->second, now_micros)) return std::nullopt;
  return it->second;
}

void RemovalRuns::Forget(uint32_t table_id) {
  std::lock_guard lock(mutex_);
  runs_.erase(table_id);
}

Status RemovalRuns::CommitUnlessOpen(uint32_t table_id, int64_t now_micros,
                                     const std::function<Status()>& commit) const {
  std::lock_guard lock(mutex_);
  const auto it = runs_.find(table_id);
  if (it != runs_.end() && Protects(it->second, now_micros)) {
    return Status::Aborted("a removal run is open in the table");
  }
  return commit();
}

}  // namespace cellfs::storage
