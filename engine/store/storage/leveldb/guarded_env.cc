// The sticky-failure and sync-before-close file wrapper of GuardedEnv
// (engine/store/storage/leveldb/guarded_env.h).
#include "engine/store/storage/leveldb/guarded_env.h"

#include <memory>
#include <string_view>
#include <utility>

namespace cellfs::storage {
namespace {

class GuardedFile final : public leveldb::WritableFile {
 public:
  GuardedFile(leveldb::WritableFile* target, bool sync_before_close)
      : target_(target), sync_before_close_(sync_before_close) {}

  // LevelDB closes its files before deleting them; a file deleted open (an
  // error path) still gets its log synced.
  ~GuardedFile() override {
    if (!closed_) (void)Close();
  }

  leveldb::Status Append(const leveldb::Slice& data) override {
    if (!failure_.ok()) return failure_;
    return Remember(target_->Append(data));
  }
  leveldb::Status Flush() override {
    if (!failure_.ok()) return failure_;
    return Remember(target_->Flush());
  }
  leveldb::Status Sync() override {
    if (!failure_.ok()) return failure_;
    return Remember(target_->Sync());
  }
  leveldb::Status Close() override {
    if (closed_) return failure_;
    closed_ = true;
    if (failure_.ok() && sync_before_close_) Remember(target_->Sync());
    leveldb::Status closed = target_->Close();
    return failure_.ok() ? Remember(closed) : failure_;
  }

 private:
  leveldb::Status Remember(leveldb::Status s) {
    if (!s.ok() && failure_.ok()) failure_ = s;
    return s;
  }

  std::unique_ptr<leveldb::WritableFile> target_;
  const bool sync_before_close_;
  bool closed_ = false;
  leveldb::Status failure_;  // the first failure; ok while there was none
};

bool IsWriteAheadLog(std::string_view name) { return name.ends_with(".log"); }

leveldb::Status Wrap(leveldb::Status s, const std::string& name, leveldb::WritableFile* target,
                     leveldb::WritableFile** file) {
  if (!s.ok()) return s;
  *file = new GuardedFile(target, IsWriteAheadLog(name));  // LevelDB owns what it gets
  return s;
}

}  // namespace

leveldb::Status GuardedEnv::NewWritableFile(const std::string& name, leveldb::WritableFile** file) {
  leveldb::WritableFile* target = nullptr;
  leveldb::Status s = EnvWrapper::NewWritableFile(name, &target);
  return Wrap(std::move(s), name, target, file);
}

leveldb::Status GuardedEnv::NewAppendableFile(const std::string& name,
                                              leveldb::WritableFile** file) {
  leveldb::WritableFile* target = nullptr;
  leveldb::Status s = EnvWrapper::NewAppendableFile(name, &target);
  return Wrap(std::move(s), name, target, file);
}

}  // namespace cellfs::storage
