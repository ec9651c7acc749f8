// What `cellfs load` does with refused records (tools/cellfs/load_command.h):
// shows a bounded number of their reasons, keeps their rows in --errfile
// (cqlsh COPY's ERRFILE) and counts them against --max-errors (its
// MAXPARSEERRORS and MAXINSERTERRORS in one).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cellfs::tools {

// Reasons printed to stderr per file; the rest are counted ("... and N
// more"), so a file of 100,000 bad records does not print 100,000 lines.
inline constexpr size_t kShownRefusals = 100;

// The line numbers of a report's "line N: message" lines, in order.
std::vector<uint64_t> RefusedLines(const std::string& refusals);

// Prints the first kShownRefusals lines of `refusals` to stderr, each as
// "LABEL: line N: message", then how many more there were and where their
// rows are (`errfile`, or how to keep them).
void PrintRefusals(const std::string& label, const std::string& refusals,
                   const std::string& errfile);

// The --errfile: the refused records' own lines, so that it loads again
// once fixed. A CSV header goes first, once: the first CSV file's header
// line (or the header given for header-less input); files of one load are
// meant for one table.
class ErrFile {
 public:
  // Creates (truncates) `path`; null after a message on stderr.
  static std::unique_ptr<ErrFile> Create(const std::string& path);
  ~ErrFile();
  ErrFile(const ErrFile&) = delete;
  ErrFile& operator=(const ErrFile&) = delete;

  // Appends lines `lines` (1-based, ascending) of `file`, reading it again
  // from its start; `given_header` (LoadArgs::header) goes first when set.
  // A file that cannot be read again (stdin, a pipe) adds a comment line
  // "# FILE: N refused records; their input cannot be read again" instead.
  // False after a message on stderr when the errfile cannot be written.
  bool AddRows(const std::string& file, const std::vector<uint64_t>& lines,
               const std::string& given_header);

  const std::string& path() const { return path_; }

 private:
  ErrFile(std::string path, std::FILE* out) : path_(std::move(path)), out_(out) {}

  const std::string path_;
  std::FILE* const out_;
  bool wrote_header_ = false;
};

}  // namespace cellfs::tools
