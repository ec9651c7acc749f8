// The @cql protocol seen from the shell: a write per statement (EINVAL
// when it failed: its report is in the transcript), then preads at our own
// running offset until the end, split into entries by their first line.
#include "tools/cellfs/shell/cql_connection.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

namespace cellfs::tools::shell {

std::unique_ptr<CqlConnection> CqlConnection::Open(const std::string& mount_point,
                                                   std::string* error) {
  std::string path = mount_point + "/@cql";
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const char* what = err == EROFS    ? "is mounted read-only"
                       : err == EACCES ? "is not open to this user (mounted without allow_other?)"
                       : err == ENOENT ? "is not a cellfs mount"
                                       : "cannot take statements";
    *error = mount_point + " " + what + " (" + std::strerror(err) + ")";
    return nullptr;
  }
  return std::unique_ptr<CqlConnection>(new CqlConnection(fd, std::move(path)));
}

CqlConnection::~CqlConnection() { close(fd_); }

bool CqlConnection::Run(std::string_view statement,
                        const std::function<void(TranscriptEntry&&)>& sink, std::string* error) {
  std::string text(statement);
  text += '\n';
  const uint64_t first_line = lines_sent_ + 1;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL) break;  // the statement failed; the transcript says why
    if (n <= 0) {
      *error = "writing " + path_ + ": " + std::strerror(n < 0 ? errno : EIO);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  lines_sent_ += static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  return ReadEntries(first_line, sink, error);
}

bool CqlConnection::ReadEntries(uint64_t first_line,
                                const std::function<void(TranscriptEntry&&)>& sink,
                                std::string* error) {
  char buf[64 * 1024];
  std::string partial;  // a line not yet ended
  TranscriptEntry block;
  size_t block_left = 0;  // lines of the OUTPUT block still to come
  auto take_line = [&](std::string line) {
    if (block_left > 0) {
      block.lines.push_back(std::move(line));
      if (--block_left == 0) sink(std::exchange(block, {}));
      return;
    }
    if (line.starts_with("OUTPUT ")) {
      size_t count = 0;
      const char* end = line.data() + line.size();
      auto [ptr, ec] = std::from_chars(line.data() + 7, end, count);
      if (ec == std::errc() && ptr == end) {
        block = {TranscriptEntry::Kind::kOutput, "", {}};
        block_left = count;
        if (count == 0) sink(std::exchange(block, {}));
        return;
      }
    }
    const bool failed = line.starts_with("ERROR");
    sink({failed ? TranscriptEntry::Kind::kError : TranscriptEntry::Kind::kOk,
          failed ? RelativeErrorLine(line, first_line) : line,
          {}});
  };
  while (true) {
    const ssize_t n = pread(fd_, buf, sizeof(buf), static_cast<off_t>(read_offset_));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = "reading " + path_ + ": " + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    read_offset_ += static_cast<uint64_t>(n);
    partial.append(buf, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t end = partial.find('\n'); end != std::string::npos;
         end = partial.find('\n', start)) {
      take_line(partial.substr(start, end - start));
      start = end + 1;
    }
    partial.erase(0, start);
  }
  if (!partial.empty()) take_line(std::move(partial));
  if (block_left > 0) sink(std::move(block));  // a cut-short block: show what came
  return true;
}

std::string RelativeErrorLine(std::string_view text, uint64_t first_line) {
  constexpr std::string_view kPrefix = "ERROR line ";
  if (!text.starts_with(kPrefix)) return std::string(text);
  uint64_t line = 0;
  const char* begin = text.data() + kPrefix.size();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, line);
  if (ec != std::errc() || ptr == end || *ptr != ':' || line < first_line) {
    return std::string(text);
  }
  return std::string(kPrefix) + std::to_string(line - first_line + 1) +
         std::string(text.substr(static_cast<size_t>(ptr - text.data())));
}

}  // namespace cellfs::tools::shell
