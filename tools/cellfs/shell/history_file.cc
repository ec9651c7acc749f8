// Reading and appending the history file, a line per entry.
#include "tools/cellfs/shell/history_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <fstream>

namespace cellfs::tools::shell {

std::string EncodeHistoryEntry(std::string_view entry) {
  std::string out;
  for (char c : entry) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string DecodeHistoryEntry(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      out += line[i + 1] == 'n' ? '\n' : line[i + 1];
      ++i;
    } else {
      out += line[i];
    }
  }
  return out;
}

std::vector<std::string> LoadHistory(const std::string& path, size_t keep) {
  std::ifstream in(path);
  std::deque<std::string> last;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    last.push_back(DecodeHistoryEntry(line));
    if (last.size() > keep) last.pop_front();
  }
  return {last.begin(), last.end()};
}

bool AppendHistory(const std::string& path, std::string_view entry) {
  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::string line = EncodeHistoryEntry(entry) + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return close(fd) == 0 && done == line.size();
}

}  // namespace cellfs::tools::shell
