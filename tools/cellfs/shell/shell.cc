// The shell's loop: prompts, statements cut by the splitter and sent over
// the connection, results through the ResultPrinter, shell commands run
// here.
#include "tools/cellfs/shell/shell.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>

#include "tools/cellfs/shell/copy_command.h"
#include "tools/cellfs/shell/cql_connection.h"
#include "tools/cellfs/shell/line_editor.h"
#include "tools/cellfs/shell/mount_names.h"
#include "tools/cellfs/shell/result_printer.h"
#include "tools/cellfs/shell/shell_command.h"
#include "tools/cellfs/shell/statement_splitter.h"

namespace cellfs::tools::shell {
namespace {

constexpr int kMaxSourceDepth = 8;

std::string Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  return home == nullptr || *home == '\0' ? "" : std::string(home) + "/.cellfs_history";
}

// cqlsh's SwitchCommand messages; the new state.
bool Switch(const char* command, const char* description, bool state, std::optional<bool> on) {
  if (!on) {
    if (state) {
      std::printf("%s is currently enabled. Use %s OFF to disable\n", description, command);
    } else {
      std::printf("%s is currently disabled. Use %s ON to enable.\n", description, command);
    }
    return state;
  }
  if (*on && state) {
    std::fprintf(stderr, "%s is already enabled. Use %s OFF to disable.\n", description, command);
  } else if (*on) {
    std::printf("Now %s is enabled\n", description);
  } else if (!state) {
    std::fprintf(stderr, "%s is not enabled.\n", description);
  } else {
    std::printf("Disabled %s.\n", description);
  }
  return *on;
}

// Waits at "---MORE---" for Enter; false at Ctrl-C or the end of input.
bool WaitForMore() {
  std::fputs("---MORE---", stdout);
  std::fflush(stdout);
  char c = 0;
  while (true) {
    const ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR && !LineEditor::TakeInterrupt()) continue;
    if (n <= 0) {
      std::fputs("\n", stdout);
      return false;
    }
    if (c == '\n') return true;
  }
}

class Shell {
 public:
  Shell(std::string mount_point, std::unique_ptr<CqlConnection> connection)
      : mount_point_(std::move(mount_point)),
        connection_(std::move(connection)),
        names_(mount_point_),
        editor_(HistoryPath(), [this](std::string_view before, std::string_view word) {
          const std::string statement = splitter_.pending() + std::string(before);
          return CompletionCandidates(statement, word, keyspace_, names_);
        }) {}

  int Run() {
    std::string line;
    while (!done_) {
      switch (editor_.ReadLine(Prompt(), &line)) {
        case LineEditor::Result::kEnd:
          std::fputs("\n", stdout);
          return status_;
        case LineEditor::Result::kInterrupted:
          splitter_.Clear();
          break;
        case LineEditor::Result::kLine:
          HandleLine(line, &splitter_, /*interactive=*/true, 0);
          break;
      }
    }
    return status_;
  }

 private:
  std::string Prompt() const {
    if (!splitter_.AtStatementStart()) return "   ... ";
    return keyspace_.empty() ? "cellfs> " : "cellfs:" + keyspace_ + "> ";
  }

  void HandleLine(const std::string& line, StatementSplitter* splitter, bool interactive,
                  int depth) {
    if (splitter->AtStatementStart()) {
      if (std::optional<ShellCommand> command = ParseShellCommand(line)) {
        if (interactive) editor_.AddHistory(Trim(line));
        splitter->Clear();
        RunCommand(*command, depth);
        return;
      }
    }
    for (const std::string& statement : splitter->Feed(line + "\n")) {
      const std::string text = Trim(statement);
      if (text == ";") continue;
      if (interactive) editor_.AddHistory(text);
      if (std::optional<ShellCommand> command = ParseShellCommand(text)) {
        RunCommand(*command, depth);
      } else {
        RunStatement(text);
      }
      if (done_) return;
    }
  }

  void RunStatement(const std::string& statement) {
    ResultPrinter printer(
        IsTableSelect(statement), settings_,
        [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); },
        [this] { return WaitForMore(); });
    std::string error;
    const bool ok = connection_->Run(
        statement,
        [&](TranscriptEntry&& entry) {
          switch (entry.kind) {
            case TranscriptEntry::Kind::kOk:
              // cqlsh prints nothing for a statement that worked.
              if (entry.text.starts_with("OK USE ")) keyspace_ = entry.text.substr(7);
              break;
            case TranscriptEntry::Kind::kError:
              std::fflush(stdout);
              std::fprintf(stderr, "%s\n", entry.text.c_str());
              break;
            case TranscriptEntry::Kind::kOutput:
              printer.Feed(entry.lines);
              break;
          }
        },
        &error);
    std::fflush(stdout);
    if (!ok) {
      std::fprintf(stderr, "cellfs: %s\n", error.c_str());
      status_ = 1;
      done_ = true;
    }
  }

  void RunCommand(const ShellCommand& command, int depth) {
    using Kind = ShellCommand::Kind;
    switch (command.kind) {
      case Kind::kInvalid:
        std::fprintf(stderr, "%s\n", command.error.c_str());
        break;
      case Kind::kExpand:
        settings_.expand = Switch("EXPAND", "Expanded output", settings_.expand, command.on);
        break;
      case Kind::kPaging:
        if (command.page_size > 0) {
          settings_.paging = true;
          settings_.page_size = command.page_size;
        } else {
          settings_.paging = Switch("PAGING", "Query paging", settings_.paging, command.on);
        }
        if (settings_.paging) {
          std::printf("Page size: %zu\n", settings_.page_size);
        } else {
          settings_.page_size = DisplaySettings{}.page_size;
        }
        break;
      case Kind::kSource:
        Source(command.file, depth + 1);
        break;
      case Kind::kCopy:
        RunCopy(command, mount_point_, keyspace_);
        break;
      case Kind::kHelp:
        std::fputs(ShellHelpText().c_str(), stdout);
        break;
      case Kind::kExit:
        done_ = true;
        break;
    }
    std::fflush(stdout);
  }

  // SOURCE: the file's lines as if typed (shell commands included), read
  // here; the daemon never opens it.
  void Source(const std::string& file, int depth) {
    if (depth > kMaxSourceDepth) {
      std::fprintf(stderr, "SOURCE %s: nested more than %d deep\n", file.c_str(), kMaxSourceDepth);
      return;
    }
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "SOURCE: could not open %s\n", file.c_str());
      return;
    }
    StatementSplitter splitter;
    std::string line;
    while (!done_ && std::getline(in, line)) HandleLine(line, &splitter, false, depth);
    if (!splitter.AtStatementStart()) {
      std::fprintf(stderr, "SOURCE %s: the last statement has no ';' and was not run\n",
                   file.c_str());
    }
  }

  std::string mount_point_;
  std::unique_ptr<CqlConnection> connection_;
  MountNames names_;
  StatementSplitter splitter_;
  LineEditor editor_;
  DisplaySettings settings_;
  std::string keyspace_;  // from the last "OK USE ks"
  bool done_ = false;
  int status_ = 0;
};

}  // namespace

int RunShell(const std::string& mount_point) {
  std::string error;
  std::unique_ptr<CqlConnection> connection = CqlConnection::Open(mount_point, &error);
  if (connection == nullptr) {
    std::fprintf(stderr, "cellfs: %s\n", error.c_str());
    return 1;
  }
  Shell shell(mount_point, std::move(connection));
  return shell.Run();
}

}  // namespace cellfs::tools::shell
