// IndexStats: what TABLE/@stats reports of each secondary index: whether it
// is built, how many distinct values it holds (its cardinality), how many
// matches, and its widest value, the measure behind the data-modeling
// warning about indexes on high-cardinality columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cql/table_schema.h"
#include "engine/status.h"
#include "engine/store/read_view.h"

namespace cellfs::fs {

struct IndexStats {
  std::string name;
  std::string target;    // as CREATE INDEX spells it: "country", "keys(m)"
  bool built = false;    // when false the counts below are 0: nothing was read
  uint64_t values = 0;   // distinct indexed values with at least one live match
  uint64_t matches = 0;  // live matches (rows, or partitions for a static or partition key index)
  // The value with the most matches, as its literal text (FormatLiteral:
  // what @by/<column>/<value> takes); "" when none.
  std::string widest_value;
  uint64_t widest_matches = 0;
  // Set when the index holds many values with few matches each: at least
  // kHighCardinalityMatches matches and more than one value per two.
  bool high_cardinality = false;
};

inline constexpr uint64_t kHighCardinalityMatches = 1000;

// Walks every index of `table` once at `view` (each entry checked against
// its row, as a lookup does), with memory flat in the index's size.
Status ComputeIndexStats(const ReadView& view, const TableHandle& table,
                         std::vector<IndexStats>* out);

// "Indexes:" and a line per index, then a warning line per high-cardinality
// one; "" for a table without indexes. Ends with '\n' when not empty.
std::string FormatIndexStatsText(const std::vector<IndexStats>& indexes);

}  // namespace cellfs::fs
