// RadosBatch: a storage::Batch for the RADOS backend, its writes grouped by
// object; CommitRadosBatch applies it, one atomic object operation per
// object (docs/SCALEOUT.md "Commits").
#pragma once

#include <map>
#include <optional>
#include <rados/librados.hpp>
#include <string>

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

  // Per object, per omap key: the value to set, or nullopt to remove. A key
  // written twice keeps its last write, as applying in order would.
  using ObjectWrites = std::map<std::string, std::optional<std::string>>;
  const std::map<std::string, ObjectWrites>& writes() const { return writes_; }

 private:
  void Write(const Address& at, std::optional<std::string> value);

  std::map<std::string, ObjectWrites> writes_;  // by object name
  size_t bytes_ = 0;
};

// Applies `batch` through `io`: every object's writes as one operation
// (omap_set and omap_rm_keys), the objects' operations in flight together.
// Each object's writes land whole or not at all; across objects nothing is
// atomic: on error, some objects may hold their writes (the batch log makes
// that whole, docs/SCALEOUT.md). Returns the first object's error.
Status CommitRadosBatch(librados::IoCtx& io, const RadosBatch& batch);

}  // namespace cellfs::storage
