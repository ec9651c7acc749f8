// Address: where an entry lives in storage, as (space, shard, key). The
// storage seam's unit of addressing (docs/STORAGE_SEAM.md).
#pragma once

#include <string_view>

namespace cellfs::storage {

// A space is one kind of content (a table's data, the expiry index, the
// catalog, metadata); a shard is what a backend keeps together and commits
// atomically (a partition); the key orders entries inside a shard. Order is
// memcmp at every level. Shards of one space must be prefix-free (no shard
// is a proper prefix of another), as encoded partition keys are.
//
// The views are not owned: they must outlive every call the address is
// passed to, and no longer.
struct Address {
  std::string_view space;
  std::string_view shard;
  std::string_view key;
};

// One shard of a space.
struct ShardAddress {
  std::string_view space;
  std::string_view shard;
};

}  // namespace cellfs::storage
