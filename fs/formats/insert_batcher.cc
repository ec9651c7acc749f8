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

// A counter's serialized value (8 bytes, big-endian) as the delta to add.
int64_t CounterDelta(const std::string& value) {
  uint64_t bits = 0;
  for (char byte : value) bits = (bits << 8) | static_cast<uint8_t>(byte);
  return static_cast<int64_t>(bits);
}

// One record into `batch`: an INSERT; the static row alone (an UPDATE of
// static cells, no row marker) for a static-only record; additions for a
// counter table, as cqlsh COPY FROM does. Unchanged on error.
Status AddRecord(const TableHandle& table, const InsertRow& row, Mutation* batch) {
  if (!table->def.has_counters()) {
    return row.static_only
               ? batch->Update(table, row.partition_key, {}, row.cells, row.attributes)
               : batch->Insert(table, row.partition_key, row.clustering, row.cells, row.attributes);
  }
  for (const ColumnValue& cell : row.cells) {  // every value checked before any is added
    if (!cell.value || cell.value->size() != 8) {
      return Status::InvalidArgument("counter column " + table->column(cell.column).name +
                                     " needs a number");
    }
  }
  if (row.cells.empty()) return Status::InvalidArgument("no counter to add to");
  std::span<const std::string> clustering = row.clustering;
  // What AddToCounter refuses (a TTL, a timestamp, a column of the wrong
  // kind) is the same for every cell of a record whose keys were checked,
  // so a refusal comes at the first add, while the batch is unchanged.
  for (const ColumnValue& cell : row.cells) {
    CELLFS_RETURN_IF_ERROR(batch->AddToCounter(table, row.partition_key, clustering, cell.column,
                                               CounterDelta(*cell.value), row.attributes));
  }
  return Status::Ok();
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
  Status s = AddRecord(table_, insert, &*batch_);
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
