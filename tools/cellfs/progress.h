// Progress of a bulk load (`cellfs load`): the text of a one-line progress
// bar (pure, unit-tested) and a meter that redraws it on a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace cellfs::tools {

// Where a load stands. Plain value type.
struct ProgressState {
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;  // 0: unknown (a pipe, stdin)
  uint64_t lines = 0;        // newlines among the bytes done
  double seconds = 0;        // since the start
};

// "999 B", "1.5 kB", "12.3 MB", "4.0 GB" (decimal units).
std::string FormatBytes(uint64_t bytes);

// A count per second, compact: "0", "950", "12.3k", "4.5M". 0 when
// `seconds` is not positive.
std::string FormatRate(double count, double seconds);

// Remaining time as "M:SS" or "H:MM:SS"; "--:--" when unknown (no total,
// nothing done yet, or no time elapsed).
std::string FormatEta(const ProgressState& state);

// One progress line of at most `width` columns:
//   "rows.jsonl [#####-----]  45%  12.3 MB/27.0 MB  123456 lines  45.6k lines/s
//   5.2 MB/s  ETA 0:03" (as one line)
// Where it does not fit, the byte rate goes first, then the line count,
// the sizes, the bar and the line rate; a label over 24 columns keeps its
// end. Without a known total, the bar, percentage and ETA are left out.
std::string FormatProgressLine(const std::string& label, const ProgressState& state, size_t width);

// The closing line of one file's load:
//   "loaded rows.jsonl: 4000 rows stored, 2 refused, 45.6k lines/s"
std::string FormatLoadSummary(const std::string& label, uint64_t rows_stored, uint64_t refused,
                              const ProgressState& state);

// Counts bytes and lines as they are sent and, when `draw`, redraws the
// progress line on `out` (a terminal) at most five times a second.
// Not thread-safe.
class ProgressMeter {
 public:
  ProgressMeter(std::string label, uint64_t bytes_total, bool draw, FILE* out = stderr);

  // Records `bytes` more sent, holding `lines` newlines.
  void Advance(uint64_t bytes, uint64_t lines);

  // Erases the progress line (if drawn) so that the next output starts on
  // a clean line.
  void Clear();

  // The state now.
  ProgressState State() const;

 private:
  void Draw();

  std::string label_;
  ProgressState state_;
  bool draw_;
  FILE* out_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// Whether stderr is a terminal (where a progress bar belongs).
bool StderrIsTerminal();

}  // namespace cellfs::tools
