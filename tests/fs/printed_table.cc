// Printed tables: cqlsh's table layout split into cells.
#include "tests/fs/printed_table.h"

#include <string_view>

namespace cellfs::testing {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && s[b] == ' ') ++b;
  while (e > b && s[e - 1] == ' ') --e;
  return std::string(s.substr(b, e - b));
}

Row SplitCells(const std::string& line) {
  Row cells;
  size_t start = 0;
  for (;;) {
    const size_t bar = line.find('|', start);
    cells.push_back(Trim(std::string_view(line).substr(
        start, bar == std::string::npos ? std::string::npos : bar - start)));
    if (bar == std::string::npos) return cells;
    start = bar + 1;
  }
}

}  // namespace

Printed ParseTable(const std::string& text) {
  Printed out;
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    if (!line.starts_with("OUTPUT ")) {
      out.error = text;
      return out;
    }
    int n = std::stoi(line.substr(7));
    for (; n > 0 && at <= text.size(); --n) {
      size_t end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      lines.push_back(text.substr(at, end - at));
      at = end + 1;
    }
  }
  std::vector<std::string> content;
  for (const std::string& line : lines) {
    if (!line.empty()) content.push_back(line);
  }
  if (content.size() < 3 || !content.back().starts_with("(") ||
      content[1].find_first_not_of("-+") != std::string::npos) {
    out.error = "not a table: " + text;
    return out;
  }
  out.header = SplitCells(content[0]);
  for (size_t i = 2; i + 1 < content.size(); ++i) out.rows.push_back(SplitCells(content[i]));
  const std::string count = "(" + std::to_string(out.rows.size()) + " rows)";
  if (content.back() != count) out.error = "count line " + content.back() + " for " + count;
  return out;
}

}  // namespace cellfs::testing
