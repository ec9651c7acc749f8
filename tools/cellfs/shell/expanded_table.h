// ExpandedTable: turns a SELECT result as @cql sends it (cqlsh's aligned
// table in batch mode, fs/cql/cqlsh_table.h) into what cqlsh prints with
// EXPAND ON on a terminal, one OUTPUT block (a page of rows) at a time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// Input, across the blocks of one result: "", the header, the rule
// ("---+-----"), rows (values right-justified, " | " between them), "",
// "", "(N rows)"; later blocks hold rows only. Output, as cqlsh:
//   "\n", then per row "@ Row N\n", "-" + '-' * W + "-+-" + '-' * V + "-\n"
//   (W: the widest name, V: the widest value of the block), " name | value\n"
//   per column, "\n"; then "(N rows)\n". An empty result prints its header,
//   rule and "\n" before "(0 rows)", as cqlsh does.
// Limits, as the table hides them: a value's own leading blanks are taken
// for padding; a value holding " | " is cut where the page's other rows (or
// the rule) put the column boundaries, else at its first separators.
// Thread-compatible.
class ExpandedTable {
 public:
  // Converts one OUTPUT block, `lines` without their '\n'.
  std::string Convert(const std::vector<std::string>& lines);

 private:
  enum class Phase { kLead, kHeader, kRule, kRows, kTail };
  std::vector<std::string> SplitRow(std::string_view row,
                                    const std::vector<size_t>& reference) const;
  std::string Records(const std::vector<std::string>& row_lines);
  void TakeRule(std::string_view rule);

  Phase phase_ = Phase::kLead;
  std::string header_, rule_;
  std::vector<std::string> names_;
  std::vector<size_t> rule_cuts_;  // columns of " | " the rule implies (first page)
  uint64_t row_count_ = 0;
};

}  // namespace cellfs::tools::shell
