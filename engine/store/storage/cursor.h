// Cursor: the entries of one shard in key order, forward and backward, at a
// read point.
#pragma once

#include <string_view>

#include "engine/status.h"

namespace cellfs::storage {

// A cursor never leaves its shard: stepping past either end, or seeking
// beyond it, makes it invalid. Keys are the keys inside the shard (without
// space and shard). Made by Storage::NewCursor (or ShardCursor::entries);
// not thread-safe; must not outlive its read point or its Storage.
class Cursor {
 public:
  virtual ~Cursor() = default;

  // True when at an entry of the shard. Invalid with status() ok means the
  // walk ran off the shard; with an error, a read failed.
  virtual bool Valid() const = 0;

  // The first entry whose key is >= `key`.
  virtual void Seek(std::string_view key) = 0;
  // The last entry whose key is < `key` (where a backward walk from `key`,
  // exclusive, starts).
  virtual void SeekBefore(std::string_view key) = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;

  // REQUIRES: Valid().
  virtual void Next() = 0;
  virtual void Prev() = 0;
  // REQUIRES: Valid(). The views last until the cursor moves.
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;

  // The error that stopped the cursor; ok otherwise.
  virtual Status status() const = 0;
};

}  // namespace cellfs::storage
