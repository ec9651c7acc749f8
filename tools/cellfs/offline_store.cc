// Opens a store's engine, a data directory's or a pool's, for the --offline
// commands (tools/cellfs/offline_store.h).
#include "tools/cellfs/offline_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <limits>

#include "tools/cellfs/data_dir_trust.h"
#include "tools/cellfs/store_argument.h"

namespace cellfs::tools {

std::unique_ptr<Engine> OpenOfflineStore(const std::string& store_spelling, bool read_only,
                                         const char* what) {
  // Never creates a directory: LevelDB would make one before noticing it
  // holds no store.
  Result<StoreArgument> store = OpenStoreArgument(store_spelling, StoreArgumentOptions());
  if (!store.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", store.status().message().c_str());
    return nullptr;
  }
  umask(kStoreUmask);
  EngineOptions options;
  options.read_only = read_only;
  options.create_if_missing = false;
  options.background_sweeper = false;  // a short job; the daemon sweeps
  // Index and view builds a crash interrupted finish inside the open, as
  // before a mount: a short job would otherwise stop them at its close.
  options.inline_build_rows = std::numeric_limits<uint64_t>::max();
  options.background_builds = false;
  options.data_dir_fd = store->dir_fd.get();  // the engine dups it; -1 for a pool
  Result<std::unique_ptr<Engine>> engine = Engine::Open(store->path, options);
  if (engine.ok()) return std::move(*engine);
  const std::string& message = engine.status().message();
  bool in_use = message.find("in use by another process") != std::string::npos;
  const std::string hint = !in_use           ? ""
                           : what == nullptr ? "; if it is mounted, unmount it"
                                             : std::string("; if it is mounted, ") + what +
                                                   " through the mount or unmount it";
  std::fprintf(stderr, "cellfs: %s%s\n", message.c_str(), hint.c_str());
  return nullptr;
}

}  // namespace cellfs::tools
