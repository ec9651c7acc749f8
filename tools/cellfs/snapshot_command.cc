// `cellfs snapshot`: Engine's snapshot calls on an offline store, printed.
#include "tools/cellfs/snapshot_command.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "tools/cellfs/offline_store.h"

namespace cellfs::tools {
namespace {

// "2026-11-27 19:02:41.327 UTC"
std::string UtcTime(int64_t ms) {
  const int64_t millis = ((ms % 1000) + 1000) % 1000;
  const std::time_t seconds = static_cast<std::time_t>((ms - millis) / 1000);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  char text[48];
  const size_t length = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &parts);
  std::snprintf(text + length, sizeof text - length, ".%03d UTC", static_cast<int>(millis));
  return text;
}

// 1 for a refusal the user can act on, 2 for a failing store.
int Failed(const std::string& what, const Status& status) {
  std::fprintf(stderr, "cellfs snapshot: %s: %s\n", what.c_str(), status.message().c_str());
  const StatusCode code = status.code();
  return code == StatusCode::kNotFound || code == StatusCode::kInvalidArgument ? 1 : 2;
}

int List(Engine& engine) {
  std::vector<SnapshotInfo> snapshots;
  std::vector<std::string> unreadable;
  if (Status s = engine.Snapshots(&snapshots, &unreadable); !s.ok()) return Failed("listing", s);
  for (const std::string& why : unreadable) {
    std::fprintf(stderr, "cellfs snapshot: unreadable (clear it by name): %s\n", why.c_str());
  }
  std::stable_sort(
      snapshots.begin(), snapshots.end(),
      [](const SnapshotInfo& a, const SnapshotInfo& b) { return a.created_ms < b.created_ms; });
  if (snapshots.empty()) {
    std::printf("no snapshots\n");
    return unreadable.empty() ? 0 : 1;
  }
  size_t width = 4;
  for (const SnapshotInfo& s : snapshots) width = std::max(width, s.name.size());
  // AS-OF: the moment whose rows the snapshot holds, before TAKEN when a
  // removal run (`rm -r TABLE`) led to the drop.
  std::printf("%-*s  %-9s  %-27s  %-27s  %s\n", static_cast<int>(width), "NAME", "REASON", "TAKEN",
              "AS-OF", "TABLE");
  for (const SnapshotInfo& s : snapshots) {
    std::printf("%-*s  %-9s  %-27s  %-27s  %s.%s\n", static_cast<int>(width), s.name.c_str(),
                s.reason.c_str(), UtcTime(s.created_ms).c_str(), UtcTime(s.as_of_ms).c_str(),
                s.keyspace.c_str(), s.table.c_str());
  }
  return unreadable.empty() ? 0 : 1;
}

int Restore(Engine& engine, const SnapshotArgs& args) {
  const std::string& name = args.names.front();
  std::vector<std::string> skipped;
  if (Status s = engine.RestoreSnapshot(name, args.as_table, &skipped); !s.ok()) {
    return Failed(name, s);
  }
  std::printf("restored %s\n", name.c_str());
  for (const std::string& index : skipped) {
    std::printf("index %s not restored: the keyspace has another index of that name\n",
                index.c_str());
  }
  std::fflush(stdout);
  // The table is back; its indexes build now (or at the next mount).
  if (Status s = engine.AwaitBuilds(); !s.ok()) {
    std::fprintf(stderr,
                 "cellfs snapshot: the table is restored, but building its indexes failed "
                 "(the next mount retries): %s\n",
                 s.message().c_str());
    return 2;
  }
  return 0;
}

int Clear(Engine& engine, const SnapshotArgs& args) {
  std::vector<std::string> names = args.names;
  if (args.all) {
    std::vector<SnapshotInfo> snapshots;
    if (Status s = engine.Snapshots(&snapshots); !s.ok()) return Failed("listing", s);
    for (const SnapshotInfo& s : snapshots) names.push_back(s.name);
  }
  int code = 0;
  for (const std::string& name : names) {
    if (Status s = engine.ClearSnapshot(name); !s.ok()) {
      code = std::max(code, Failed(name, s));
      continue;
    }
    std::printf("cleared %s\n", name.c_str());
  }
  // The sweeper of this open reclaims what it can now; the next writable
  // open (a mount) finishes.
  if (code == 0 && !names.empty()) (void)engine.Sweep();
  return code;
}

}  // namespace

int RunSnapshot(const SnapshotArgs& args) {
  const bool read_only = args.action == SnapshotArgs::Action::kList;
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.data_dir, read_only, nullptr);
  if (engine == nullptr) return 2;
  switch (args.action) {
    case SnapshotArgs::Action::kList:
      return List(*engine);
    case SnapshotArgs::Action::kRestore:
      return Restore(*engine, args);
    case SnapshotArgs::Action::kClear:
      return Clear(*engine, args);
  }
  return 2;
}

}  // namespace cellfs::tools
