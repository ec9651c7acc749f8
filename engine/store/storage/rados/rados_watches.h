// RadosWatches: storage watches on the RADOS backend: this process's
// commits reach its own watches at once, other mounts' through RADOS
// watch/notify on one object per watched space ("w.<hex space>").
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <rados/librados.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/store/storage/watch.h"
#include "engine/store/storage/watch_list.h"

namespace cellfs::storage {

// A commit announces the spaces it wrote that this process watches: every
// mount runs the same engine and watches the same spaces, so a space one
// mount watches, all do, and data writes (unwatched) cost no notify.
// Callbacks for other mounts' commits run on a thread of this class's own,
// never inside librados's, and the notify is acknowledged after them: the
// notifier's commit waits for every mount's callbacks (at most 5 s). A
// watch the cluster dropped is made again, and its space reported changed,
// since notifies may have been missed.
// Thread-safe.
class RadosWatches {
 public:
  // `own_instance`: this client's instance id, whose notifies its own
  // watch ignores (they were delivered locally).
  RadosWatches(librados::Rados* rados, librados::IoCtx* io, uint64_t own_instance);
  ~RadosWatches();

  WatchId Add(std::string_view space, WatchCallback callback);
  void Remove(WatchId id);
  // After this process committed a batch that wrote `spaces`.
  void Committed(const std::vector<std::string>& spaces);
  // After this process replayed batches (a dead mount's, or its own that
  // failed) that wrote `objects`: their spaces changed for every mount,
  // this one included, whether it watches them or not yet.
  void Replayed(const std::set<std::string>& objects);

 private:
  class Context;
  struct Remote {
    std::unique_ptr<Context> context;
    uint64_t handle = 0;
    bool watching = false;
    size_t users = 0;
  };
  // What the dispatcher does next: report `space` changed, after watching
  // it again when `rewatch`, and then acknowledge the notify when `ack`.
  struct Event {
    std::string space;
    bool rewatch = false;
    bool ack = false;
    uint64_t notify_id = 0;
    uint64_t cookie = 0;
  };

  void Post(Event event);
  void Dispatch();
  // Watches `space`'s object through `context`; returns the handle.
  uint64_t StartWatch(const std::string& space, Context* context, bool* watching);

  librados::Rados* rados_;
  librados::IoCtx* io_;
  const uint64_t own_instance_;
  WatchList local_;
  std::mutex mutex_;                      // guards remote_, ids_, events_, stopping_
  std::map<std::string, Remote> remote_;  // by space; entries never erased
  std::map<WatchId, std::string> ids_;    // each watch's space
  std::deque<Event> events_;
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread dispatcher_;
};

}  // namespace cellfs::storage
