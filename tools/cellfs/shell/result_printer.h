// ResultPrinter: how the shell shows one statement's OUTPUT blocks — a
// SELECT's table as it comes or as EXPAND ON records, with a ---MORE---
// pause every page of rows when PAGING is on; other output as it is.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/cellfs/shell/expanded_table.h"

namespace cellfs::tools::shell {

struct DisplaySettings {
  bool expand = false;     // EXPAND ON
  bool paging = true;      // PAGING ON (cqlsh's default on a terminal)
  size_t page_size = 100;  // rows between two pauses
};

// Whether `statement` is a SELECT printed as a table (not SELECT JSON):
// its first word, after blanks and comments, is SELECT and its second is
// not JSON.
bool IsTableSelect(std::string_view statement);

// Thread-compatible; one instance per statement.
class ResultPrinter {
 public:
  // `write` receives the text to show; `pause` is called before a row when
  // `page_size` rows were shown since the start or the last pause (it shows
  // ---MORE--- and waits), only for a table SELECT with paging on; when it
  // returns false (Ctrl-C) the rest of the result is dropped, as cqlsh
  // drops it.
  ResultPrinter(bool table_select, DisplaySettings settings,
                std::function<void(std::string_view)> write, std::function<bool()> pause);

  // Shows one OUTPUT block, `lines` without their '\n'.
  void Feed(const std::vector<std::string>& lines);

 private:
  enum class Phase { kLead, kHeader, kRule, kRows, kTail };
  void Show(std::string_view line, bool is_row);

  bool table_select_;
  DisplaySettings settings_;
  std::function<void(std::string_view)> write_;
  std::function<bool()> pause_;
  bool dropped_ = false;  // the reader stopped the result at a pause
  ExpandedTable expanded_;
  Phase phase_ = Phase::kLead;
  size_t rows_since_pause_ = 0;
};

}  // namespace cellfs::tools::shell
