// LevelDbCursor: shard-confined moves over a LevelDB iterator.
#include "engine/store/storage/leveldb/leveldb_cursor.h"

#include <utility>

#include "engine/store/storage/leveldb/leveldb_key.h"
#include "engine/store/storage/leveldb/leveldb_status.h"

namespace cellfs::storage {

LevelDbCursor::LevelDbCursor(std::unique_ptr<leveldb::Iterator> it, std::string prefix)
    : owned_(std::move(it)), it_(owned_.get()), prefix_(std::move(prefix)) {}

bool LevelDbCursor::Valid() const { return it_->Valid() && View(it_->key()).starts_with(prefix_); }

void LevelDbCursor::Seek(std::string_view key) {
  target_.assign(prefix_);
  target_.append(key);
  it_->Seek(ToSlice(target_));
}

void LevelDbCursor::SeekBefore(std::string_view key) {
  target_.assign(prefix_);
  target_.append(key);
  LandBefore(target_);
}

void LevelDbCursor::SeekToFirst() { it_->Seek(ToSlice(prefix_)); }

void LevelDbCursor::SeekToLast() {
  std::optional<std::string> past = PrefixSuccessor(prefix_);
  if (past) {
    LandBefore(*past);
  } else {
    it_->SeekToLast();
  }
}

void LevelDbCursor::LandBefore(std::string_view target) {
  it_->Seek(ToSlice(target));
  if (it_->Valid()) {
    it_->Prev();
  } else if (it_->status().ok()) {
    it_->SeekToLast();
  }
}

std::string_view LevelDbCursor::key() const { return View(it_->key()).substr(prefix_.size()); }

std::string_view LevelDbCursor::value() const { return View(it_->value()); }

Status LevelDbCursor::status() const { return FromLevelDb(it_->status()); }

}  // namespace cellfs::storage
