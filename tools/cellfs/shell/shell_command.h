// ShellCommand: the commands `cellfs cql`'s interactive shell runs itself,
// as cqlsh does (EXPAND, PAGING, SOURCE, COPY, HELP, EXIT/QUIT), recognised
// in a typed line; everything else is CQL for the mount.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

struct ShellCommand {
  enum class Kind { kExpand, kPaging, kSource, kCopy, kHelp, kExit, kInvalid };
  Kind kind = Kind::kInvalid;
  // EXPAND and PAGING: nullopt shows the setting; else ON (true) or OFF.
  std::optional<bool> on;
  size_t page_size = 0;  // PAGING N (N > 0); 0: not given
  std::string file;      // SOURCE and COPY: the file, quotes removed
  // COPY [ks.]table [(columns)] TO|FROM 'file' [WITH HEADER = true|false].
  std::string keyspace;  // empty: the keyspace in use
  std::string table;
  std::vector<std::string> columns;
  bool copy_to = false;  // TO: export; FROM: import
  bool header = false;   // cqlsh's default
  // FROM only: MAXPARSEERRORS / MAXINSERTERRORS (the smaller, when both:
  // cellfs counts every refused record against one limit; -1 none) and
  // ERRFILE, as `cellfs load --max-errors --errfile`.
  int64_t max_errors = -1;
  std::string errfile;
  std::string error;  // kInvalid: what is wrong, for the user
};

// The shell command `line` spells (keywords in any case, an optional final
// ';', blanks around), or nullopt when its first word names no shell
// command, so the line is CQL. A line that starts like a shell command but
// does not parse is kInvalid with a usage message in `error`.
std::optional<ShellCommand> ParseShellCommand(std::string_view line);

// The HELP text: what the shell accepts, one line each.
std::string ShellHelpText();

}  // namespace cellfs::tools::shell
