// BuriedTables: the per-table "may have buried rows" flags, learned from
// storage once and raised by the sweeper before it buries.
#include "engine/store/internal/buried_tables.h"

#include <memory>
#include <string>

#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {

bool BuriedTables::MayHave(uint32_t table_id, Storage* storage) {
  {
    std::lock_guard lock(mutex_);
    if (auto found = known_.find(table_id); found != known_.end()) return found->second;
  }
  // Outside the lock: a storage read. A WillBury that comes meanwhile wins,
  // as emplace keeps what is there; one that came before this read sees
  // its rows committed or not yet, and its flag is there already.
  std::string space;
  AppendBuriedPrefix(table_id, &space);
  std::unique_ptr<Cursor> it = storage->NewCursor(nullptr, {space, {}}, {/*fill_cache=*/false});
  it->SeekToFirst();
  // A read error counts as "may have": the reader's own cursor reports it.
  const bool has = it->Valid() || !it->status().ok();
  std::lock_guard lock(mutex_);
  return known_.emplace(table_id, has).first->second;
}

void BuriedTables::WillBury(uint32_t table_id) {
  std::lock_guard lock(mutex_);
  known_[table_id] = true;
}

}  // namespace cellfs::storage
