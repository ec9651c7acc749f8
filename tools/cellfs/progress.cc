// Progress of a bulk load: the progress line's text, and the meter that
// redraws it on stderr when stderr is a terminal.
#include "tools/cellfs/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace cellfs::tools {
namespace {

constexpr size_t kLabelMax = 24;
constexpr size_t kBarMax = 30;
constexpr size_t kBarMin = 10;
constexpr auto kRedrawInterval = std::chrono::milliseconds(200);

std::string Printf(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, value);
  return buf;
}

// Long names keep their end, where the file name is.
std::string ShortLabel(const std::string& label) {
  if (label.size() <= kLabelMax) return label;
  return "..." + label.substr(label.size() - (kLabelMax - 3));
}

std::string Bar(const ProgressState& state, size_t width) {
  double fraction =
      std::min(1.0, static_cast<double>(state.bytes_done) / static_cast<double>(state.bytes_total));
  auto full = static_cast<size_t>(fraction * static_cast<double>(width));
  return "[" + std::string(full, '#') + std::string(width - full, '-') + "]";
}

// One field of the progress line. Fields are dropped, least important
// first, until the line fits.
struct Field {
  std::string text;
  int rank;  // 0: always shown; larger: dropped sooner
  bool bar = false;
};

std::vector<Field> Fields(const std::string& label, const ProgressState& state) {
  bool known = state.bytes_total > 0;
  double bytes_rate = state.seconds > 0 ? static_cast<double>(state.bytes_done) / state.seconds : 0;
  std::vector<Field> fields = {{ShortLabel(label), 0}};
  if (known) {
    double percent =
        100.0 * static_cast<double>(state.bytes_done) / static_cast<double>(state.bytes_total);
    fields.push_back({"", 2, true});
    fields.push_back({Printf("%3.0f%%", std::min(100.0, std::floor(percent))), 0});
    fields.push_back({FormatBytes(state.bytes_done) + "/" + FormatBytes(state.bytes_total), 3});
  } else {
    fields.push_back({FormatBytes(state.bytes_done), 2});
  }
  fields.push_back({std::to_string(state.lines) + " lines", 4});
  fields.push_back({FormatRate(static_cast<double>(state.lines), state.seconds) + " lines/s", 1});
  fields.push_back({FormatBytes(static_cast<uint64_t>(bytes_rate)) + "/s", 5});
  if (known) fields.push_back({"ETA " + FormatEta(state), 0});
  return fields;
}

// The label and the bar are followed by one space, figures by two.
size_t Separator(const Field& field, size_t index) { return index == 0 || field.bar ? 1 : 2; }

std::string Join(const std::vector<Field>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += std::string(Separator(fields[i - 1], i - 1), ' ');
    line += fields[i].text;
  }
  return line;
}

size_t TerminalWidth(FILE* out) {
  struct winsize size {};
  if (ioctl(fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
  double value = static_cast<double>(bytes) / 1000.0;
  size_t unit = 0;
  while (value >= 999.95 && unit + 1 < std::size(kUnits)) {
    value /= 1000.0;
    ++unit;
  }
  return Printf("%.1f ", value) + kUnits[unit];
}

std::string FormatRate(double count, double seconds) {
  if (seconds <= 0 || count <= 0) return "0";
  double rate = count / seconds;
  if (rate < 999.5) return Printf("%.0f", rate);
  if (rate < 999'950.0) return Printf("%.1fk", rate / 1e3);
  if (rate < 999'950'000.0) return Printf("%.1fM", rate / 1e6);
  return Printf("%.1fG", rate / 1e9);
}

std::string FormatEta(const ProgressState& state) {
  if (state.bytes_total == 0 || state.bytes_done == 0 || state.seconds <= 0) return "--:--";
  uint64_t left_bytes =
      state.bytes_done >= state.bytes_total ? 0 : state.bytes_total - state.bytes_done;
  double left = std::ceil(static_cast<double>(left_bytes) * state.seconds /
                          static_cast<double>(state.bytes_done));
  if (left > 359'999) return "--:--";  // a rate so low that a figure means nothing
  auto total = static_cast<unsigned>(left);
  unsigned hours = total / 3600, minutes = total / 60 % 60, secs = total % 60;
  char buf[32];
  if (hours > 0) {
    std::snprintf(buf, sizeof(buf), "%u:%02u:%02u", hours, minutes, secs);
  } else {
    std::snprintf(buf, sizeof(buf), "%u:%02u", minutes, secs);
  }
  return buf;
}

std::string FormatProgressLine(const std::string& label, const ProgressState& state, size_t width) {
  std::vector<Field> fields = Fields(label, state);
  for (Field& field : fields) {
    if (field.bar) field.text = std::string(kBarMin + 2, ' ');  // its narrowest, for now
  }
  for (int rank = 5; rank > 0 && Join(fields).size() > width; --rank) {
    std::erase_if(fields, [rank](const Field& field) { return field.rank == rank; });
  }
  std::string line = Join(fields);
  for (Field& field : fields) {
    if (!field.bar) continue;
    size_t room = width - line.size();  // the loop above made the line fit
    field.text = Bar(state, std::min(kBarMax, kBarMin + room));
    line = Join(fields);
  }
  if (line.size() > width) line.resize(width);
  return line;
}

std::string FormatLoadSummary(const std::string& label, uint64_t rows_stored, uint64_t refused,
                              const ProgressState& state) {
  return "loaded " + label + ": " + std::to_string(rows_stored) + " rows stored, " +
         std::to_string(refused) + " refused, " +
         FormatRate(static_cast<double>(state.lines), state.seconds) + " lines/s";
}

ProgressMeter::ProgressMeter(std::string label, uint64_t bytes_total, bool draw, FILE* out)
    : label_(std::move(label)),
      draw_(draw),
      out_(out),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {
  state_.bytes_total = bytes_total;
}

void ProgressMeter::Advance(uint64_t bytes, uint64_t lines) {
  state_.bytes_done += bytes;
  state_.lines += lines;
  if (!draw_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  Draw();
}

void ProgressMeter::Clear() {
  if (!drawn_) return;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
  drawn_ = false;
}

ProgressState ProgressMeter::State() const {
  ProgressState state = state_;
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  state.seconds = elapsed.count();
  return state;
}

void ProgressMeter::Draw() {
  // One column short of the width, so the cursor never wraps to a new line.
  size_t width = std::max<size_t>(TerminalWidth(out_), 20) - 1;
  std::string line = FormatProgressLine(label_, State(), width);
  std::fprintf(out_, "\r%s\033[K", line.c_str());
  std::fflush(out_);
  drawn_ = true;
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace cellfs::tools
