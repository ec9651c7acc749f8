// WatchList: the registered watches of a backend that notifies locally, and
// their calls after a commit.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/store/storage/watch.h"

namespace cellfs::storage {

// Thread-safe. mutex_ is a leaf: callbacks run without it (they may take
// the engine's locks, while a committing thread that holds some of those
// notifies), and Remove waits for every call in flight, so a callback never
// runs after its Remove returned. Callbacks must not watch or unwatch.
// Notify costs one atomic load when nothing is watched.
class WatchList {
 public:
  WatchId Add(std::string_view space, WatchCallback callback) {
    std::lock_guard lock(mutex_);
    const WatchId id = ++last_id_;
    watches_.emplace(
        id, Entry{std::string(space), std::make_shared<const WatchCallback>(std::move(callback))});
    any_.store(true, std::memory_order_release);
    return id;
  }
  void Remove(WatchId id) {
    std::unique_lock lock(mutex_);
    watches_.erase(id);
    any_.store(!watches_.empty(), std::memory_order_release);
    idle_.wait(lock, [this] { return in_flight_ == 0; });
  }
  // Calls every watch of a space in `spaces` once per such space.
  void Notify(const std::vector<std::string>& spaces, bool from_other_process = false) {
    if (!any_.load(std::memory_order_acquire)) return;
    std::vector<std::pair<std::shared_ptr<const WatchCallback>, std::string>> calls;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [id, entry] : watches_) {
        for (const std::string& space : spaces) {
          if (space == entry.space) calls.emplace_back(entry.callback, space);
        }
      }
      if (calls.empty()) return;
      ++in_flight_;
    }
    for (const auto& [callback, space] : calls) (*callback)(space, from_other_process);
    {
      std::lock_guard lock(mutex_);
      --in_flight_;
    }
    idle_.notify_all();
  }

 private:
  struct Entry {
    std::string space;
    std::shared_ptr<const WatchCallback> callback;
  };

  std::atomic<bool> any_{false};
  std::mutex mutex_;  // guards watches_, last_id_, in_flight_
  std::condition_variable idle_;
  std::map<WatchId, Entry> watches_;
  WatchId last_id_ = 0;
  size_t in_flight_ = 0;  // Notify calls running callbacks
};

}  // namespace cellfs::storage
