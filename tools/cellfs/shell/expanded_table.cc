// Reading cqlsh's aligned table back into names and values, and laying
// them out as cqlsh's print_formatted_result_vertically does.
#include "tools/cellfs/shell/expanded_table.h"

#include <algorithm>

#include "fs/cql/cqlsh_width.h"

namespace cellfs::tools::shell {
namespace {

constexpr std::string_view kSeparator = " | ";

// Display columns, as cqlsh counts them; code points for what wcswidth
// refuses (no control character reaches a table: cqlsh escapes them).
size_t Width(std::string_view text) {
  const int width = fs::CqlshTextWidth(text);
  return width >= 0 ? static_cast<size_t>(width) : fs::CodePointCount(text);
}

std::vector<size_t> SeparatorsIn(std::string_view row) {
  std::vector<size_t> at;
  for (size_t pos = row.find(kSeparator); pos != std::string_view::npos;
       pos = row.find(kSeparator, pos + 1)) {
    at.push_back(pos);
  }
  return at;
}

std::string_view TrimLeft(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text;
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// `row` cut at `cuts` (offsets of " | "), each piece left-trimmed.
std::vector<std::string> Cut(std::string_view row, const std::vector<size_t>& cuts) {
  std::vector<std::string> fields;
  size_t start = 1;  // every line of the table starts with one blank
  for (size_t cut : cuts) {
    fields.emplace_back(TrimLeft(row.substr(start, cut - start)));
    start = cut + kSeparator.size();
  }
  fields.emplace_back(TrimLeft(row.substr(std::min(start, row.size()))));
  return fields;
}

// The display columns at which `row`'s separators (byte offsets `at`) start:
// rows of one page put their column boundaries at the same columns, not at
// the same bytes.
std::vector<size_t> Columns(std::string_view row, const std::vector<size_t>& at) {
  std::vector<size_t> columns;
  for (size_t offset : at) columns.push_back(Width(row.substr(0, offset)));
  return columns;
}

}  // namespace

void ExpandedTable::TakeRule(std::string_view rule) {
  rule_ = rule;
  // "-" + dashes + "-+-" + dashes ... + "-": a cut where each "-+-" is.
  rule_cuts_.clear();
  for (size_t pos = rule.find("-+-"); pos != std::string_view::npos;
       pos = rule.find("-+-", pos + 1)) {
    rule_cuts_.push_back(pos);
  }
  std::vector<size_t> header_cuts = SeparatorsIn(header_);
  std::vector<size_t> cuts = header_cuts.size() == rule_cuts_.size() ? header_cuts : rule_cuts_;
  names_.clear();
  size_t start = 1;
  for (size_t cut : cuts) {
    names_.emplace_back(TrimRight(std::string_view(header_).substr(start, cut - start)));
    start = cut + kSeparator.size();
  }
  names_.emplace_back(TrimRight(std::string_view(header_).substr(std::min(start, header_.size()))));
}

// `reference`: the display columns where the block's unambiguous rows (or
// the rule) cut.
std::vector<std::string> ExpandedTable::SplitRow(std::string_view row,
                                                 const std::vector<size_t>& reference) const {
  const size_t wanted = names_.size() - 1;
  std::vector<size_t> at = SeparatorsIn(row);
  if (at.size() > wanted && reference.size() == wanted) {
    const std::vector<size_t> columns = Columns(row, at);
    std::vector<size_t> chosen;
    for (size_t i = 0; i < at.size(); ++i) {
      if (std::find(reference.begin(), reference.end(), columns[i]) != reference.end()) {
        chosen.push_back(at[i]);
      }
    }
    if (chosen.size() == wanted) return Cut(row, chosen);
  }
  at.resize(std::min(at.size(), wanted));
  return Cut(row, at);
}

std::string ExpandedTable::Records(const std::vector<std::string>& row_lines) {
  // The cuts of the block's first row with exactly one separator between
  // each two columns; on the first block, else, the rule's.
  std::vector<size_t> reference = rule_cuts_;  // the rule is ASCII: bytes are columns
  for (const std::string& line : row_lines) {
    std::vector<size_t> at = SeparatorsIn(line);
    if (at.size() + 1 == names_.size()) {
      reference = Columns(line, at);
      break;
    }
  }
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : row_lines) rows.push_back(SplitRow(line, reference));
  size_t name_width = 0;
  for (const std::string& name : names_) name_width = std::max(name_width, Width(name));
  size_t value_width = 0;
  for (const auto& row : rows) {
    for (const std::string& value : row) value_width = std::max(value_width, Width(value));
  }
  const std::string rule =
      "-" + std::string(name_width, '-') + "-+-" + std::string(value_width, '-') + "-\n";
  std::string out;
  for (const auto& row : rows) {
    out += "@ Row " + std::to_string(++row_count_) + "\n" + rule;
    for (size_t i = 0; i < names_.size(); ++i) {
      out += " " + names_[i] + std::string(name_width - Width(names_[i]), ' ') + " | ";
      out += (i < row.size() ? row[i] : std::string()) + "\n";
    }
    out += "\n";
  }
  return out;
}

std::string ExpandedTable::Convert(const std::vector<std::string>& lines) {
  std::string out;
  std::vector<std::string> rows;  // the block's row lines
  for (const std::string& line : lines) {
    switch (phase_) {
      case Phase::kLead:
        out += "\n";
        phase_ = Phase::kHeader;
        if (line.empty()) break;
        [[fallthrough]];
      case Phase::kHeader:
        header_ = line;
        phase_ = Phase::kRule;
        break;
      case Phase::kRule:
        TakeRule(line);
        phase_ = Phase::kRows;
        break;
      case Phase::kRows:
        if (!line.empty()) {
          rows.push_back(line);
          break;
        }
        phase_ = Phase::kTail;
        if (row_count_ == 0 && rows.empty()) out += header_ + "\n" + rule_ + "\n\n";
        break;
      case Phase::kTail:
        if (!line.empty()) out += Records(rows) + line + "\n";
        if (!line.empty()) rows.clear();
        break;
    }
  }
  return out + Records(rows);
}

}  // namespace cellfs::tools::shell
