// ForgetEmptyRadosShards: RadosStorage::ForgetEmptyShards's work
// (docs/SCALEOUT.md "Expiry index"): a space's listed shards below a bound
// that hold nothing are taken out of the space's partition index, and
// their objects removed, so that listings stop reading them.
#pragma once

#include <rados/librados.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace cellfs::storage {

// For each shard of `space` the partition index lists below `end` (empty:
// every shard), up to `*budget` of them (when given; each lowers it), that
// holds no entry: removes its object when nothing else
// lives in it (a removal guarded by the version read, so a write that
// lands in between keeps the object), then its index key, and appends it
// to `*forgotten`. A shard holding an entry, or whose object changed
// between the read and the removal, stays as it is.
//
// Not atomic against writers: a mount that writes into such a shard after
// its object is gone makes the object again, and adds the index key only
// if it has not indexed the shard before (RadosStorage remembers the shards
// it indexed). The caller forgets only shards no one writes into any more
// (expiry buckets past by a whole bucket, docs/SCALEOUT.md).
Status ForgetEmptyRadosShards(librados::IoCtx& io, std::string_view space, std::string_view end,
                              size_t* budget, std::vector<std::string>* forgotten);

}  // namespace cellfs::storage
