// BuriedTables: which tables may have buried rows (buried_reader.h), so that
// reads of the many tables that have none never open a cursor on a buried
// space.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "engine/store/storage/storage.h"

namespace cellfs::storage {

// Thread-safe. A table is known to have buried rows once the sweeper says
// it will bury some; a table not yet seen is looked up in storage once (the
// answer is kept until the process ends: a buried space that empties again
// costs a cursor per partition read until the next open).
class BuriedTables {
 public:
  // False only when the table has no buried rows in any state a reader
  // taking its read point before this call can see. Reads storage's latest
  // state the first time a table is asked about.
  bool MayHave(uint32_t table_id, Storage* storage);

  // Called by the sweeper before it commits a batch that buries rows of the
  // table: readers whose read point follows the commit then look.
  void WillBury(uint32_t table_id);

 private:
  std::mutex mutex_;                          // guards known_
  std::unordered_map<uint32_t, bool> known_;  // table id -> has buried rows
};

}  // namespace cellfs::storage
