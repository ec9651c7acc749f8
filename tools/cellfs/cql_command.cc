// `cellfs cql`: the @cql protocol from the outside. Every write runs the
// statements it completes (EINVAL: one of them failed); fsync runs a final
// statement left without ';'; reads from offset 0 return the transcript,
// printed as it is read (results are made as they are read), DESCRIBE
// results as cqlsh prints them.
#include "tools/cellfs/cql_command.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>

#include "tools/cellfs/shell/shell.h"

namespace cellfs::tools {
namespace {

// One write per FUSE request (well under max_write and 32 pages), so an
// EINVAL means exactly this chunk was taken and one of its statements failed.
constexpr size_t kChunk = 64 * 1024;

std::string ErrnoText(int err) { return std::strerror(err); }

std::optional<std::string> ReadScript(const CqlArgs& args) {
  if (!args.statement.empty()) {
    std::string script = args.statement;
    size_t last = script.find_last_not_of(" \t\r\n");
    if (last != std::string::npos && script[last] != ';') script += ";";
    return script + "\n";
  }
  std::ostringstream text;
  if (args.file.empty() || args.file == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(args.file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cellfs: %s: %s\n", args.file.c_str(), ErrnoText(errno).c_str());
      return std::nullopt;
    }
    text << in.rdbuf();
  }
  return text.str();
}

// Sends the script; false after a message when the file itself fails.
// `*failed` is set when a statement failed.
bool SendScript(int fd, const std::string& script, const std::string& path, bool* failed) {
  size_t done = 0;
  while (done < script.size()) {
    size_t size = std::min(kChunk, script.size() - done);
    ssize_t n = write(fd, script.data() + done, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL) {
      *failed = true;
      n = static_cast<ssize_t>(size);  // the chunk was taken; its report is in the transcript
    } else if (n <= 0) {
      std::fprintf(stderr, "cellfs: writing %s: %s\n", path.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    done += static_cast<size_t>(n);
  }
  while (fsync(fd) != 0) {
    if (errno == EINTR) continue;
    if (errno != EINVAL) {
      std::fprintf(stderr, "cellfs: syncing %s: %s\n", path.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    *failed = true;
    break;
  }
  return true;
}

// The n of an "OUTPUT n" header line (fs/formats/cql_session.h), else nullopt.
std::optional<size_t> OutputLines(std::string_view line) {
  constexpr std::string_view kOutput = "OUTPUT ";
  if (!line.starts_with(kOutput)) return std::nullopt;
  size_t count = 0;
  for (char c : line.substr(kOutput.size())) {
    if (c == '\n') break;
    if (c < '0' || c > '9') return std::nullopt;
    count = count * 10 + static_cast<size_t>(c - '0');
  }
  return count;
}

// Prints a transcript as it is read, line by line: the lines of each OUTPUT
// block without its header (a DESCRIBE prints as in cqlsh), ERROR lines to
// stderr. Holds one partial line at most, so a result of any size prints in
// bounded memory.
class TranscriptPrinter {
 public:
  void Feed(std::string_view bytes) {
    while (!bytes.empty()) {
      const size_t newline = bytes.find('\n');
      if (newline == std::string_view::npos) {
        partial_.append(bytes);
        return;
      }
      partial_.append(bytes.substr(0, newline + 1));
      bytes.remove_prefix(newline + 1);
      PrintLine(partial_);
      partial_.clear();
    }
  }

  // Prints a last line without '\n'; true when the transcript held an ERROR line.
  bool Finish() {
    if (!partial_.empty()) PrintLine(partial_);
    partial_.clear();
    std::fflush(stdout);
    return errors_;
  }

 private:
  void PrintLine(std::string_view line) {
    if (output_left_ > 0) {
      --output_left_;
      std::fwrite(line.data(), 1, line.size(), stdout);
      return;
    }
    if (std::optional<size_t> lines = OutputLines(line)) {
      output_left_ = *lines;
      return;
    }
    const bool error = line.starts_with("ERROR");
    errors_ = errors_ || error;
    if (error) std::fflush(stdout);  // keep the two streams in order on a terminal
    std::fwrite(line.data(), 1, line.size(), error ? stderr : stdout);
    if (line.back() != '\n') std::fputc('\n', error ? stderr : stdout);
  }

  std::string partial_;
  size_t output_left_ = 0;  // lines of an OUTPUT block still to print
  bool errors_ = false;
};

// Reads the transcript from offset 0 to its end, printing as it goes; false
// (after saying why) when a read fails. *errors: it held an ERROR line.
bool PrintTranscript(int fd, const std::string& path, bool* errors) {
  TranscriptPrinter printer;
  char buf[64 * 1024];
  off_t offset = 0;
  while (true) {
    const ssize_t n = pread(fd, buf, sizeof(buf), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      printer.Finish();
      std::fprintf(stderr, "cellfs: reading %s: %s\n", path.c_str(), ErrnoText(errno).c_str());
      return false;
    }
    if (n == 0) break;
    printer.Feed(std::string_view(buf, static_cast<size_t>(n)));
    offset += n;
  }
  *errors = printer.Finish();
  return true;
}

}  // namespace

int RunCql(const CqlArgs& args) {
  if (args.statement.empty() && args.file.empty() && isatty(STDIN_FILENO) == 1) {
    return shell::RunShell(args.mount_point);
  }
  std::optional<std::string> script = ReadScript(args);
  if (!script) return 1;
  std::string path = args.mount_point + "/@cql";
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    const char* what = err == EROFS    ? "is mounted read-only"
                       : err == EACCES ? "is not open to this user (mounted without allow_other?)"
                       : err == ENOENT ? "is not a cellfs mount"
                                       : "cannot take statements";
    std::fprintf(stderr, "cellfs: %s %s (%s)\n", args.mount_point.c_str(), what,
                 ErrnoText(err).c_str());
    return 1;
  }
  bool failed = false;
  bool errors = false;
  const bool ok = SendScript(fd, *script, path, &failed) && PrintTranscript(fd, path, &errors);
  close(fd);
  if (!ok) return 1;
  return failed || errors ? 1 : 0;
}

}  // namespace cellfs::tools
