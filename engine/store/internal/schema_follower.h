// SchemaFollower and DdlLease: how mounts that share one store (RADOS) keep
// one schema. A schema change runs under the store's "ddl" lease, over the
// schema as stored (not as this mount last saw it), so changes from
// several mounts apply one at a time and table ids stay unique; every
// mount watches the catalog space and reloads when another one changed it.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "engine/status.h"
#include "engine/store/storage/storage.h"

namespace cellfs::storage {

// Holds the "ddl" lease from construction to destruction, renewing it every
// kRenewMs on a thread of its own, so that a long change (a big inline
// index build) never outlives it. On a store only this process writes
// (LevelDB) every lease is held at once. The cluster's lock is this
// process's (its client's), whichever thread took it, so the threads of
// one process take `holders` first: one at a time holds it.
class DdlLease {
 public:
  // How long one schema change may hold the lease before another mount may
  // take it, and how long a change waits for it.
  static constexpr int64_t kHoldMs = 60'000;
  static constexpr int64_t kWaitMs = 30'000;
  static constexpr int64_t kRenewMs = 10'000;

  DdlLease(Storage* storage, std::mutex* holders);
  ~DdlLease();
  DdlLease(const DdlLease&) = delete;
  DdlLease& operator=(const DdlLease&) = delete;

  // Ok when held; IOError when another mount held it for all of kWaitMs.
  const Status& status() const { return status_; }

  // Leaves the lease held until it lapses (kHoldMs) instead of giving it up
  // at destruction: after a schema change whose commit failed, maybe
  // half-way, which this mount's storage finishes within seconds of the
  // cluster's return; no other mount's change may land before it.
  void KeepUntilLapsed();

 private:
  void StopRenewing();

  std::unique_lock<std::mutex> holder_;
  Storage* storage_;
  Status status_;
  std::mutex renew_mutex_;  // guards stop_
  std::condition_variable renew_wake_;
  bool stop_ = false;
  std::thread renewer_;
};

// Calls `reload` after each commit another mount made into the catalog
// space, on the backend's watch thread, before that commit is acknowledged
// to its mount (see WatchCallback): once a schema change returns, every
// mount that answered in time has it, so none of their later writes miss
// a new index's entries. This process's own commits reload nothing (the
// engine swapped its schema itself). Thread-safe; the destructor stops
// watching.
class SchemaFollower {
 public:
  SchemaFollower(Storage* storage, std::function<void()> reload);
  ~SchemaFollower();
  SchemaFollower(const SchemaFollower&) = delete;
  SchemaFollower& operator=(const SchemaFollower&) = delete;

 private:
  Storage* storage_;
  std::function<void()> reload_;
  WatchId watch_ = 0;
};

}  // namespace cellfs::storage
