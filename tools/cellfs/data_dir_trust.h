// Whether a data directory is safe to open, and its descriptor when it is.
// The store's files are then reached only through that descriptor
// (EngineOptions::data_dir_fd), so the directory judged is the one written,
// whatever later happens to its path.
#pragma once

#include <sys/types.h>

#include <string>

#include "engine/status.h"
#include "tools/cellfs/unique_fd.h"

namespace cellfs::tools {

// Judges `dir` and every directory above it as sshd and sudo judge their
// files, then returns a descriptor of `dir` (O_RDONLY | O_DIRECTORY,
// close-on-exec).
//
// `dir` is first made absolute and free of symbolic links (realpath; for a
// missing `dir`, of its parent), then walked from "/" one component at a
// time without following links, each judged on the descriptor opened:
// - every ancestor is owned by root or `user`, and neither its group nor
//   others can write it unless it is sticky (like /tmp: there only an
//   entry's owner can remove or rename it, and the entry below is owned
//   by root or `user`, as every ancestor is);
// - `dir` itself is a directory owned by `user` that neither its group nor
//   others can write.
// A missing `dir` is created 0700 (mkdirat in the judged parent, whatever
// the umask) when `create`.
//
// Errors: FailedPrecondition naming the directory at fault, why (owner or
// mode) and the fix (chown / chmod); IOError when a component cannot be
// opened (missing, or a symbolic link that appeared during the walk).
// When this call created `dir` and `made` is given, *made names it by its
// judged parent's descriptor (so a failed mount can take it away again);
// otherwise *made is left empty. Thread-safe.
struct MadeDirectory {
  UniqueFd parent;  // O_PATH descriptor of the judged parent
  std::string name;
};
Result<UniqueFd> OpenTrustedDataDir(const std::string& dir, uid_t user, bool create,
                                    MadeDirectory* made = nullptr);

// The umask under which the store's files are created: owner only, so a
// store is never readable by others, whatever the caller's umask.
inline constexpr mode_t kStoreUmask = 077;

}  // namespace cellfs::tools
