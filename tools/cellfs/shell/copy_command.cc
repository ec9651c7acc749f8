// COPY mapped onto RunLoad and RunDump, after the checks that those
// commands' formats impose.
#include "tools/cellfs/shell/copy_command.h"

#include <cstdio>

#include "tools/cellfs/dump_command.h"
#include "tools/cellfs/load_command.h"

namespace cellfs::tools::shell {

bool RunCopy(const ShellCommand& copy, const std::string& mount_point,
             const std::string& keyspace_in_use) {
  const std::string keyspace = copy.keyspace.empty() ? keyspace_in_use : copy.keyspace;
  if (keyspace.empty()) {
    std::fprintf(stderr, "COPY: no keyspace in use: name the table as keyspace.table\n");
    return false;
  }
  if (!copy.columns.empty()) {
    std::fprintf(stderr,
                 "COPY: cellfs copies every column (its CSV header names them); drop the column "
                 "list\n");
    return false;
  }
  if (copy.copy_to) {
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
  if (!copy.header) {
    std::fprintf(stderr,
                 "COPY FROM: cellfs reads a CSV whose first line names the columns; add WITH "
                 "HEADER = true\n");
    return false;
  }
  LoadArgs args;
  args.target = mount_point;
  args.keyspace = keyspace;
  args.table = copy.table;
  args.files = {copy.file};
  return RunLoad(args) == 0;
}

}  // namespace cellfs::tools::shell
