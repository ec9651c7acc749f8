// `cellfs status`: reads MOUNT/@status of each cellfs mount, each read on a
// thread of its own so a hung daemon costs a timeout, not the command.
#include "tools/cellfs/status_command.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "tools/cellfs/mount_table.h"
#include "tools/cellfs/progress.h"

namespace cellfs::tools {
namespace {

constexpr const char* kCellfsType = "fuse.cellfs";
constexpr auto kAnswerTimeout = std::chrono::seconds(3);

// One mount: its @status object, or why there is none.
struct MountReport {
  MountEntry mount;
  std::optional<nlohmann::json> status;
  std::string error;
};

// The text of MOUNT/@status, or the errno's text.
struct ReadResult {
  bool ok = false;
  std::string text;
};

ReadResult ReadStatusFile(const std::string& mount_point) {
  ReadResult result;
  std::ifstream in(mount_point + "/@status");
  if (!in) {
    result.text = std::strerror(errno);
    return result;
  }
  std::ostringstream text;
  text << in.rdbuf();
  result.ok = true;
  result.text = text.str();
  return result;
}

// Starts reading MOUNT/@status on a detached thread: a read stuck in a hung
// daemon must not hold the command (the thread owns its promise and ends
// with the process).
std::future<ReadResult> StartRead(const MountEntry& mount) {
  auto promise = std::make_shared<std::promise<ReadResult>>();
  std::future<ReadResult> answer = promise->get_future();
  std::thread([promise, at = mount.mount_point] {
    promise->set_value(ReadStatusFile(at));
  }).detach();
  return answer;
}

MountReport Inspect(const MountEntry& mount, std::future<ReadResult>& answer,
                    std::chrono::steady_clock::time_point deadline) {
  MountReport report{mount, std::nullopt, {}};
  if (answer.wait_until(deadline) != std::future_status::ready) {
    report.error = "not answering (a hung daemon? cellfs umount --force)";
    return report;
  }
  ReadResult read = answer.get();
  if (!read.ok) {
    report.error = "cannot read @status: " + read.text;
    return report;
  }
  nlohmann::json parsed = nlohmann::json::parse(read.text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) {
    report.error = "@status is not a JSON object (a cellfs older than this command?)";
    return report;
  }
  report.status = std::move(parsed);
  return report;
}

bool Healthy(const MountReport& report) {
  if (!report.status) return false;
  auto writes = report.status->find("writes");
  return writes != report.status->end() && writes->is_string() && *writes == "ok";
}

std::string Text(const nlohmann::json& status, const char* key) {
  auto it = status.find(key);
  if (it == status.end() || it->is_null()) return "-";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string CommitText(const nlohmann::json& status) {
  std::string commit = Text(status, "commit");
  auto interval = status.find("commit_interval_ms");
  if (commit != "-" && commit != "batch" && interval != status.end() && interval->is_number()) {
    commit += " " + interval->dump() + "ms";
  }
  return commit;
}

// A line per index or view build under way (@status "builds").
void PrintBuilds(const nlohmann::json& status) {
  auto builds = status.find("builds");
  if (builds == status.end() || !builds->is_array()) return;
  for (const nlohmann::json& build : *builds) {
    const std::string what = Text(build, "kind") + " " + Text(build, "name") + " of " +
                             Text(build, "keyspace") + "." + Text(build, "table");
    if (Text(build, "error") != "-") {
      std::printf("  build of %s stopped: %s\n", what.c_str(), Text(build, "error").c_str());
      continue;
    }
    std::printf("  building %s: %s rows read, %s%% of the token ring\n", what.c_str(),
                Text(build, "rows").c_str(), Text(build, "percent").c_str());
  }
}

void PrintTable(const std::vector<MountReport>& reports) {
  std::printf("%-28s %-28s %8s %-16s %10s %-6s %8s\n", "MOUNTPOINT", "DATADIR", "PID", "COMMIT",
              "STORE", "WRITES", "REFUSALS");
  for (const MountReport& report : reports) {
    const char* mount_point = report.mount.mount_point.c_str();
    if (!report.status) {
      std::printf("%-28s %-28s %8s %-16s %10s %-6s %8s\n", mount_point, report.mount.source.c_str(),
                  "-", "-", "-", "?", "-");
      std::printf("  %s\n", report.error.c_str());
      continue;
    }
    const nlohmann::json& status = *report.status;
    auto bytes = status.find("store_bytes");
    std::string store = bytes != status.end() && bytes->is_number_unsigned()
                            ? FormatBytes(bytes->get<uint64_t>())
                            : "-";
    const bool takes_writes = Healthy(report);
    std::printf("%-28s %-28s %8s %-16s %10s %-6s %8s\n", mount_point,
                Text(status, "data_dir").c_str(), Text(status, "pid").c_str(),
                CommitText(status).c_str(), store.c_str(), takes_writes ? "ok" : "NO",
                Text(status, "refusals").c_str());
    if (!takes_writes) std::printf("  writes refused: %s\n", Text(status, "writes").c_str());
    if (Text(status, "latest_refusal") != "-") {
      std::printf("  latest refusal: %s\n", Text(status, "latest_refusal").c_str());
    }
    PrintBuilds(status);
  }
}

void PrintJson(const std::vector<MountReport>& reports) {
  for (const MountReport& report : reports) {
    nlohmann::json line = report.status ? *report.status : nlohmann::json::object();
    line["mount_point"] = report.mount.mount_point;
    if (!report.status) {
      line["data_dir"] = report.mount.source;
      line["error"] = report.error;
    }
    std::printf("%s\n",
                line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
}

}  // namespace

int RunStatus(const StatusArgs& args) {
  std::vector<MountEntry> mounts;
  bool all_found = true;
  if (args.mount_points.empty()) {
    mounts = ListMounts(kCellfsType);
  } else {
    for (const std::string& given : args.mount_points) {
      const std::string path = AbsolutePathOfMountPoint(given);
      std::optional<MountEntry> entry = path.empty() ? std::nullopt : FindMount(path);
      if (!entry || entry->fs_type != kCellfsType) {
        std::fprintf(stderr, "cellfs status: %s: not a cellfs mount point\n", given.c_str());
        all_found = false;
        continue;
      }
      mounts.push_back(*entry);
    }
  }
  if (mounts.empty() && all_found) {
    if (!args.json) std::printf("no cellfs mounts\n");
    return 0;
  }
  // Every read starts at once, so hung mounts cost one timeout together.
  std::vector<std::future<ReadResult>> answers;
  for (const MountEntry& mount : mounts) answers.push_back(StartRead(mount));
  const auto deadline = std::chrono::steady_clock::now() + kAnswerTimeout;
  std::vector<MountReport> reports;
  bool healthy = all_found;
  for (size_t i = 0; i < mounts.size(); ++i) {
    reports.push_back(Inspect(mounts[i], answers[i], deadline));
    healthy = healthy && Healthy(reports.back());
  }
  if (args.json) {
    PrintJson(reports);
  } else if (!reports.empty()) {
    PrintTable(reports);
  }
  return healthy ? 0 : 1;
}

}  // namespace cellfs::tools
