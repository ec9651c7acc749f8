// FoldQueue: keys reads hand to the sweeper: rows found spread over many
// fragments, waiting to be folded into one entry (EngineCore::fold_queue),
// and partitions found holding dead rows, waiting for those to be buried
// (EngineCore::bury_queue, buried_reader.h).
#pragma once

#include <cstddef>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::storage {

// Thread-safe; bounded (a full queue drops new rows: a later read finds them
// again).
class FoldQueue {
 public:
  // Rows with at least this many fragments are worth folding.
  static constexpr size_t kFoldThreshold = 8;
  static constexpr size_t kCapacity = 4096;

  // Queues a key: the group (DataKey::group) of a fragmented row, or a
  // partition prefix. A key already queued is queued once.
  void Add(std::string_view group);
  // Removes and returns up to `max` queued keys, in key order.
  std::vector<std::string> Take(size_t max);

 private:
  std::mutex mutex_;  // guards groups_
  std::set<std::string, std::less<>> groups_;
};

}  // namespace cellfs::storage
