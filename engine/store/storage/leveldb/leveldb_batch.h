// LevelDbBatch: a storage::Batch kept as a leveldb::WriteBatch of
// space || shard || key entries, with the spaces it writes (for watches).
#pragma once

#include <leveldb/write_batch.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/store/storage/batch.h"
#include "engine/store/storage/leveldb/leveldb_key.h"

namespace cellfs::storage {

// Not thread-safe.
class LevelDbBatch final : public Batch {
 public:
  void Put(const Address& at, std::string_view value) override {
    Note(at.space);
    if (auto whole = Contiguous(at)) {
      rep_.Put(ToSlice(*whole), ToSlice(value));  // the engine's data keys: no copy
      return;
    }
    key_.clear();
    AppendLevelDbKey(at, &key_);
    rep_.Put(key_, ToSlice(value));
  }
  void Delete(const Address& at) override {
    Note(at.space);
    key_.clear();
    AppendLevelDbKey(at, &key_);
    rep_.Delete(key_);
  }
  void Clear() override {
    rep_.Clear();
    spaces_.clear();
  }
  size_t ApproximateSize() const override { return rep_.ApproximateSize(); }
  bool empty() const override { return spaces_.empty(); }

  leveldb::WriteBatch* rep() { return &rep_; }
  // The distinct spaces written, in first-write order.
  const std::vector<std::string>& spaces() const { return spaces_; }

 private:
  // The LevelDB key itself when the address's parts are adjacent views of
  // one buffer (space || shard || key already laid out), as the engine's
  // data and expiry addresses are.
  static std::optional<std::string_view> Contiguous(const Address& at) {
    if (at.space.data() + at.space.size() != at.shard.data() ||
        at.shard.data() + at.shard.size() != at.key.data()) {
      return std::nullopt;
    }
    return std::string_view(at.space.data(), at.space.size() + at.shard.size() + at.key.size());
  }

  void Note(std::string_view space) {
    for (const std::string& seen : spaces_) {
      if (seen == space) return;
    }
    spaces_.emplace_back(space);
  }

  leveldb::WriteBatch rep_;
  std::vector<std::string> spaces_;
  std::string key_;  // scratch
};

}  // namespace cellfs::storage
