// CrashEnv: a LevelDB Env over another that remembers how much of each file
// was synced, so a test can simulate an OS crash: everything written but not
// synced is lost. Used to prove what Sync and the commit modes promise.
#pragma once

#include <leveldb/env.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace cellfs::testing {

// Thread-safe (LevelDB calls it from its background thread too).
class CrashEnv : public leveldb::EnvWrapper {
 public:
  explicit CrashEnv(leveldb::Env* target) : EnvWrapper(target) {}

  leveldb::Status NewWritableFile(const std::string& name, leveldb::WritableFile** file) override {
    return Wrap(name, /*append=*/false, file);
  }
  leveldb::Status NewAppendableFile(const std::string& name,
                                    leveldb::WritableFile** file) override {
    return Wrap(name, /*append=*/true, file);
  }
  leveldb::Status RemoveFile(const std::string& name) override {
    std::lock_guard lock(mutex_);
    files_.erase(name);
    return target()->RemoveFile(name);
  }
  leveldb::Status RenameFile(const std::string& from, const std::string& to) override {
    std::lock_guard lock(mutex_);
    auto it = files_.find(from);
    if (it != files_.end()) {
      files_[to] = it->second;
      files_.erase(it);
    }
    return target()->RenameFile(from, to);
  }

  // The moment of the crash: from now on nothing reaches the files and no
  // sync counts. Destroy the Engine after this, then call LoseUnsynced.
  void Crash() {
    std::lock_guard lock(mutex_);
    crashed_ = true;
  }

  // Cuts every file back to what was synced before Crash(), and lets writes
  // through again (for the reopen).
  void LoseUnsynced() {
    std::lock_guard lock(mutex_);
    for (auto& [name, state] : files_) Truncate(name, state.synced);
    for (auto& [name, state] : files_) state.written = state.synced;
    crashed_ = false;
  }

  int syncs() const {
    std::lock_guard lock(mutex_);
    return syncs_;
  }

 private:
  struct FileState {
    uint64_t written = 0;
    uint64_t synced = 0;
  };

  class File : public leveldb::WritableFile {
   public:
    File(CrashEnv* env, std::string name, std::unique_ptr<leveldb::WritableFile> target)
        : env_(env), name_(std::move(name)), target_(std::move(target)) {}
    leveldb::Status Append(const leveldb::Slice& data) override {
      std::lock_guard lock(env_->mutex_);
      if (env_->crashed_) return leveldb::Status::OK();
      env_->files_[name_].written += data.size();
      return target_->Append(data);
    }
    leveldb::Status Close() override { return target_->Close(); }
    leveldb::Status Flush() override { return target_->Flush(); }
    leveldb::Status Sync() override {
      std::lock_guard lock(env_->mutex_);
      if (env_->crashed_) return leveldb::Status::OK();
      FileState& state = env_->files_[name_];
      state.synced = state.written;
      ++env_->syncs_;
      return target_->Sync();
    }

   private:
    CrashEnv* env_;
    std::string name_;
    std::unique_ptr<leveldb::WritableFile> target_;
  };

  leveldb::Status Wrap(const std::string& name, bool append, leveldb::WritableFile** file) {
    leveldb::WritableFile* target_file = nullptr;
    leveldb::Status s = append ? target()->NewAppendableFile(name, &target_file)
                               : target()->NewWritableFile(name, &target_file);
    if (!s.ok()) return s;
    std::lock_guard lock(mutex_);
    FileState& state = files_[name];
    if (!append) state = FileState{};
    *file = new File(this, name, std::unique_ptr<leveldb::WritableFile>(target_file));
    return s;
  }

  // REQUIRES: mutex_ held.
  void Truncate(const std::string& name, uint64_t length) {
    std::string contents;
    leveldb::SequentialFile* in = nullptr;
    if (!target()->NewSequentialFile(name, &in).ok()) return;
    std::unique_ptr<leveldb::SequentialFile> reader(in);
    std::string scratch(length, '\0');
    leveldb::Slice read;
    if (length > 0 && !reader->Read(length, &read, scratch.data()).ok()) return;
    contents.assign(read.data(), read.size());
    leveldb::WritableFile* out = nullptr;
    if (!target()->NewWritableFile(name, &out).ok()) return;
    std::unique_ptr<leveldb::WritableFile> writer(out);
    (void)writer->Append(contents);
    (void)writer->Close();
  }

  mutable std::mutex mutex_;  // guards everything below
  std::map<std::string, FileState> files_;
  bool crashed_ = false;
  int syncs_ = 0;
};

}  // namespace cellfs::testing
