// `cellfs cql`: runs a CQL script through a mount's @cql file and prints
// what happened.
#pragma once

#include <string>

namespace cellfs::tools {

struct CqlArgs {
  std::string mount_point;
  std::string statement;  // -e; empty: read `file`, or stdin
  std::string file;       // -f; "-" is stdin
};

// With neither -e nor -f and stdin a terminal: the interactive shell
// (shell/shell.h). Otherwise writes the script to MOUNTPOINT/@cql, then reads back the transcript
// of the same open file: "OK ..." lines go to stdout, "ERROR line L:C: ..." lines to stderr. A -e
// statement without a final ';' gets one. Returns the exit code: 0 when every statement ran, 1 when
// one failed or the mount or script cannot be used.
int RunCql(const CqlArgs& args);

}  // namespace cellfs::tools
