// InsertBatcher (fs/formats/insert_batcher.h): records into batched mutations, a
// batch applied by the BatchApplier's thread while the next fills, a report
// line per refused record.
#include "fs/formats/insert_batcher.h"

#include <functional>
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
  // Hashes only: a collision merely ends a batch early.
  std::unordered_set<size_t> rows;
};

struct InsertBatcher::InFlight {
  std::vector<uint64_t> lines;
  std::vector<TouchedRow> touched;
};

InsertBatcher::InsertBatcher(Engine* engine, TableHandle table, bool track_touched)
    : engine_(engine),
      table_(std::move(table)),
      track_touched_(track_touched),
      keys_(std::make_unique<BatchKeys>()),
      applier_(engine) {}

InsertBatcher::~InsertBatcher() { Collect(); }

void InsertBatcher::Add(uint64_t line, Result<InsertRow>&& row) {
  if (!row.ok()) {
    Report(line, row.status().message());
    return;
  }
  const InsertRow& insert = row.value();
  // A batch shares one write time, so two writes of one row in a batch
  // would tie; the later line must win, so it starts a new batch.
  RowKey(insert, &key_scratch_);
  size_t key_hash = std::hash<std::string>{}(key_scratch_);
  if (keys_->rows.count(key_hash) != 0) Launch();
  if (!batch_) batch_.emplace(engine_->NewMutation());
  Status s = batch_->Insert(table_, insert.partition_key, insert.clustering, insert.cells,
                            insert.attributes);
  if (!s.ok()) {
    Report(line, s.message());
    return;
  }
  keys_->rows.insert(key_hash);
  batch_lines_.push_back(line);
  if (track_touched_) {
    TouchedRow& touched = touched_.emplace_back();
    touched.partition_key = insert.partition_key;
    touched.clustering = insert.clustering;
    touched.columns.reserve(insert.cells.size());
    for (const ColumnValue& cell : insert.cells) touched.columns.push_back(cell.column);
  }
  if (batch_->byte_size() >= kBatchBytes) Launch();
}

void InsertBatcher::Launch() {
  Collect();  // one batch in flight at a time, applied in order
  keys_->rows.clear();
  if (!batch_ || batch_->empty()) {
    batch_.reset();
    return;
  }
  in_flight_ = std::make_unique<InFlight>();
  in_flight_->lines = std::exchange(batch_lines_, {});
  in_flight_->touched = std::exchange(touched_, {});
  applier_.Start(std::move(*batch_));
  batch_.reset();
}

void InsertBatcher::Collect() {
  if (!in_flight_) return;
  Status s = applier_.Wait();
  if (s.ok()) {
    rows_stored_ += in_flight_->lines.size();
    for (TouchedRow& row : in_flight_->touched) applied_touched_.push_back(std::move(row));
  } else {
    for (uint64_t line : in_flight_->lines) Report(line, "not stored: " + s.message());
    if (first_error_.ok()) first_error_ = s;
  }
  in_flight_.reset();
}

Status InsertBatcher::Flush() {
  Launch();
  Collect();
  return std::exchange(first_error_, Status::Ok());
}

std::vector<TouchedRow> InsertBatcher::TakeTouchedRows() {
  return std::exchange(applied_touched_, {});
}

void InsertBatcher::Report(uint64_t line, const std::string& message) {
  ++error_count_;
  errors_ += "line " + std::to_string(line) + ": " + message + "\n";
}

}  // namespace cellfs::fs
