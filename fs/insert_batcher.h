// InsertBatcher: applies the records of a bulk load (fs/insert_parser.h) to
// the engine in batches, keeping every valid record and reporting each bad
// one with its line number. Shared by TABLE/@insert and `cellfs load
// --offline`.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/status.h"
#include "fs/insert_parser.h"

namespace cellfs::fs {

// Not thread-safe (one per load).
class InsertBatcher {
 public:
  // A batch is applied once it holds this many encoded bytes.
  static constexpr size_t kBatchBytes = 1u << 20;

  // `engine` must outlive the batcher.
  InsertBatcher(Engine* engine, TableHandle table);
  ~InsertBatcher();

  // Adds one record's outcome. A refused record (`row` not ok) or one whose
  // write fails validation is reported ("line N: message") and nothing of
  // it is stored; a valid one joins the current batch. A full batch is
  // applied on a thread of its own while the next one fills (at most one
  // in flight, applied in order), so parsing and storing overlap; a batch
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
  // Partition keys of the batches applied since the last call (each once
  // per batch), for the caller's invalidations; cleared by the call.
  std::vector<std::vector<std::string>> TakeTouchedPartitions();

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
  std::vector<std::vector<std::string>> touched_;          // of the current batch
  std::vector<std::vector<std::string>> applied_touched_;  // of applied batches
  std::unique_ptr<BatchKeys> keys_;
  std::string key_scratch_;
  std::unique_ptr<InFlight> in_flight_;
  Status first_error_;  // since the last Flush
  uint64_t rows_stored_ = 0;
  uint64_t error_count_ = 0;
  std::string errors_;
};

}  // namespace cellfs::fs
