// Batch and Durability: writes collected to be committed together.
#pragma once

#include <cstddef>
#include <string_view>

#include "engine/store/storage/address.h"

namespace cellfs::storage {

// How durable Storage::Commit makes a batch before returning.
enum class Durability {
  kNone,    // applied and visible; durable at the next SyncCommitted
  kSynced,  // durable (survives an OS crash) before Commit returns
};

// Puts and deletes addressed by (space, shard, key), applied in order.
// Storage::Commit applies a batch atomically per shard always, and across
// shards when StorageCapabilities::atomic_across_shards. Made by
// Storage::NewBatch; not thread-safe.
class Batch {
 public:
  virtual ~Batch() = default;

  // Copies the address and value.
  virtual void Put(const Address& at, std::string_view value) = 0;
  virtual void Delete(const Address& at) = 0;
  // Empties the batch, keeping its memory.
  virtual void Clear() = 0;
  // Roughly the bytes the batch holds.
  virtual size_t ApproximateSize() const = 0;
  // True when nothing was put or deleted since made or cleared.
  virtual bool empty() const = 0;
};

}  // namespace cellfs::storage
