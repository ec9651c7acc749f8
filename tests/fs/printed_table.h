// Printed tables: a SELECT's transcript on a CqlSession ("OUTPUT n" blocks of
// cqlsh's table) read back into its header and rows, for tests that check
// what a query printed.
#pragma once

#include <string>
#include <vector>

namespace cellfs::testing {

using Row = std::vector<std::string>;  // printed cells, trimmed

// A SELECT's printed result: the header's names and the rows' cells.
struct Printed {
  std::string error;  // the transcript's text when it was not a table
  std::vector<std::string> header;
  std::vector<Row> rows;
};

// Parses `text`, one statement's transcript: "OUTPUT n" blocks of cqlsh's
// table (empty line, header, rule, rows, empty line, "(N rows)"). Anything
// else is returned whole in `error`.
Printed ParseTable(const std::string& text);

}  // namespace cellfs::testing
