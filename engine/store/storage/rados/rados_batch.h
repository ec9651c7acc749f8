// RadosBatch: a storage::Batch for the RADOS backend, its writes grouped by
// object; CommitRadosBatch applies it, one atomic object operation per
// object (docs/SCALEOUT.md "Commits").
#pragma once

#include <map>
#include <optional>
#include <rados/librados.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/store/storage/batch.h"

namespace cellfs::storage {

class RadosBatch final : public Batch {
 public:
  void Put(const Address& at, std::string_view value) override;
  void Delete(const Address& at) override;
  void Clear() override;
  size_t ApproximateSize() const override { return bytes_; }
  bool empty() const override { return writes_.empty(); }

  // Writes an omap key of an object by name (the backend's own objects:
  // partition indexes, the batch log's replays).
  void PutRaw(const std::string& object, std::string key, std::string value);
  void DeleteRaw(const std::string& object, std::string key);

  // Per object, per omap key: the value to set, or nullopt to remove. A key
  // written twice keeps its last write, as applying in order would.
  using ObjectWrites = std::map<std::string, std::optional<std::string>>;
  const std::map<std::string, ObjectWrites>& writes() const { return writes_; }
  // The distinct spaces written through Put and Delete, in first-write order.
  const std::vector<std::string>& spaces() const { return spaces_; }
  // Each non-empty shard that Put wrote into, as its space and shard bytes
  // (what a partition index lists: docs/SCALEOUT.md "Partition listings").
  using ShardKey = std::pair<std::string, std::string>;
  const std::set<ShardKey>& shards_put() const { return shards_put_; }

 private:
  void Write(const Address& at, std::optional<std::string> value);

  void NoteSpace(std::string_view space);

  std::map<std::string, ObjectWrites> writes_;  // by object name
  std::vector<std::string> spaces_;
  std::set<ShardKey> shards_put_;
  size_t bytes_ = 0;
};

// Applies `batch` through `io`: every object's writes as one operation
// (omap_set and omap_rm_keys), the objects' operations in flight together.
// Each object's writes land whole or not at all; across objects nothing is
// atomic: on error, some objects may hold their writes (the batch log makes
// that whole, docs/SCALEOUT.md). Returns the first object's error; sets
// *transient (when given) to whether every failure may pass if the batch
// is applied again (IsTransientRadosError).
Status CommitRadosBatch(librados::IoCtx& io, const RadosBatch& batch, bool* transient = nullptr);

}  // namespace cellfs::storage
