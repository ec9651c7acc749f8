// `cellfs verify DATADIR`: reads a store offline, every entry once, and
// says whether each decodes (Engine::Verify).
#pragma once

#include <string>

namespace cellfs::tools {

struct VerifyArgs {
  std::string data_dir;
};

// Opens DATADIR read-only (refused while a mount holds it), verifies it and
// prints the counts and the faults (the first 100). Returns the exit code:
// 0 when the store is sound, 1 when it has faults, 2 when it cannot be
// opened or read (the message on stderr).
int RunVerify(const VerifyArgs& args);

}  // namespace cellfs::tools
