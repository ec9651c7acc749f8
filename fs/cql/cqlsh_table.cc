// cqlsh's print_result, print_formatted_result and
// print_formatted_result_vertically, one page at a time.
#include "fs/cql/cqlsh_table.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "fs/cql/cqlsh_width.h"

namespace cellfs::fs {
namespace {

void Pad(int width, const CqlshText& value, std::string* out) {
  if (width > value.width) out->append(static_cast<size_t>(width - value.width), ' ');
}

// Python's str.rstrip(): trailing white space, Unicode's included.
void RightStrip(std::string* line) {
  for (;;) {
    size_t start = line->size();
    while (start > 0 && (static_cast<unsigned char>((*line)[start - 1]) & 0xc0) == 0x80) --start;
    if (start == 0) return;
    size_t pos = start - 1;
    const char32_t c = NextCodePoint(*line, &pos);
    const bool space = c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) ||
                       c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
                       c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
    if (!space) return;
    line->resize(start - 1);
  }
}

std::string Dashes(int width) { return std::string(static_cast<size_t>(std::max(width, 0)), '-'); }

}  // namespace

CqlshResultPrinter::CqlshResultPrinter(std::vector<CqlshColumn> columns, CqlshPrintOptions options)
    : columns_(std::move(columns)), options_(options) {
  assert(!columns_.empty());
  assert(options_.layout != CqlshLayout::kJsonLines || columns_.size() == 1);
  for (const CqlshColumn& column : columns_) names_.push_back(FormatCqlshName(column.name));
}

void CqlshResultPrinter::PrintPage(const std::vector<CqlshRow>& rows, std::string* out) {
  if (options_.layout == CqlshLayout::kJsonLines) {
    for (const CqlshRow& row : rows) *out += (row[0] ? *row[0] : std::string("null")) + "\n";
    row_count_ += rows.size();
    return;
  }
  const bool first = !first_page_done_;
  first_page_done_ = true;
  if (first) *out += "\n";
  if (rows.empty()) {
    if (first) PrintTable({}, /*with_header=*/true, out);  // header, rule, "\n"
    return;
  }
  std::vector<std::vector<CqlshText>> cells;
  cells.reserve(rows.size());
  for (const CqlshRow& row : rows) {
    assert(row.size() == columns_.size());
    std::vector<CqlshText>& line = cells.emplace_back();
    line.reserve(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      line.push_back(row[i] ? FormatCqlshValue(*columns_[i].type, *row[i]) : CqlshNull());
    }
  }
  if (options_.layout == CqlshLayout::kExpanded) {
    PrintRecords(cells, out);
  } else {
    PrintTable(cells, first || options_.tty, out);
  }
  row_count_ += rows.size();
}

void CqlshResultPrinter::Finish(std::string* out) {
  if (options_.layout == CqlshLayout::kJsonLines) return;
  if (!first_page_done_) PrintPage({}, out);
  if (!options_.tty) *out += "\n";
  *out += "(" + std::to_string(row_count_) + " rows)\n";
}

void CqlshResultPrinter::PrintTable(const std::vector<std::vector<CqlshText>>& cells,
                                    bool with_header, std::string* out) const {
  std::vector<int> widths;
  for (const CqlshText& name : names_) widths.push_back(name.width);
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].width);
  }
  if (with_header) {
    std::string header = " ";
    std::string rule = "-";
    for (size_t i = 0; i < names_.size(); ++i) {
      if (i > 0) header += " | ";
      if (i > 0) rule += "-+-";
      header += names_[i].text;
      Pad(widths[i], names_[i], &header);
      rule += Dashes(widths[i]);
    }
    RightStrip(&header);
    *out += header + "\n" + rule + "-\n";
  }
  for (const auto& row : cells) {
    *out += " ";
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) *out += " | ";
      Pad(widths[i], row[i], out);
      *out += row[i].text;
    }
    *out += "\n";
  }
  if (options_.tty || cells.empty()) *out += "\n";
}

void CqlshResultPrinter::PrintRecords(const std::vector<std::vector<CqlshText>>& cells,
                                      std::string* out) const {
  int name_width = 0;
  for (const CqlshText& name : names_) name_width = std::max(name_width, name.width);
  int value_width = 0;
  for (const auto& row : cells) {
    for (const CqlshText& value : row) value_width = std::max(value_width, value.width);
  }
  const std::string rule = "-" + Dashes(name_width) + "-+-" + Dashes(value_width) + "-\n";
  uint64_t number = row_count_;
  for (const auto& row : cells) {
    *out += "@ Row " + std::to_string(++number) + "\n" + rule;
    for (size_t i = 0; i < row.size(); ++i) {
      *out += " " + names_[i].text;
      Pad(name_width, names_[i], out);
      *out += " | " + row[i].text + "\n";
    }
    *out += "\n";
  }
}

}  // namespace cellfs::fs
