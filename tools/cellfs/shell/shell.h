// RunShell: `cellfs cql MOUNT` on a terminal — cqlsh's interactive shell
// over a mount's @cql (docs/CQL.md, "The shell").
#pragma once

#include <string>

namespace cellfs::tools::shell {

// Reads statements from the terminal until EXIT, QUIT or Ctrl-D, sending
// each complete one to MOUNT/@cql over one open file (so USE lasts) and
// printing its result; runs the shell commands (shell_command.h) itself.
// History is kept in $HOME/.cellfs_history. Returns the exit code: 0, or 1
// when the mount cannot take statements or stops answering.
// REQUIRES: stdin is a terminal.
int RunShell(const std::string& mount_point);

}  // namespace cellfs::tools::shell
