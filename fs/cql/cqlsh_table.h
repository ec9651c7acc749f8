// CqlshResultPrinter: a SELECT result as cqlsh (Cassandra 4.x/5.0) prints
// it — the aligned table, EXPAND ON records — or as JSON Lines for SELECT
// JSON, fed one page of rows at a time so that memory stays bounded by a
// page. Pure formatting: the caller runs the query and pages it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/cql/cql_type.h"
#include "fs/cql/cqlsh_value.h"

namespace cellfs::fs {

// cqlsh's default page size (Shell.default_page_size; PAGING ON), the rows
// it asks the server for at a time and so the rows of one printed page.
inline constexpr size_t kCqlshPageSize = 100;

struct CqlshColumn {
  std::string name;  // as the result metadata names it ("v", "count", "[json]")
  TypePtr type;
};

// One row: a serialized value per column, nullopt for null.
using CqlshRow = std::vector<std::optional<std::string>>;

enum class CqlshLayout {
  // The aligned table (EXPAND OFF):
  //   "\n"                                  before the first page
  //   " k | v\n"                            header: names left-justified,
  //                                         joined by " | ", trailing blanks cut
  //   "---+-----\n"                         '-' * width per column, "-+-" between
  //   " 1 | abc\n"                          rows: values right-justified, never cut
  //   "\n(1 rows)\n"                        after the last page ("(1 rows)": sic)
  // A column's width is the largest cqlsh width (cqlsh_value.h) of its name
  // and of its values on the page. An empty result prints the header, the
  // rule and an empty line.
  kTable,
  // EXPAND ON: per row "@ Row N\n", then "-" + '-' * W + "-+-" + '-' * V +
  // "-\n" (W: the widest name, V: the widest value of the page), then
  // " name | value\n" per column (names left-justified to W, values as
  // they are), then "\n". Rows are numbered across pages. An empty result
  // prints as kTable does.
  kExpanded,
  // SELECT JSON as JSON Lines (cellfs's @cql face, not cqlsh's): each row's
  // single column (the "[json]" text) as it is, then "\n"; nothing else.
  kJsonLines,
};

struct CqlshPrintOptions {
  CqlshLayout layout = CqlshLayout::kTable;
  // cqlsh's tty mode (an interactive terminal) against batch mode (cqlsh -e,
  // -f, or output not to a terminal, as @cql). See CqlshResultPrinter.
  bool tty = false;
};

// Prints a result page by page as cqlsh's print_result does with paging on:
//  - each page is laid out on its own, with widths from that page only
//    (cqlsh does the same: columns of consecutive pages may not line up);
//  - batch mode (tty false): the header and rule only before the first
//    page, nothing between pages, and one more "\n" after the last page,
//    before "(N rows)" — so an empty result ends "---\n\n\n(0 rows)\n";
//  - tty mode: every page has its header and rule and ends with "\n";
//    cqlsh waits for Enter at "---MORE---" between pages, which is the
//    caller's to do (this class prints no prompt);
//  - a page with no rows prints nothing, unless it is the first one, which
//    prints the header alone (as an empty result does).
// Memory: the formatted texts of one page, freed when PrintPage returns;
// nothing is kept of earlier pages but the row count.
// With PAGING OFF cqlsh asks for the whole result as one page and aligns
// it as one table; a caller that wants that output passes every row in one
// PrintPage, giving up the memory bound.
// Thread-compatible: one thread at a time.
class CqlshResultPrinter {
 public:
  // REQUIRES: columns is not empty, every type set; for kJsonLines exactly
  // one column, of type text.
  CqlshResultPrinter(std::vector<CqlshColumn> columns, CqlshPrintOptions options);

  // Appends the text of the next page to *out. Any number of rows is
  // accepted; cqlsh's pages hold kCqlshPageSize rows.
  // REQUIRES: each row has one value per column, each valid for its type;
  // Finish not called yet.
  void PrintPage(const std::vector<CqlshRow>& rows, std::string* out);

  // Appends what follows the last page: the header of an empty result if
  // no page was printed, then the closing lines ("(N rows)"; nothing for
  // kJsonLines). REQUIRES: called once.
  void Finish(std::string* out);

  uint64_t row_count() const { return row_count_; }

 private:
  void PrintTable(const std::vector<std::vector<CqlshText>>& cells, bool with_header,
                  std::string* out) const;
  void PrintRecords(const std::vector<std::vector<CqlshText>>& cells, std::string* out) const;

  std::vector<CqlshColumn> columns_;
  std::vector<CqlshText> names_;
  CqlshPrintOptions options_;
  bool first_page_done_ = false;
  uint64_t row_count_ = 0;
};

}  // namespace cellfs::fs
