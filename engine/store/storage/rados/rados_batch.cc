// RadosBatch and CommitRadosBatch (engine/store/storage/rados/rados_batch.h).
#include "engine/store/storage/rados/rados_batch.h"

#include <cerrno>
#include <memory>
#include <set>
#include <vector>

#include "engine/store/storage/rados/rados_layout.h"
#include "engine/store/storage/rados/rados_status.h"

namespace cellfs::storage {

void RadosBatch::Put(const Address& at, std::string_view value) {
  if (!at.shard.empty()) shards_put_.emplace(at.space, at.shard);
  Write(at, std::string(value));
}

void RadosBatch::Delete(const Address& at) { Write(at, std::nullopt); }

void RadosBatch::PutRaw(const std::string& object, std::string key, std::string value) {
  bytes_ += key.size() + value.size();
  writes_[object][std::move(key)] = std::move(value);
}

void RadosBatch::DeleteRaw(const std::string& object, std::string key) {
  bytes_ += key.size();
  writes_[object][std::move(key)] = std::nullopt;
}

void RadosBatch::Write(const Address& at, std::optional<std::string> value) {
  NoteSpace(at.space);
  RadosLocation where = Locate({at.space, at.shard});
  std::string key = std::move(where.key_prefix);
  key.append(at.key);
  bytes_ += key.size() + (value ? value->size() : 0);
  writes_[where.object][std::move(key)] = std::move(value);
}

void RadosBatch::NoteSpace(std::string_view space) {
  for (const std::string& seen : spaces_) {
    if (seen == space) return;
  }
  spaces_.emplace_back(space);
}

void RadosBatch::Clear() {
  writes_.clear();
  spaces_.clear();
  shards_put_.clear();
  bytes_ = 0;
}

Status CommitRadosBatch(librados::IoCtx& io, const RadosBatch& batch, bool* transient) {
  if (transient != nullptr) *transient = true;
  struct InFlight {
    const std::string* object;
    bool removes_only = false;
    librados::ObjectWriteOperation op;
    std::unique_ptr<librados::AioCompletion> done;
  };
  std::vector<std::unique_ptr<InFlight>> ops;
  for (const auto& [object, writes] : batch.writes()) {
    auto flight = std::make_unique<InFlight>();
    flight->object = &object;
    std::map<std::string, librados::bufferlist> sets;
    std::set<std::string> removes;
    for (const auto& [key, value] : writes) {
      if (value) {
        sets[key].append(*value);
      } else {
        removes.insert(key);
      }
    }
    // Removing keys from an object that does not exist fails the whole
    // operation: with puts beside them the object is made first; removals
    // alone from no object remove nothing (ENOENT is success below).
    flight->removes_only = sets.empty();
    if (!removes.empty() && !sets.empty()) flight->op.create(/*exclusive=*/false);
    if (!removes.empty()) flight->op.omap_rm_keys(removes);
    if (!sets.empty()) flight->op.omap_set(sets);
    flight->done.reset(librados::Rados::aio_create_completion());
    const int started = io.aio_operate(object, flight->done.get(), &flight->op);
    if (started < 0) {
      for (auto& earlier : ops) earlier->done->wait_for_complete();
      if (transient != nullptr) *transient = IsTransientRadosError(started);
      return FromRados(started, "writing " + object);
    }
    ops.push_back(std::move(flight));
  }
  Status first;
  for (auto& flight : ops) {
    flight->done->wait_for_complete();
    const int result = flight->done->get_return_value();
    if (result == -ENOENT && flight->removes_only) continue;
    if (result < 0 && transient != nullptr && !IsTransientRadosError(result)) *transient = false;
    if (first.ok() && result < 0) first = FromRados(result, "writing " + *flight->object);
  }
  return first;
}

}  // namespace cellfs::storage
