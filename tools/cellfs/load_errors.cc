// Refused records of `cellfs load` (tools/cellfs/load_errors.h): the reasons
// shown, the rows kept in --errfile.
#include "tools/cellfs/load_errors.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

namespace cellfs::tools {

std::vector<uint64_t> RefusedLines(const std::string& refusals) {
  std::vector<uint64_t> lines;
  size_t start = 0;
  while (start < refusals.size()) {
    size_t end = refusals.find('\n', start);
    if (end == std::string::npos) end = refusals.size();
    unsigned long long number = 0;
    if (std::sscanf(refusals.substr(start, end - start).c_str(), "line %llu:", &number) == 1) {
      lines.push_back(number);
    }
    start = end + 1;
  }
  return lines;
}

void PrintRefusals(const std::string& label, const std::string& refusals,
                   const std::string& errfile) {
  size_t start = 0;
  size_t shown = 0;
  size_t more = 0;
  while (start < refusals.size()) {
    size_t end = refusals.find('\n', start);
    if (end == std::string::npos) end = refusals.size();
    if (shown < kShownRefusals) {
      std::fprintf(stderr, "%s: %.*s\n", label.c_str(), static_cast<int>(end - start),
                   refusals.data() + start);
      ++shown;
    } else {
      ++more;
    }
    start = end + 1;
  }
  if (more == 0) return;
  std::fprintf(stderr, "%s: ... and %zu more refused records (%s)\n", label.c_str(), more,
               errfile.empty() ? "--errfile FILE keeps the rows of all of them"
                               : ("their rows are in " + errfile).c_str());
}

std::unique_ptr<ErrFile> ErrFile::Create(const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "we");
  if (out == nullptr) {
    std::fprintf(stderr, "cellfs: --errfile %s: %s\n", path.c_str(), std::strerror(errno));
    return nullptr;
  }
  return std::unique_ptr<ErrFile>(new ErrFile(path, out));
}

ErrFile::~ErrFile() { std::fclose(out_); }

bool ErrFile::AddRows(const std::string& file, const std::vector<uint64_t>& lines,
                      const std::string& given_header) {
  if (lines.empty()) return true;
  struct stat st {};
  std::ifstream in;
  if (file != "-" && stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) in.open(file);
  if (!in.is_open()) {
    std::fprintf(out_, "# %s: %zu refused records; their input cannot be read again\n",
                 file == "-" ? "stdin" : file.c_str(), lines.size());
  } else {
    if (!given_header.empty() && !wrote_header_) std::fprintf(out_, "%s\n", given_header.c_str());
    if (!given_header.empty()) wrote_header_ = true;
    std::string line;
    uint64_t number = 0;
    size_t next = 0;
    bool csv = false;
    while (next < lines.size() && std::getline(in, line)) {
      ++number;
      // A CSV file's first record line is its header: the rows need it to
      // load again (JSON Lines records begin with '{').
      if (number == 1 && given_header.empty()) {
        size_t first = line.find_first_not_of(" \t\r");
        csv = first != std::string::npos && line[first] != '{';
        if (csv && !wrote_header_) std::fprintf(out_, "%s\n", line.c_str());
        wrote_header_ = wrote_header_ || csv;
      }
      if (number == lines[next]) {
        if (!(csv && number == 1)) std::fprintf(out_, "%s\n", line.c_str());
        while (next < lines.size() && lines[next] == number) ++next;
      }
    }
  }
  if (std::fflush(out_) != 0 || std::ferror(out_)) {
    std::fprintf(stderr, "cellfs: --errfile %s: %s\n", path_.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace cellfs::tools
