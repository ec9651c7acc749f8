// Whether a data directory is safe to open: the store's files are created,
// renamed and removed by name, and LevelDB follows symbolic links, so anyone
// else who can write the directory could point the daemon at other files.
#pragma once

#include <sys/types.h>

#include <string>

#include "engine/status.h"

namespace cellfs::tools {

// Ok when `dir` is a directory owned by `user` that neither its group nor
// others can write. Otherwise FailedPrecondition naming the directory, what
// is wrong and the fix (chown / chmod go-w); IOError when it cannot be
// stat'ed. Thread-safe.
Status CheckDataDirTrust(const std::string& dir, uid_t user);

// The umask under which the store's files are created: owner only, so a
// store is never readable by others, whatever the caller's umask.
inline constexpr mode_t kStoreUmask = 077;

}  // namespace cellfs::tools
