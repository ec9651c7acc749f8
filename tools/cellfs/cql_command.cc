// `cellfs cql`: the @cql protocol from the outside. Every write runs the
// statements it completes (EINVAL: one of them failed); fsync runs a final
// statement left without ';'; a read from offset 0 returns the transcript,
// whose DESCRIBE results print as cqlsh prints them.
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

#include "tools/cellfs/control_file.h"

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

// Prints the transcript, the lines of each OUTPUT block without its header
// (a DESCRIBE prints as in cqlsh); true when it holds an ERROR line.
bool PrintTranscript(const std::string& transcript) {
  bool errors = false;
  size_t start = 0;
  size_t output_left = 0;  // lines of an OUTPUT block still to print
  while (start < transcript.size()) {
    size_t end = transcript.find('\n', start);
    end = end == std::string::npos ? transcript.size() : end + 1;
    std::string_view line(transcript.data() + start, end - start);
    if (output_left > 0) {
      --output_left;
      std::fwrite(line.data(), 1, line.size(), stdout);
      start = end;
      continue;
    }
    if (std::optional<size_t> lines = OutputLines(line)) {
      output_left = *lines;
      start = end;
      continue;
    }
    bool error = line.starts_with("ERROR");
    errors = errors || error;
    if (error) std::fflush(stdout);  // keep the two streams in order on a terminal
    std::fwrite(line.data(), 1, line.size(), error ? stderr : stdout);
    if (line.back() != '\n') std::fputc('\n', error ? stderr : stdout);
    start = end;
  }
  std::fflush(stdout);
  return errors;
}

}  // namespace

int RunCql(const CqlArgs& args) {
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
  std::string transcript;
  bool ok = SendScript(fd, *script, path, &failed) && ReadWholeFile(fd, path, &transcript);
  close(fd);
  if (!ok) return 1;
  bool errors = PrintTranscript(transcript);
  return failed || errors ? 1 : 0;
}

}  // namespace cellfs::tools
