// StoreArgument: the store a command names (its DATADIR), a data directory
// or a RADOS pool spelled `rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE]`
// (engine/store/storage/store_location.h), made ready for Engine::Open.
// The one place the commands decide between the two.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"
#include "tools/cellfs/data_dir_trust.h"
#include "tools/cellfs/unique_fd.h"

namespace cellfs::tools {

// A line for each store-taking command's help.
inline constexpr char kStoreSpellingHelp[] =
    "DATADIR may also be rados:POOL[?conf=FILE&id=NAME&ns=NAMESPACE], a pool of a Ceph cluster.";

struct StoreArgument {
  // Engine::Open's path: a pool's spelling unchanged; a directory as given,
  // or absolute and free of symbolic links when judged against a mount
  // point. Also what a mount shows as its source.
  std::string path;
  // A pool: no local directory, no descriptor, nothing to clean up, and
  // nothing refuses another mount of the same pool.
  bool rados = false;
  // A directory's judged descriptor (OpenTrustedDataDir), which the engine
  // reaches its files through (EngineOptions::data_dir_fd); -1 for a pool.
  UniqueFd dir_fd;
  // The directory, when opening it created it; else empty.
  MadeDirectory made;
};

struct StoreArgumentOptions {
  bool create = false;  // make a missing data directory (0700)
  // When set (absolute, symlink-free): a data directory there or below is
  // refused, and StoreArgument::path is made absolute.
  std::string mount_point;
};

// Whether `spelling` is a usable store argument, touching nothing:
// InvalidArgument with ParseStoreLocation's message for a bad rados
// spelling; Ok for any other (a directory's faults show when it is opened).
Status CheckStoreSpelling(std::string_view spelling);

// The same for the first argument of load, dump and stats: with `offline`
// a store (as above); without, a mount point, so a rados spelling is
// InvalidArgument (a store, not a mount: --offline, or a mount of it).
Status CheckSourceArgument(std::string_view source, bool offline);

// Readies `spelling` for Engine::Open. A pool: checked as above, nothing
// opened. A directory: judged and opened by OpenTrustedDataDir (created
// when `options.create`); IOError when it (or, when missing, its parent)
// does not resolve; InvalidArgument when it lies inside
// `options.mount_point`; OpenTrustedDataDir's errors.
Result<StoreArgument> OpenStoreArgument(const std::string& spelling,
                                        const StoreArgumentOptions& options);

}  // namespace cellfs::tools
