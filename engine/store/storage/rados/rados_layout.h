// Where the RADOS backend keeps an entry (docs/SCALEOUT.md "Objects"): a
// shard is one object, and a partition's data and buried rows share it, as
// two key ranges, so that a bury stays one atomic object operation.
#pragma once

#include <string>

#include "engine/store/storage/address.h"

namespace cellfs::storage {

struct RadosLocation {
  std::string object;      // the object's name in the pool
  std::string key_prefix;  // what the shard's keys carry in the object's omap
};

// A data (`'D' || u32 table`) or buried (`'B' || u32 table`) shard: object
// "p.<hex table>.<hex shard>", keys prefixed with the space's tag byte.
// Any other space: object "o.<hex space>.<hex shard>", keys as they are.
// Distinct shards get distinct (object, prefix) pairs.
RadosLocation Locate(const ShardAddress& shard);

// The space of an object Locate named "o.<hex space>.<hex shard>"; false
// for any other object (a partition's, the backend's own).
bool SpaceOfObject(std::string_view object, std::string* space);

// The partition index object that lists `shard` (non-empty) of `space`:
// "i.<hex space>.<hex first shard byte>", 256 per space, whose omap keys
// are the shards themselves (docs/SCALEOUT.md "Partition listings").
std::string IndexObject(std::string_view space, unsigned char first_shard_byte);

// The names of the backend's own objects.
std::string LogObject(std::string_view mount_id);  // "log.<mount id>"
inline constexpr std::string_view kLogRegistryObject = "logs";
std::string LeaseObject(std::string_view name);   // "lease.<hex name>"
std::string WatchObject(std::string_view space);  // "w.<hex space>"

}  // namespace cellfs::storage
