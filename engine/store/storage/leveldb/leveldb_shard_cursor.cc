// LevelDbShardCursor: from one shard to the next by seeking past its prefix.
#include "engine/store/storage/leveldb/leveldb_shard_cursor.h"

#include <utility>

#include "engine/store/storage/leveldb/leveldb_key.h"
#include "engine/store/storage/leveldb/leveldb_status.h"

namespace cellfs::storage {

LevelDbShardCursor::LevelDbShardCursor(std::unique_ptr<leveldb::Iterator> it,
                                       std::string_view space, ShardSplitter split)
    : it_(std::move(it)), space_(space), split_(std::move(split)), entries_(it_.get()) {}

void LevelDbShardCursor::Seek(std::string_view shard) {
  prefix_.assign(space_);
  prefix_.append(shard);
  it_->Seek(ToSlice(prefix_));
  Settle();
}

void LevelDbShardCursor::Next() {
  std::optional<std::string> past = PrefixSuccessor(prefix_);
  if (!past) {
    valid_ = false;
    return;
  }
  it_->Seek(ToSlice(*past));
  Settle();
}

std::string_view LevelDbShardCursor::shard() const {
  return std::string_view(prefix_).substr(space_.size());
}

Status LevelDbShardCursor::status() const {
  return status_.ok() ? FromLevelDb(it_->status()) : status_;
}

void LevelDbShardCursor::Settle() {
  valid_ = false;
  if (!it_->Valid()) return;
  const std::string_view key = View(it_->key());
  if (!key.starts_with(space_)) return;
  size_t length = 0;
  status_ = split_(key.substr(space_.size()), &length);
  if (!status_.ok()) return;
  if (!end_.empty() && key.substr(space_.size(), length) >= end_) return;
  prefix_.assign(key.substr(0, space_.size() + length));
  entries_.SetPrefix(prefix_);
  valid_ = true;
}

}  // namespace cellfs::storage
