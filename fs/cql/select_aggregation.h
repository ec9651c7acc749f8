// SelectAggregation: the one row of a SELECT whose selectors aggregate
// (count(*), count(c), min, max, sum, avg, and functions of them), built as
// the rows stream past: the reader evaluates only the row-level parts
// (inputs()), each aggregate keeps its running state, and the selectors
// outside the aggregates show the first row read, as Cassandra shows them.
// Internal to fs/cql; select_executor.cc drives it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fs/cql/select_aggregates.h"
#include "fs/cql/select_query.h"
#include "fs/cql/select_rows.h"

namespace cellfs::fs {

// Not thread-safe; one per statement. Not copyable (it points into its
// own copy of the outputs).
class SelectAggregation {
 public:
  // REQUIRES: `outputs` are a SelectQuery's with `aggregate` set.
  explicit SelectAggregation(std::vector<OutputColumn> outputs);
  SelectAggregation(const SelectAggregation&) = delete;
  SelectAggregation& operator=(const SelectAggregation&) = delete;

  // What the row reader evaluates on every row: each aggregate's argument,
  // and every largest aggregate-free part of the outputs. None of them
  // holds kCount or kAggregate.
  const std::vector<OutputColumn>& inputs() const { return inputs_; }

  // One row read: a value per input.
  void Add(const SelectRow& row);

  // The result row, a value per output: aggregates over the rows added,
  // functions applied to them, the rest from the first row (null when no
  // row was added). A function's refusal (select_functions.h) or an avg's
  // (numeric_aggregates.h) is returned.
  Status Result(SelectRow* out) const;

 private:
  struct Node {
    enum class Kind { kFirstRow, kRowCount, kAggregate, kFunction };
    Kind kind = Kind::kFirstRow;
    size_t index = 0;  // kFirstRow: the input; kAggregate: the aggregator
    const OutputColumn* column = nullptr;
    std::vector<Node> args;  // kFunction
  };

  Node Compile(const OutputColumn& column);
  Status Evaluate(const Node& node, std::optional<std::string>* out) const;

  std::vector<OutputColumn> outputs_;
  std::vector<Node> nodes_;  // one per output
  std::vector<OutputColumn> inputs_;
  std::vector<Aggregator> aggregators_;
  std::vector<size_t> aggregator_inputs_;  // the input feeding each aggregator
  SelectRow first_;
  uint64_t rows_ = 0;
};

}  // namespace cellfs::fs
