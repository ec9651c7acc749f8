// Where a SELECT's rows are in its output (to pause between pages), and
// the EXPAND ON conversion switched in.
#include "tools/cellfs/shell/result_printer.h"

#include <cctype>

namespace cellfs::tools::shell {
namespace {

// `text` without its leading blanks and comments.
std::string_view SkipBlanksAndComments(std::string_view text) {
  while (!text.empty()) {
    if (std::isspace(static_cast<unsigned char>(text[0]))) {
      text.remove_prefix(1);
    } else if (text.starts_with("--") || text.starts_with("//")) {
      const size_t end = text.find('\n');
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    } else if (text.starts_with("/*")) {
      const size_t end = text.find("*/", 2);
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 2);
    } else {
      break;
    }
  }
  return text;
}

// The next word of `*text` (letters), upper-cased, consumed.
std::string TakeWord(std::string_view* text) {
  *text = SkipBlanksAndComments(*text);
  std::string word;
  while (!text->empty() && std::isalpha(static_cast<unsigned char>(text->front()))) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(text->front())));
    text->remove_prefix(1);
  }
  return word;
}

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

}  // namespace

bool IsTableSelect(std::string_view statement) {
  return TakeWord(&statement) == "SELECT" && TakeWord(&statement) != "JSON";
}

ResultPrinter::ResultPrinter(bool table_select, DisplaySettings settings,
                             std::function<void(std::string_view)> write,
                             std::function<bool()> pause)
    : table_select_(table_select),
      settings_(settings),
      write_(std::move(write)),
      pause_(std::move(pause)) {}

void ResultPrinter::Show(std::string_view line, bool is_row) {
  if (dropped_) return;
  if (is_row && settings_.paging && settings_.page_size > 0) {
    if (rows_since_pause_ == settings_.page_size) {
      dropped_ = !pause_();
      if (dropped_) return;
      rows_since_pause_ = 0;
    }
    ++rows_since_pause_;
  }
  write_(line);
  write_("\n");
}

void ResultPrinter::Feed(const std::vector<std::string>& lines) {
  if (!table_select_) {
    for (const std::string& line : lines) Show(line, false);
    return;
  }
  if (settings_.expand) {
    for (const std::string& line : SplitLines(expanded_.Convert(lines))) {
      Show(line, line.starts_with("@ Row "));
    }
    return;
  }
  for (const std::string& line : lines) {
    bool is_row = false;
    switch (phase_) {
      case Phase::kLead:
        phase_ = line.empty() ? Phase::kHeader : Phase::kRule;
        break;
      case Phase::kHeader:
        phase_ = Phase::kRule;
        break;
      case Phase::kRule:
        phase_ = Phase::kRows;
        break;
      case Phase::kRows:
        is_row = !line.empty();
        if (!is_row) phase_ = Phase::kTail;
        break;
      case Phase::kTail:
        break;
    }
    Show(line, is_row);
  }
}

}  // namespace cellfs::tools::shell
