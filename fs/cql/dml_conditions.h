// ConditionalRequest: the IF clauses of a conditional statement or batch
// (IF NOT EXISTS, IF EXISTS, IF col op value...) checked against one
// partition's current state, as Cassandra's lightweight transactions check
// them on one node, and the "[applied]" result cqlsh prints. Internal to
// fs/cql; dml_executor.cc runs the request under a per-partition lock
// (docs/CQL.md "Conditional statements").
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/dml_statement.h"
#include "engine/engine.h"
#include "engine/status.h"

namespace cellfs::fs {

// One statement of the request, as the executor learnt it from a dry run of
// the statement's writes: which row of the partition it writes (or the
// static row), and which kinds of columns.
struct ConditionalStatement {
  const ConditionClause* conditions = nullptr;  // never null; may be kNone in a batch
  std::vector<std::string> clustering;          // the row; empty with `static_row`
  bool static_row = false;                      // the statement applies to the static row only
  bool updates_static = false;                  // it writes a static column
  bool updates_regular = false;   // it writes a regular row (its cells, marker or deletion)
  bool partition_delete = false;  // a DELETE of the partition or of a range of rows
};

// Not thread-safe; one per conditional statement run.
class ConditionalRequest {
 public:
  // REQUIRES: every statement of `statements` is on `table` and
  // `partition_key`. `batch`: a BATCH (the failure result then also shows
  // the primary key columns).
  ConditionalRequest(TableHandle table, std::vector<std::string> partition_key, bool batch);
  ~ConditionalRequest();

  // Types `statement`'s conditions against the table, with Cassandra's
  // messages at their positions ("line 1:52: Undefined column name x",
  // "Invalid comparison with null for operator \"<\""...), and adds them.
  Status Add(ConditionalStatement statement);

  // Reads the partition from `view` and decides. Sets *applied; the
  // result's rows (what cqlsh prints after "[applied]") are kept for
  // Output. IOError etc. from the reads pass through.
  Status Check(const ReadView& view, bool* applied);

  // The result as cqlsh prints a conditional statement's result in batch
  // mode: an empty line, the "[applied]" table with True, or with False and
  // the current values of the columns the conditions read (every column for
  // IF [NOT] EXISTS; the primary key first in a batch), one row per
  // existing row read; lines end with "\n". REQUIRES: Check succeeded.
  std::string Output() const;

 private:
  struct TypedCondition;
  struct RowTarget;
  Status Type(const Condition& condition, TypedCondition* out) const;
  bool Holds(const TypedCondition& condition, const std::optional<RowFragment>& row) const;

  TableHandle table_;
  std::vector<std::string> partition_key_;
  bool batch_;
  std::vector<RowTarget> targets_;  // regular rows and the static row, each once
  bool updates_static_ = false;
  bool updates_regular_ = false;
  bool wildcard_ = false;               // an IF [NOT] EXISTS: the result shows every column
  std::vector<size_t> shown_columns_;   // otherwise: the columns the conditions name
  std::vector<bool> static_condition_;  // per column index: a condition reads it

  // Check's result.
  bool applied_ = false;
  std::vector<size_t> result_columns_;  // after "[applied]", when it is false
  std::vector<std::vector<std::optional<std::string>>> result_rows_;
};

// The lock of the LWTs of one partition: conditional statements on one
// partition run one at a time, from read to write, so that each decides on
// the state the previous one left (Paxos's linearisability, on one node).
// Plain writes do not take it, as in Cassandra, where mixing them with
// conditional writes on the same data is not linearisable either.
// Striped: two partitions may share a lock, which only serialises them.
class PartitionLocks {
 public:
  static std::mutex& For(const TableSchema& table, const std::vector<std::string>& partition_key);
};

}  // namespace cellfs::fs
