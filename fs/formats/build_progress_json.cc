// Spellings of BuildProgress.
#include "fs/formats/build_progress_json.h"

#include <cmath>
#include <cstdio>

namespace cellfs::fs {
namespace {

double Percent(const BuildProgress& build) { return std::floor(build.fraction * 1000) / 10; }

}  // namespace

nlohmann::json BuildProgressJson(const BuildProgress& build) {
  return {{"kind", build.kind == BuildProgress::Kind::kView ? "view" : "index"},
          {"keyspace", build.keyspace},
          {"table", build.table},
          {"name", build.name},
          {"rows", build.rows},
          {"percent", Percent(build)},
          {"error", build.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(build.error)}};
}

std::string BuildProgressText(const BuildProgress& build) {
  if (!build.error.empty()) return "build stopped: " + build.error;
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f", Percent(build));
  return "being built: " + std::to_string(build.rows) + " rows read, " + percent +
         "% of the token ring";
}

}  // namespace cellfs::fs
