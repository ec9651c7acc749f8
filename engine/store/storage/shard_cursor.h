// ShardCursor: the shards of one space in order, each with a cursor over its
// entries.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "engine/status.h"
#include "engine/store/storage/cursor.h"

namespace cellfs::storage {

// Where a shard ends: given what follows the space in a stored key (shard
// then key), sets *length to the shard's byte length. Corruption when the
// bytes are not of this space. Backends that store shards apart never call
// it; a backend that stores one ordered key space (LevelDB) must.
using ShardSplitter = std::function<Status(std::string_view shard_and_key, size_t* length)>;

// Visits the shards that hold entries, in shard order. Not thread-safe; must
// not outlive its read point or its Storage.
class ShardCursor {
 public:
  virtual ~ShardCursor() = default;

  // Shards at or after `end` are not visited; an empty `end` (the default)
  // bounds nothing. Takes effect at the next Seek. A backend that lists
  // shards from an index of its own (RADOS) then reads only the part of it
  // below `end`, so a walk of a space's first shards costs no more than
  // they do.
  virtual void SetUpperBound(std::string_view end) = 0;

  // True when at a shard. Invalid with status() ok: no more shards.
  virtual bool Valid() const = 0;
  // The first shard >= `shard`.
  virtual void Seek(std::string_view shard) = 0;
  // The first shard after the current one. REQUIRES: Valid().
  virtual void Next() = 0;
  // REQUIRES: Valid(). Lasts until the cursor moves.
  virtual std::string_view shard() const = 0;
  // The current shard's entries, positioned at its first (prefetched where
  // the backend can). Moving it does not move the shard cursor; Seek or
  // Next repositions it. REQUIRES: Valid().
  virtual Cursor& entries() = 0;

  virtual Status status() const = 0;
};

}  // namespace cellfs::storage
