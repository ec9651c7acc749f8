// Builds run inline up to a bound, then on the builder thread.
#include "engine/store/internal/build_runner.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "engine/store/internal/engine_core.h"

namespace cellfs::storage {
namespace {

// How far along the token ring a cursor is, 0 to 1.
double TokenFraction(const BuildCursor& cursor) {
  if (cursor.done) return 1;
  if (cursor.position.empty()) return 0;
  const uint64_t offset = static_cast<uint64_t>(cursor.token) ^ (uint64_t{1} << 63);
  return static_cast<double>(offset) / 18446744073709551616.0;
}

std::string Describe(const BuildTarget& target) {
  return std::string(target.kind == BuildProgress::Kind::kView ? "view " : "index ") + target.name +
         " of " + target.keyspace + "." + target.table;
}

}  // namespace

BuildRunner::BuildRunner(EngineCore* core, bool background, DdlSection section)
    : core_(core), section_(std::move(section)) {
  if (background) thread_ = std::thread([this] { Loop(); });
}

BuildRunner::~BuildRunner() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status BuildRunner::RunInline(uint64_t rows, const std::vector<BuildTarget>* only) {
  return RunClaimable(rows, true, only);
}

void BuildRunner::Reserve(const std::vector<BuildTarget>& targets) {
  std::lock_guard lock(mutex_);
  for (const BuildTarget& target : targets) {
    State& state = states_[target];
    state.running = true;
    state.reserved = true;
  }
}

void BuildRunner::Unreserve(const std::vector<BuildTarget>& targets) {
  {
    std::lock_guard lock(mutex_);
    for (const BuildTarget& target : targets) {
      auto it = states_.find(target);
      if (it == states_.end() || !it->second.reserved) continue;
      it->second.reserved = false;
      it->second.running = false;
    }
  }
  changed_.notify_all();
}

void BuildRunner::Wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
    for (auto& [target, state] : states_) state.error = Status::Ok();
  }
  changed_.notify_all();
}

Status BuildRunner::AwaitAll() {
  if (!thread_.joinable()) {
    return section_([&] {
      CELLFS_RETURN_IF_ERROR(RunClaimable(0, true, nullptr));
      // A build that failed before is not run again here (Wake retries
      // it): its failure is the answer while it stays pending.
      std::lock_guard lock(mutex_);
      for (const BuildTarget& target : PendingBuilds(*core_->CurrentSchema())) {
        auto it = states_.find(target);
        if (it != states_.end() && !it->second.error.ok()) return it->second.error;
      }
      return Status::Ok();
    });
  }
  std::unique_lock lock(mutex_);
  woken_ = true;  // a build left waiting runs now; one that failed is not retried
  changed_.notify_all();
  while (true) {
    if (stopping_) return Status::Aborted("the engine is closing");
    bool waiting = false;
    // Under this object's lock: a build's end is told (Release) only after
    // its schema swap, so no end falls between this look and the wait.
    for (const BuildTarget& target : PendingBuilds(*core_->CurrentSchema())) {
      auto it = states_.find(target);
      if (it != states_.end() && !it->second.error.ok()) return it->second.error;
      waiting = true;
    }
    if (!waiting) return Status::Ok();
    changed_.wait(lock);
  }
}

std::vector<BuildProgress> BuildRunner::Progress() const {
  std::vector<BuildProgress> out;
  std::lock_guard lock(mutex_);
  for (const BuildTarget& target : PendingBuilds(*core_->CurrentSchema())) {
    BuildProgress& progress = out.emplace_back();
    progress.kind = target.kind;
    progress.keyspace = target.keyspace;
    progress.table = target.table;
    progress.name = target.name;
    auto it = states_.find(target);
    if (it == states_.end()) continue;
    progress.rows = it->second.cursor.rows;
    progress.fraction = TokenFraction(it->second.cursor);
    if (!it->second.error.ok()) progress.error = it->second.error.ToString();
  }
  return out;
}

void BuildRunner::Loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || woken_; });
    if (stopping_) return;
    woken_ = false;
    lock.unlock();
    // Failures are logged and kept for Progress and AwaitAll.
    (void)RunClaimable(0, false, nullptr);
    lock.lock();
  }
}

Status BuildRunner::RunClaimable(uint64_t rows, bool ddl_held,
                                 const std::vector<BuildTarget>* only) {
  Status first;
  uint64_t read = 0;
  BuildTarget target;
  BuildCursor cursor;
  while (!stopping_ && (rows == 0 || read < rows) && Claim(only, &target, &cursor)) {
    BuildLimits limits;
    limits.stop = &stopping_;
    limits.still_wanted = [&target](const SchemaState& schema) {
      return IsPending(schema, target);
    };
    limits.progress = [this, &target](const BuildCursor& at) {
      std::lock_guard lock(mutex_);
      states_[target].cursor = at;
    };
    // Unbounded runs go in parts of kPartRows rows, each at a fresh
    // snapshot, so no snapshot pins old versions for a whole build.
    Status status;
    do {
      const uint64_t before = cursor.rows;
      limits.rows = rows == 0 ? kPartRows : rows - read;
      status = RunBuild(core_, *core_->CurrentSchema(), target, limits, &cursor);
      read += cursor.rows - before;
    } while (status.ok() && !cursor.done && rows == 0 && !stopping_);
    if (status.ok() && cursor.done) {
      status =
          ddl_held ? MarkBuilt(core_, target) : section_([&] { return MarkBuilt(core_, target); });
    }
    if (!status.ok() && status.code() != StatusCode::kAborted) {
      std::fprintf(stderr, "cellfs: building %s stopped: %s\n", Describe(target).c_str(),
                   status.ToString().c_str());
      if (first.ok()) first = status;
    }
    Release(target, cursor, status);
  }
  return first;
}

bool BuildRunner::Claim(const std::vector<BuildTarget>* only, BuildTarget* target,
                        BuildCursor* cursor) {
  std::lock_guard lock(mutex_);
  const std::vector<BuildTarget> pending = PendingBuilds(*core_->CurrentSchema());
  // Forget builds that ended (built, dropped, truncated away).
  for (auto it = states_.begin(); it != states_.end();) {
    const bool gone = !it->second.running &&
                      std::find(pending.begin(), pending.end(), it->first) == pending.end();
    it = gone ? states_.erase(it) : std::next(it);
  }
  for (const BuildTarget& candidate : pending) {
    if (only != nullptr && std::find(only->begin(), only->end(), candidate) == only->end()) {
      continue;
    }
    State& state = states_[candidate];
    const bool mine = only != nullptr && state.reserved;
    if ((state.running && !mine) || !state.error.ok()) continue;
    state.running = true;
    state.reserved = false;
    *target = candidate;
    *cursor = state.cursor;
    return true;
  }
  return false;
}

void BuildRunner::Release(const BuildTarget& target, const BuildCursor& cursor,
                          const Status& status) {
  {
    std::lock_guard lock(mutex_);
    State& state = states_[target];
    state.running = false;
    state.cursor = cursor;
    // Aborted: the build is gone (dropped, truncated away); Claim forgets it.
    if (!status.ok() && status.code() != StatusCode::kAborted) state.error = status;
  }
  changed_.notify_all();
}

}  // namespace cellfs::storage
