// The shell's COPY: cqlsh's CSV import and export, run in the client by
// `cellfs load` and `cellfs dump` through the mount (the daemon never
// opens a file a statement names).
#pragma once

#include <string>

#include "tools/cellfs/shell/shell_command.h"

namespace cellfs::tools::shell {

// Runs `copy` (kind kCopy) on the mount: TO is `cellfs dump --csv -o FILE`
// (the CSV always starts with its header), FROM is `cellfs load FILE`
// (whose CSV must start with a header: HEADER = true is required). A
// column list is refused, as are an unqualified table with no keyspace in
// use. Messages go to stdout/stderr as those commands print them. Returns
// true when the whole table was copied.
bool RunCopy(const ShellCommand& copy, const std::string& mount_point,
             const std::string& keyspace_in_use);

}  // namespace cellfs::tools::shell
