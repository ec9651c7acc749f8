// InsertBatcher: applies the records of a bulk load (fs/formats/insert_parser.h) to
// the engine in batches, keeping every valid record and reporting each bad
// one with its line number. Shared by TABLE/@insert and `cellfs load
// --offline`.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/status.h"
#include "fs/formats/batch_applier.h"
#include "fs/formats/insert_parser.h"
#include "fs/formats/touched_rows.h"

namespace cellfs::fs {

// Not thread-safe (one per load).
class InsertBatcher {
 public:
  // A batch is applied once it holds this many encoded bytes.
  static constexpr size_t kBatchBytes = 1u << 20;

  // `engine` must outlive the batcher. `track_touched`: keep the rows of
  // applied batches for TakeTouchedRows (a caller that never takes them,
  // an offline load, passes false so they do not pile up).
  InsertBatcher(Engine* engine, TableHandle table, bool track_touched = true);
  ~InsertBatcher();

  // Adds one record's outcome. A refused record (`row` not ok) or one whose
  // write fails validation is reported ("line N: message") and nothing of
  // it is stored; a valid one joins the current batch. A full batch is
  // applied by the batcher's BatchApplier (one thread for the whole load)
  // while the next one fills (at most one in flight, applied in order), so
  // parsing and storing overlap; a batch
  // that fails to apply (IOError, the table dropped meanwhile) has its
  // lines reported by the call that finds it done.
  void Add(uint64_t line, Result<InsertRow>&& row);

  // Waits for the batch in flight, then applies the current one. Returns
  // the first apply error since the last Flush.
  Status Flush();

  uint64_t rows_stored() const { return rows_stored_; }
  // Every report so far, one per bad record, in the order found (a batch
  // that fails to apply is found after later lines were checked):
  // "line 3: column 'age': invalid int value 'x'\n".
  const std::string& errors() const { return errors_; }
  uint64_t error_count() const { return error_count_; }
  // Moves into *out (emptied first) the rows of the batches applied since
  // the last call, in input order (a row written twice appears twice), for
  // the caller's invalidations. Memory: about the keys of the batches
  // applied between two calls.
  void TakeTouchedRows(TouchedRows* out);

 private:
  void Report(uint64_t line, const std::string& message);
  // Starts applying the current batch (after the one in flight is done).
  void Launch();
  // Waits for the batch in flight and accounts for it.
  void Collect();

  struct BatchKeys;  // hashes of the rows in the current batch
  struct InFlight;   // the batch being applied and its lines

  Engine* engine_;
  TableHandle table_;
  std::optional<Mutation> batch_;
  std::vector<uint64_t> batch_lines_;
  bool track_touched_;
  TouchedRows touched_;          // of the current batch
  TouchedRows applied_touched_;  // of applied batches
  std::vector<size_t> columns_scratch_;
  std::unique_ptr<BatchKeys> keys_;
  std::unique_ptr<InFlight> in_flight_;
  Status first_error_;  // since the last Flush
  uint64_t rows_stored_ = 0;
  uint64_t error_count_ = 0;
  std::string errors_;
  BatchApplier applier_;  // declared last: destroyed (its thread joined) first
};

}  // namespace cellfs::fs
