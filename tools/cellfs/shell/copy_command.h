// The shell's COPY: cqlsh's CSV import and export, run in the client by
// `cellfs load` and `cellfs dump` through the mount (the daemon never
// opens a file a statement names).
#pragma once

#include <string>

#include "tools/cellfs/shell/shell_command.h"

namespace cellfs::tools::shell {

// Runs `copy` (kind kCopy) on the mount: TO is `cellfs dump --csv -o FILE`
// (the CSV always starts with its header; a column list is refused), FROM
// is `cellfs load FILE` with the columns named by the file's header (HEADER
// = true), or by the column list or else the table's columns in order
// (LoadArgs::header; with HEADER = true the file's own header line is then
// skipped). An unqualified table needs a keyspace in use. Messages go to
// stdout/stderr as those commands print them. Returns true when the whole
// table was copied.
bool RunCopy(const ShellCommand& copy, const std::string& mount_point,
             const std::string& keyspace_in_use);

}  // namespace cellfs::tools::shell
