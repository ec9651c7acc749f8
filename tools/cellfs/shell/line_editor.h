// LineEditor: the shell's line input — libedit's native API (histedit.h)
// wrapped: prompts, emacs keys, in-memory history seeded from and appended
// to a history file, Tab completion through a callback, and Ctrl-C
// reported as an interrupted line.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// Not thread-safe; one per process (it owns SIGINT's handler while it
// lives, and the terminal).
class LineEditor {
 public:
  // The candidates for completing `word`, given the line before it.
  using Completer =
      std::function<std::vector<std::string>(std::string_view before, std::string_view word)>;

  // `history_path` empty: no history file. REQUIRES: stdin is a terminal.
  LineEditor(std::string history_path, Completer completer);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  enum class Result { kLine, kEnd, kInterrupted };
  // Shows `prompt` and reads a line: kLine with the line (without '\n') in
  // *line; kEnd at Ctrl-D on an empty line or a closed input; kInterrupted
  // when Ctrl-C dropped the line.
  Result ReadLine(const std::string& prompt, std::string* line);

  // Adds a history entry (recalled with the arrow keys) and appends it to
  // the history file.
  void AddHistory(const std::string& entry);

  // Whether Ctrl-C came since the last call (the flag is cleared).
  static bool TakeInterrupt();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cellfs::tools::shell
