// LevelDbCursor: a storage::Cursor over one shard, a LevelDB iterator kept
// inside the keys that start with space || shard.
#pragma once

#include <leveldb/iterator.h>

#include <memory>
#include <string>
#include <string_view>

#include "engine/store/storage/cursor.h"

namespace cellfs::storage {

// Not thread-safe. The iterator is owned or borrowed (a ShardCursor's
// entries share its iterator); either way it reads at the cursor's read
// point.
class LevelDbCursor final : public Cursor {
 public:
  LevelDbCursor(std::unique_ptr<leveldb::Iterator> it, std::string prefix);
  // Borrows `it`, which must outlive this. No prefix until SetPrefix.
  explicit LevelDbCursor(leveldb::Iterator* it) : it_(it) {}

  // Confines the cursor to the keys starting with `prefix` (space ||
  // shard); does not move the iterator.
  void SetPrefix(std::string_view prefix) { prefix_.assign(prefix); }

  bool Valid() const override;
  void Seek(std::string_view key) override;
  void SeekBefore(std::string_view key) override;
  void SeekToFirst() override;
  void SeekToLast() override;
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override;
  std::string_view value() const override;
  Status status() const override;

 private:
  // it_ at the last key before `target`, or invalid.
  void LandBefore(std::string_view target);

  std::unique_ptr<leveldb::Iterator> owned_;
  leveldb::Iterator* it_;
  std::string prefix_;
  std::string target_;  // scratch: prefix_ || a key
};

}  // namespace cellfs::storage
