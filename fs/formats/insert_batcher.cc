// InsertBatcher (fs/formats/insert_batcher.h): records into batched mutations, a
// batch applied by the BatchApplier's thread while the next fills, a report
// line per refused record.
#include "fs/formats/insert_batcher.h"

#include <xxhash.h>

#include <algorithm>

namespace cellfs::fs {
namespace {

// A hash of the row's whole key, to see a row repeated within a batch.
uint64_t RowKeyHash(const InsertRow& row) {
  uint64_t hash = 0;
  for (const auto* part : {&row.partition_key, &row.clustering}) {
    for (const std::string& value : *part) {
      hash = XXH3_64bits_withSeed(value.data(), value.size(), hash ^ value.size());
    }
    hash = XXH3_64bits_withSeed("|", 1, hash);  // (a) and () differ from () and (a)
  }
  return hash;
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

// The hashes of the current batch's row keys: open addressing over a
// power-of-two table kept at most half full, emptied by a fill of zeros
// between batches (no allocation per row). Hashes only: a collision merely
// ends a batch early.
struct InsertBatcher::BatchKeys {
  std::vector<uint64_t> slots = std::vector<uint64_t>(1u << 12, 0);
  size_t used = 0;

  // Adds `hash`; false when it was there already.
  bool Insert(uint64_t hash) {
    if (hash == 0) hash = 1;  // 0 marks an empty slot
    if (2 * (used + 1) > slots.size()) Grow();
    const size_t mask = slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      if (slots[i] == hash) return false;
      if (slots[i] == 0) {
        slots[i] = hash;
        ++used;
        return true;
      }
    }
  }
  bool Contains(uint64_t hash) const {
    if (hash == 0) hash = 1;
    const size_t mask = slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      if (slots[i] == hash) return true;
      if (slots[i] == 0) return false;
    }
  }
  void Clear() {
    std::fill(slots.begin(), slots.end(), 0);
    used = 0;
  }
  void Grow() {
    std::vector<uint64_t> old = std::exchange(slots, std::vector<uint64_t>(2 * slots.size(), 0));
    used = 0;
    for (uint64_t hash : old) {
      if (hash != 0) Insert(hash);
    }
  }
};

struct InsertBatcher::InFlight {
  std::vector<uint64_t> lines;
  TouchedRows touched;
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
  const uint64_t key_hash = RowKeyHash(insert);
  if (keys_->Contains(key_hash)) Launch();
  if (!batch_) batch_.emplace(engine_->NewMutation());
  Status s = AddRecord(table_, insert, &*batch_);
  if (!s.ok()) {
    Report(line, s.message());
    return;
  }
  keys_->Insert(key_hash);
  batch_lines_.push_back(line);
  if (track_touched_) {
    columns_scratch_.clear();
    for (const ColumnValue& cell : insert.cells) columns_scratch_.push_back(cell.column);
    touched_.Add(insert.partition_key, insert.clustering, columns_scratch_);
  }
  if (batch_->byte_size() >= kBatchBytes) Launch();
}

void InsertBatcher::Launch() {
  Collect();  // one batch in flight at a time, applied in order
  keys_->Clear();
  if (!batch_ || batch_->empty()) {
    batch_.reset();
    return;
  }
  in_flight_ = std::make_unique<InFlight>();
  in_flight_->lines = std::exchange(batch_lines_, {});
  std::swap(in_flight_->touched, touched_);
  applier_.Start(std::move(*batch_));
  batch_.reset();
}

void InsertBatcher::Collect() {
  if (!in_flight_) return;
  Status s = applier_.Wait();
  if (s.ok()) {
    rows_stored_ += in_flight_->lines.size();
    applied_touched_.Append(in_flight_->touched);
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

void InsertBatcher::TakeTouchedRows(TouchedRows* out) {
  out->clear();
  std::swap(*out, applied_touched_);
}

void InsertBatcher::Report(uint64_t line, const std::string& message) {
  ++error_count_;
  errors_ += "line " + std::to_string(line) + ": " + message + "\n";
}

}  // namespace cellfs::fs
