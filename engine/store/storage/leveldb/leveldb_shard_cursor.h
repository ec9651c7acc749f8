// LevelDbShardCursor: a space's shards found in LevelDB's one ordered key
// space, one seek per shard.
#pragma once

#include <leveldb/iterator.h>

#include <memory>
#include <string>
#include <string_view>

#include "engine/store/storage/leveldb/leveldb_cursor.h"
#include "engine/store/storage/shard_cursor.h"

namespace cellfs::storage {

// The first key at or after a position names the next shard (the splitter
// tells where its shard ends); Next seeks past every key with that shard's
// prefix (shards are prefix-free). entries() shares the iterator, so the
// shard's first entries are already read. Not thread-safe.
class LevelDbShardCursor final : public ShardCursor {
 public:
  LevelDbShardCursor(std::unique_ptr<leveldb::Iterator> it, std::string_view space,
                     ShardSplitter split);

  void SetUpperBound(std::string_view end) override { end_.assign(end); }
  bool Valid() const override { return valid_; }
  void Seek(std::string_view shard) override;
  void Next() override;
  std::string_view shard() const override;
  Cursor& entries() override { return entries_; }
  Status status() const override;

 private:
  // Takes the shard of the key at it_, if it is of this space.
  void Settle();

  std::unique_ptr<leveldb::Iterator> it_;
  const std::string space_;
  const ShardSplitter split_;
  LevelDbCursor entries_;
  std::string prefix_;  // space || current shard
  std::string end_;     // SetUpperBound's; empty: none
  bool valid_ = false;
  Status status_;
};

}  // namespace cellfs::storage
