// COPY mapped onto RunLoad and RunDump, after the checks that those
// commands' formats impose.
#include "tools/cellfs/shell/copy_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "tools/cellfs/dump_command.h"
#include "tools/cellfs/load_command.h"
#include "tools/cellfs/shell/mount_names.h"

namespace cellfs::tools::shell {
namespace {

// `columns` as a CSV line: a name with a comma, a quote or a blank at
// either end quoted, its quotes doubled.
std::string CsvHeader(const std::vector<std::string>& columns) {
  std::string line;
  for (const std::string& name : columns) {
    if (!line.empty()) line += ',';
    const bool quote = name.find_first_of(",\"\r\n") != std::string::npos || name.empty() ||
                       name.front() == ' ' || name.back() == ' ';
    if (!quote) {
      line += name;
      continue;
    }
    line += '"';
    for (char c : name) line += c == '"' ? std::string("\"\"") : std::string(1, c);
    line += '"';
  }
  return line;
}

}  // namespace

bool RunCopy(const ShellCommand& copy, const std::string& mount_point,
             const std::string& keyspace_in_use) {
  const std::string keyspace = copy.keyspace.empty() ? keyspace_in_use : copy.keyspace;
  if (keyspace.empty()) {
    std::fprintf(stderr, "COPY: no keyspace in use: name the table as keyspace.table\n");
    return false;
  }
  if (copy.copy_to) {
    if (!copy.columns.empty()) {
      std::fprintf(stderr, "COPY TO: cellfs exports every column; drop the column list\n");
      return false;
    }
    DumpArgs args;
    args.source = mount_point;
    args.keyspace = keyspace;
    args.table = copy.table;
    args.csv = true;
    args.output = copy.file;
    const bool ok = RunDump(args) == 0;
    if (ok)
      std::printf("copied %s.%s to %s\n", keyspace.c_str(), copy.table.c_str(), copy.file.c_str());
    return ok;
  }
  LoadArgs args;
  args.target = mount_point;
  args.keyspace = keyspace;
  args.table = copy.table;
  args.files = {copy.file};
  args.max_errors = copy.max_errors;
  args.errfile = copy.errfile;
  // The file's own header names the columns, unless a list does (its header
  // line is then skipped, as cqlsh skips it) or there is none (the table's
  // columns in order, as cqlsh takes them).
  if (!copy.columns.empty() || !copy.header) {
    std::vector<std::string> columns = copy.columns;
    if (columns.empty()) columns = MountNames(mount_point).Columns(keyspace, copy.table);
    if (columns.empty()) {
      std::fprintf(stderr, "COPY: no table %s.%s on this mount\n", keyspace.c_str(),
                   copy.table.c_str());
      return false;
    }
    args.header = CsvHeader(columns);
    args.skip_rows = copy.header ? 1 : 0;
  }
  return RunLoad(args) == 0;
}

}  // namespace cellfs::tools::shell
