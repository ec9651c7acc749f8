// The inside of a Mutation: the storage batch and the ids of the tables it
// writes (Engine::Apply checks they still exist).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/store/internal/view_entries.h"
#include "engine/store/mutation.h"
#include "engine/store/row_fragment.h"
#include "engine/store/storage/storage.h"

namespace cellfs {

// A row fragment rebuilt for every operation without giving back its
// memory: cells and their value strings keep their capacity, so a bulk load
// of rows of one shape allocates nothing per row once warm.
class FragmentBuilder {
 public:
  void Reset() {
    fragment_.marker.reset();
    fragment_.deletion.reset();
    used_ = 0;
  }
  // A cell slot to fill in; every field must be set.
  RowCell& AddCell() {
    if (used_ == fragment_.cells.size()) fragment_.cells.emplace_back();
    return fragment_.cells[used_++];
  }
  // Drops unused slots and sorts the cells by column id. Returns the id
  // given twice, if any (0 when none: ids start at 1).
  uint32_t Finish();
  RowFragment& fragment() { return fragment_; }
  bool empty() const { return used_ == 0 && !fragment_.marker && !fragment_.deletion; }

 private:
  RowFragment fragment_;
  size_t used_ = 0;
};

struct Mutation::Batch {
  explicit Batch(std::unique_ptr<storage::Batch> puts) : batch(std::move(puts)) {}

  std::unique_ptr<storage::Batch> batch;
  std::vector<uint32_t> table_ids;  // distinct; usually one
  // Parallel to table_ids: IndexFingerprint of the schema each was written
  // with. Apply refuses a batch whose table's indexes or views changed
  // since, so no write lands without the entries of one that exists.
  std::vector<uint64_t> index_fingerprints;
  bool mixed_index_sets = false;
  // Scratch buffers reused by every operation.
  std::string key;
  std::string value;
  std::string index_key;
  std::string prefix;
  std::string row_group;
  std::string group;
  std::vector<std::string> index_values;  // secondary-index values of one fragment
  std::string index_entry;
  storage::ViewEntryScratch view_entry;  // materialized-view entries of one fragment
  FragmentBuilder row;
  FragmentBuilder static_row;

  // Empties the batch for reuse, keeping the memory of its buffers.
  void Clear() {
    batch->Clear();
    table_ids.clear();
    index_fingerprints.clear();
    mixed_index_sets = false;
  }
};

// Applied batches kept for the next mutations, so a stream of small
// mutations does not allocate its buffers anew each time. Thread-safe.
class BatchPool {
 public:
  // New batches come from `storage`, which outlives this.
  explicit BatchPool(storage::Storage* storage) : storage_(storage) {}

  std::unique_ptr<Mutation::Batch> Take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<Mutation::Batch> batch = std::move(free_.back());
        free_.pop_back();
        return batch;
      }
    }
    return std::make_unique<Mutation::Batch>(storage_->NewBatch());
  }

  // Keeps `batch` unless the pool is full or the batch grew large (a bulk
  // load's megabytes are not worth holding on to).
  void Give(std::unique_ptr<Mutation::Batch> batch) {
    if (batch == nullptr || batch->batch->ApproximateSize() > kMaxKeptBytes) return;
    batch->Clear();
    std::lock_guard lock(mutex_);
    if (free_.size() < kMaxKept) free_.push_back(std::move(batch));
  }

 private:
  static constexpr size_t kMaxKept = 16;
  static constexpr size_t kMaxKeptBytes = 1u << 20;

  storage::Storage* const storage_;
  std::mutex mutex_;  // guards free_
  std::vector<std::unique_ptr<Mutation::Batch>> free_;
};

}  // namespace cellfs
