// MountStatusText: @status assembled from the daemon's facts, the engine's
// write health and the refusal log.
#include "fs/tree/mount_status.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "fs/formats/build_progress_json.h"
#include "fs/tree/tree_context.h"

namespace cellfs::fs {
namespace {

nlohmann::json TextOrNull(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

}  // namespace

std::string MountStatusText(const TreeContext& tree) {
  const FilesystemOptions::Daemon& daemon = tree.options->daemon;
  nlohmann::json status;
  status["pid"] = static_cast<int64_t>(getpid());
  status["data_dir"] = TextOrNull(daemon.data_dir);
  status["mounted_micros"] = tree.mount_micros;
  status["commit"] = TextOrNull(daemon.commit);
  status["commit_interval_ms"] =
      daemon.commit.empty() ? nlohmann::json(nullptr) : nlohmann::json(daemon.commit_interval_ms);
  status["read_only"] = tree.options->read_only;
  status["store_bytes"] =
      daemon.store_bytes ? nlohmann::json(daemon.store_bytes()) : nlohmann::json(nullptr);
  Status health = tree.engine->WriteHealth();
  status["writes"] = tree.options->read_only
                         ? std::string("refused: the mount is read-only (-o ro)")
                     : health.ok() ? std::string("ok")
                                   : health.message();
  RefusalLog::Summary refusals = tree.refusals.Summarize();
  status["refusals"] = refusals.recorded;
  status["latest_refusal"] = TextOrNull(refusals.latest);
  nlohmann::json builds = nlohmann::json::array();
  for (const BuildProgress& build : tree.engine->BuildsInProgress()) {
    builds.push_back(BuildProgressJson(build));
  }
  status["builds"] = std::move(builds);
  // Invalid UTF-8 in a path or reason shows as U+FFFD, never a throw.
  return status.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace cellfs::fs
