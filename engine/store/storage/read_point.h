// ReadPoint: a consistent view of storage that cursors and point reads read
// at, held until released.
#pragma once

namespace cellfs::storage {

// What a read point guarantees is the backend's (StorageCapabilities): with
// `consistent_across_shards`, every read at one point sees one state of the
// whole store (LevelDB: a snapshot); without, each shard read is consistent
// in itself. Reads at no point (nullptr) see the latest state. Made by
// Storage::NewReadPoint; immutable; thread-safe. Must not outlive its
// Storage.
class ReadPoint {
 public:
  virtual ~ReadPoint() = default;
};

}  // namespace cellfs::storage
