// WatchList: the registered watches of a backend that notifies locally, and
// their calls after a commit.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/store/storage/watch.h"

namespace cellfs::storage {

// Thread-safe. Lock order: mutex_ is a leaf, held across callbacks (which
// must not watch or unwatch). Notify costs one atomic load when nothing is
// watched.
class WatchList {
 public:
  WatchId Add(std::string_view space, WatchCallback callback) {
    std::lock_guard lock(mutex_);
    const WatchId id = ++last_id_;
    watches_.emplace(id, Entry{std::string(space), std::move(callback)});
    any_.store(true, std::memory_order_release);
    return id;
  }

  void Remove(WatchId id) {
    std::lock_guard lock(mutex_);
    watches_.erase(id);
    any_.store(!watches_.empty(), std::memory_order_release);
  }

  // Calls every watch of a space in `spaces` once per such space.
  void Notify(const std::vector<std::string>& spaces, bool from_other_process = false) {
    if (!any_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : watches_) {
      for (const std::string& space : spaces) {
        if (space == entry.space) entry.callback(space, from_other_process);
      }
    }
  }

 private:
  struct Entry {
    std::string space;
    WatchCallback callback;
  };

  std::atomic<bool> any_{false};
  std::mutex mutex_;  // guards watches_ and last_id_
  std::map<WatchId, Entry> watches_;
  WatchId last_id_ = 0;
};

}  // namespace cellfs::storage
