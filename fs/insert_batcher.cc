// InsertBatcher (fs/insert_batcher.h): records into batched mutations, a
// report line per refused record.
#include "fs/insert_batcher.h"

#include <unordered_set>

namespace cellfs::fs {
namespace {

// The row's whole key as one string, to see a row repeated within a batch.
void RowKey(const InsertRow& row, std::string* out) {
  out->clear();
  for (const auto* part : {&row.partition_key, &row.clustering}) {
    for (const std::string& value : *part) {
      out->append(std::to_string(value.size()));
      out->push_back(':');
      out->append(value);
    }
    out->push_back('|');
  }
}

}  // namespace

struct InsertBatcher::BatchKeys {
  std::unordered_set<std::string> rows;
};

InsertBatcher::InsertBatcher(Engine* engine, TableHandle table)
    : engine_(engine), table_(std::move(table)), keys_(std::make_unique<BatchKeys>()) {}

InsertBatcher::~InsertBatcher() = default;

void InsertBatcher::Add(uint64_t line, Result<InsertRow>&& row) {
  if (!row.ok()) {
    Report(line, row.status().message());
    return;
  }
  const InsertRow& insert = row.value();
  // A batch shares one write time, so two writes of one row in a batch
  // would tie; the later line must win, so it starts a new batch.
  RowKey(insert, &key_scratch_);
  if (keys_->rows.count(key_scratch_) != 0) (void)Flush();
  if (!batch_) batch_.emplace(engine_->NewMutation());
  Status s = batch_->Insert(table_, insert.partition_key, insert.clustering, insert.cells,
                            insert.attributes);
  if (!s.ok()) {
    Report(line, s.message());
    return;
  }
  keys_->rows.insert(key_scratch_);
  batch_lines_.push_back(line);
  if (touched_.empty() || touched_.back() != insert.partition_key) {
    touched_.push_back(insert.partition_key);
  }
  if (batch_->byte_size() >= kBatchBytes) (void)Flush();
}

Status InsertBatcher::Flush() {
  if (!batch_ || batch_->empty()) return Status::Ok();
  Status s = engine_->Apply(std::move(*batch_));
  batch_.reset();
  keys_->rows.clear();
  if (s.ok()) {
    rows_stored_ += batch_lines_.size();
  } else {
    for (uint64_t line : batch_lines_) Report(line, "not stored: " + s.message());
  }
  batch_lines_.clear();
  return s;
}

std::vector<std::vector<std::string>> InsertBatcher::TakeTouchedPartitions() {
  return std::exchange(touched_, {});
}

void InsertBatcher::Report(uint64_t line, const std::string& message) {
  ++error_count_;
  errors_ += "line " + std::to_string(line) + ": " + message + "\n";
}

}  // namespace cellfs::fs
