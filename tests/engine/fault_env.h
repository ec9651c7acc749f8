// FaultEnv: a LevelDB Env over another (a MemEnv in tests) that plays a
// failing device (ENOSPC or EROFS, at once or after N more bytes, so an
// append can land in part) and an OS crash that keeps torn file tails.
#pragma once

#include <leveldb/env.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

namespace cellfs::testing {

enum class DiskFault { kNoSpace, kReadOnly };

// A device failure. LevelDB's posix Env reports one as
// IOError(file name, strerror(errno)); FaultEnv uses the same text.
struct FaultPlan {
  DiskFault fault = DiskFault::kNoSpace;
  // Bytes that still land (over all files the plan covers) before writes
  // fail; the append that crosses the limit lands in part, like a write(2)
  // that fills the disk. nullopt: fail at once.
  std::optional<uint64_t> after_bytes;
  // Only files whose name contains this fail; "" = every file. ".ldb"
  // aims the fault at memtable flushes and compactions, ".log" at the log,
  // "MANIFEST" at version edits.
  std::string file_part;
  // Appends land and only Sync fails (at once), as fsync reports a full
  // disk on a file system with delayed allocation.
  bool syncs_only = false;

  static FaultPlan Now(DiskFault fault) {
    FaultPlan plan;
    plan.fault = fault;
    return plan;
  }
  static FaultPlan AfterBytes(DiskFault fault, uint64_t bytes) {
    FaultPlan plan = Now(fault);
    plan.after_bytes = bytes;
    return plan;
  }
};

// File operations FaultEnv::Hold can stop: opening a file for writing, fsync.
enum class FileOp { kCreate, kSync };

// How much of a file's unsynced tail an OS crash keeps.
enum class TailLoss {
  kExact,  // exactly what was synced survives
  kTorn,   // per file at random: nothing, all of it, or a random prefix
};

// Thread-safe: LevelDB calls it from its background thread too. All file
// writes pass one mutex, so a Crash() falls between two of them.
class FaultEnv : public leveldb::EnvWrapper {
 public:
  explicit FaultEnv(leveldb::Env* target, uint64_t seed = 1) : EnvWrapper(target), rng_(seed) {}

  // ---- The failing device.

  // Arms `plan`, replacing any earlier one.
  void Inject(const FaultPlan& plan) {
    std::lock_guard lock(mutex_);
    plan_ = plan;
    budget_ = plan.after_bytes.value_or(0);
    tripped_ = !plan.after_bytes.has_value() && !plan.syncs_only;
  }
  // The device works again (space was freed, the fs remounted rw).
  void ClearFault() {
    std::lock_guard lock(mutex_);
    plan_.reset();
    tripped_ = false;
  }
  // Failures reported so far, and how many of them were appends that
  // landed in part.
  uint64_t failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
  }
  uint64_t torn_appends() const {
    std::lock_guard lock(mutex_);
    return torn_appends_;
  }
  // The file the first failure named ("" before one).
  std::string first_failed_file() const {
    std::lock_guard lock(mutex_);
    return first_failed_file_;
  }
  // Bytes that reached the target so far.
  uint64_t appended_bytes() const {
    std::lock_guard lock(mutex_);
    return appended_bytes_;
  }

  // ---- Holding file operations, to stop LevelDB's background thread at a
  // chosen step while the test acts.

  // From now on every `op` on a file whose name contains `part` blocks
  // until LetOneThrough or ReleaseHolds.
  void Hold(FileOp op, std::string part) {
    std::lock_guard lock(gate_mutex_);
    hold_op_ = op;
    hold_part_ = std::move(part);
    holding_ = true;
    passes_ = 0;
  }
  // Lets one blocked (or the next) held operation proceed.
  void LetOneThrough() {
    {
      std::lock_guard lock(gate_mutex_);
      ++passes_;
    }
    gate_changed_.notify_all();
  }
  // Stops holding: everything blocked proceeds.
  void ReleaseHolds() {
    {
      std::lock_guard lock(gate_mutex_);
      holding_ = false;
    }
    gate_changed_.notify_all();
  }
  // Operations that have reached the hold so far (blocked or let through).
  uint64_t arrivals() const {
    std::lock_guard lock(gate_mutex_);
    return arrivals_;
  }
  // True once `count` operations have reached the hold; false after `timeout`.
  bool WaitForArrivals(uint64_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(gate_mutex_);
    return gate_changed_.wait_for(lock, timeout, [&] { return arrivals_ >= count; });
  }

  // ---- The OS crash.

  // From now on nothing reaches the target: appends, syncs, new files,
  // renames and removals all "succeed" without effect, as for a process
  // still running on a machine whose disk has already stopped. Destroy the
  // Engine after this, then call LoseUnsynced.
  void Crash() {
    std::lock_guard lock(mutex_);
    crashed_ = true;
  }
  bool crashed() const {
    std::lock_guard lock(mutex_);
    return crashed_;
  }

  // Cuts every file written through this Env back to what survives the
  // crash (`tails`), and lets writes through again (for the reopen).
  void LoseUnsynced(TailLoss tails) {
    std::lock_guard lock(mutex_);
    for (auto& [name, state] : files_) {
      uint64_t keep = state.synced;
      if (tails == TailLoss::kTorn && state.written > state.synced) {
        const uint64_t tail = state.written - state.synced;
        switch (rng_() % 3) {
          case 0:
            break;
          case 1:
            keep += tail;
            break;
          default:
            keep += rng_() % (tail + 1);
            break;
        }
      }
      unsynced_kept_ += keep - state.synced;
      unsynced_lost_ += state.written - keep;
      if (keep < state.written) Truncate(name, keep);
      state.written = state.synced = keep;
    }
    crashed_ = false;
  }
  // Bytes of unsynced tails that crashes kept and lost, summed.
  uint64_t unsynced_kept() const {
    std::lock_guard lock(mutex_);
    return unsynced_kept_;
  }
  uint64_t unsynced_lost() const {
    std::lock_guard lock(mutex_);
    return unsynced_lost_;
  }
  int syncs() const {
    std::lock_guard lock(mutex_);
    return syncs_;
  }

  // ---- leveldb::Env.

  leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** file) override {
    return Open(name, /*append=*/false, file);
  }
  leveldb::Status NewAppendableFile(const std::string& name,
                                    leveldb::WritableFile** file) override {
    return Open(name, /*append=*/true, file);
  }
  leveldb::Status RemoveFile(const std::string& name) override {
    std::lock_guard lock(mutex_);
    if (crashed_) return leveldb::Status::OK();
    if (ReadOnlyFor(name)) return Failure(name);
    files_.erase(name);
    return target()->RemoveFile(name);
  }
  leveldb::Status RenameFile(const std::string& from, const std::string& to) override {
    std::lock_guard lock(mutex_);
    if (crashed_) return leveldb::Status::OK();
    if (ReadOnlyFor(to)) return Failure(to);
    auto it = files_.find(from);
    if (it != files_.end()) {
      files_[to] = it->second;
      files_.erase(it);
    }
    return target()->RenameFile(from, to);
  }
  leveldb::Status CreateDir(const std::string& name) override {
    std::lock_guard lock(mutex_);
    if (crashed_) return leveldb::Status::OK();
    return target()->CreateDir(name);
  }
  leveldb::Status RemoveDir(const std::string& name) override {
    std::lock_guard lock(mutex_);
    if (crashed_) return leveldb::Status::OK();
    return target()->RemoveDir(name);
  }

 private:
  struct FileState {
    uint64_t written = 0;  // bytes appended that reached the target
    uint64_t synced = 0;   // of those, the prefix a Sync covered
  };

  // A file open for writing; `target_` is null for files opened after the
  // crash, which never reach the target.
  class File : public leveldb::WritableFile {
   public:
    File(FaultEnv* env, std::string name, std::unique_ptr<leveldb::WritableFile> target)
        : env_(env), name_(std::move(name)), target_(std::move(target)) {}
    leveldb::Status Append(const leveldb::Slice& data) override {
      return env_->AppendTo(name_, target_.get(), data);
    }
    leveldb::Status Flush() override { return env_->FlushOrClose(name_, target_.get(), false); }
    leveldb::Status Close() override { return env_->FlushOrClose(name_, target_.get(), true); }
    leveldb::Status Sync() override { return env_->SyncOf(name_, target_.get()); }

   private:
    FaultEnv* const env_;
    const std::string name_;
    const std::unique_ptr<leveldb::WritableFile> target_;
  };

  leveldb::Status Open(const std::string& name, bool append, leveldb::WritableFile** file) {
    AwaitGate(FileOp::kCreate, name);
    std::lock_guard lock(mutex_);
    if (crashed_) {
      *file = new File(this, name, nullptr);
      return leveldb::Status::OK();
    }
    if (FailingFor(name)) return Failure(name);
    leveldb::WritableFile* opened = nullptr;
    leveldb::Status s = append ? target()->NewAppendableFile(name, &opened)
                               : target()->NewWritableFile(name, &opened);
    if (!s.ok()) return s;
    auto known = files_.find(name);
    if (!append || known == files_.end()) {
      // What a file held before it was opened for appending is on disk.
      uint64_t size = 0;
      if (append && !target()->GetFileSize(name, &size).ok()) size = 0;
      files_[name] = FileState{size, size};
    }
    *file = new File(this, name, std::unique_ptr<leveldb::WritableFile>(opened));
    return s;
  }

  leveldb::Status AppendTo(const std::string& name, leveldb::WritableFile* file,
                           const leveldb::Slice& data) {
    std::lock_guard lock(mutex_);
    if (crashed_ || file == nullptr) return leveldb::Status::OK();
    size_t lands = data.size();
    if (Covers(name) && !plan_->syncs_only) lands = TakeBudget(data.size());
    if (lands > 0) {
      leveldb::Status s = file->Append(leveldb::Slice(data.data(), lands));
      if (!s.ok()) return s;
      files_[name].written += lands;
      appended_bytes_ += lands;
    }
    if (lands == data.size()) return leveldb::Status::OK();
    if (lands > 0) ++torn_appends_;
    return Failure(name);
  }

  leveldb::Status FlushOrClose(const std::string& name, leveldb::WritableFile* file, bool close) {
    std::lock_guard lock(mutex_);
    if (crashed_ || file == nullptr) return leveldb::Status::OK();
    leveldb::Status s = close ? file->Close() : file->Flush();
    if (s.ok() && FailingFor(name) && !plan_->syncs_only) return Failure(name);
    return s;
  }

  leveldb::Status SyncOf(const std::string& name, leveldb::WritableFile* file) {
    AwaitGate(FileOp::kSync, name);
    std::lock_guard lock(mutex_);
    if (crashed_ || file == nullptr) return leveldb::Status::OK();
    if (Covers(name) && plan_->syncs_only) tripped_ = true;
    if (FailingFor(name)) return Failure(name);
    FileState& state = files_[name];
    state.synced = state.written;
    ++syncs_;
    return file->Sync();
  }

  void AwaitGate(FileOp op, const std::string& name) {
    std::unique_lock lock(gate_mutex_);
    if (!holding_ || op != hold_op_ || name.find(hold_part_) == std::string::npos) return;
    ++arrivals_;
    gate_changed_.notify_all();
    gate_changed_.wait(lock, [&] { return !holding_ || passes_ > 0; });
    if (holding_) --passes_;
  }

  // REQUIRES: mutex_ held, for the helpers below.
  bool Covers(const std::string& name) const {
    return plan_.has_value() && name.find(plan_->file_part) != std::string::npos;
  }
  bool FailingFor(const std::string& name) const { return tripped_ && Covers(name); }
  bool ReadOnlyFor(const std::string& name) const {
    return FailingFor(name) && plan_->fault == DiskFault::kReadOnly;
  }
  // How many of `size` bytes land before the device fails.
  size_t TakeBudget(size_t size) {
    if (tripped_) return 0;
    if (budget_ >= size) {
      budget_ -= size;
      return size;
    }
    const size_t lands = static_cast<size_t>(budget_);
    budget_ = 0;
    tripped_ = true;
    return lands;
  }
  leveldb::Status Failure(const std::string& name) {
    if (failures_++ == 0) first_failed_file_ = name;
    const bool no_space = !plan_.has_value() || plan_->fault == DiskFault::kNoSpace;
    return leveldb::Status::IOError(name,
                                    no_space ? "No space left on device" : "Read-only file system");
  }

  // Rewrites `name` on the target with its first `length` bytes.
  void Truncate(const std::string& name, uint64_t length) {
    leveldb::SequentialFile* in = nullptr;
    if (!target()->NewSequentialFile(name, &in).ok()) return;
    std::unique_ptr<leveldb::SequentialFile> reader(in);
    std::string contents;
    std::string scratch(64 << 10, '\0');
    while (contents.size() < length) {
      leveldb::Slice piece;
      const size_t want = std::min<uint64_t>(scratch.size(), length - contents.size());
      if (!reader->Read(want, &piece, scratch.data()).ok() || piece.empty()) break;
      contents.append(piece.data(), piece.size());
    }
    leveldb::WritableFile* out = nullptr;
    if (!target()->NewWritableFile(name, &out).ok()) return;
    std::unique_ptr<leveldb::WritableFile> writer(out);
    (void)writer->Append(contents);
    (void)writer->Close();
  }

  mutable std::mutex mutex_;  // guards everything below, up to gate_mutex_
  std::map<std::string, FileState> files_;
  std::optional<FaultPlan> plan_;
  uint64_t budget_ = 0;
  bool tripped_ = false;  // the plan's failure has begun
  bool crashed_ = false;
  uint64_t failures_ = 0;
  std::string first_failed_file_;
  uint64_t torn_appends_ = 0;
  uint64_t appended_bytes_ = 0;
  uint64_t unsynced_kept_ = 0;
  uint64_t unsynced_lost_ = 0;
  int syncs_ = 0;
  std::mt19937_64 rng_;

  mutable std::mutex gate_mutex_;  // guards the members below; never held with mutex_
  std::condition_variable gate_changed_;
  FileOp hold_op_ = FileOp::kSync;
  std::string hold_part_;
  bool holding_ = false;
  uint64_t arrivals_ = 0;
  uint64_t passes_ = 0;  // held operations allowed to proceed, not yet taken
};

// Releases a FaultEnv's holds when it goes out of scope, so that a failed
// REQUIRE does not leave LevelDB's thread blocked while the engine closes.
// Declare it after the engine.
class HoldRelease {
 public:
  explicit HoldRelease(FaultEnv* env) : env_(env) {}
  ~HoldRelease() { env_->ReleaseHolds(); }
  HoldRelease(const HoldRelease&) = delete;
  HoldRelease& operator=(const HoldRelease&) = delete;

 private:
  FaultEnv* const env_;
};

}  // namespace cellfs::testing
