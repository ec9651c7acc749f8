// `cellfs stats`: reads TABLE/@stats or @stats.json from a mount, or,
// offline, computes the same with fs::ComputeTableStats; --plot draws the
// JSON with stats_plot.
#include "tools/cellfs/stats_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "engine/engine.h"
#include "fs/formats/table_stats.h"
#include "tools/cellfs/offline_store.h"
#include "tools/cellfs/stats_plot.h"

namespace cellfs::tools {
namespace {

// As many widest partitions as TABLE/@stats names.
constexpr size_t kWidestShown = 10;

std::string ErrnoText(int err) { return std::strerror(err); }

// The statistics in both forms.
struct StatsText {
  std::string text;  // @stats; empty when not asked for
  std::string json;  // @stats.json; empty when not asked for
};

// The whole content of a virtual file; false after a message.
bool ReadWhole(const std::string& path, std::string* out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    std::fprintf(stderr, "cellfs: %s: %s%s\n", path.c_str(), ErrnoText(err).c_str(),
                 err == ENOENT ? " (no such table on this mount, or not a cellfs mount)" : "");
    return false;
  }
  char buf[64 * 1024];
  while (true) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0)
        std::fprintf(stderr, "cellfs: reading %s: %s\n", path.c_str(), ErrnoText(errno).c_str());
      close(fd);
      return n == 0;
    }
    out->append(buf, static_cast<size_t>(n));
  }
}

bool ReadThroughMount(const StatsArgs& args, bool want_text, bool want_json, StatsText* out) {
  std::string base = args.source + "/" + args.keyspace + "/" + args.table + "/@stats";
  return (!want_text || ReadWhole(base, &out->text)) &&
         (!want_json || ReadWhole(base + ".json", &out->json));
}

// The store in `dir`, read-only, for this command alone; null after a
// message.

bool ComputeOffline(const StatsArgs& args, bool want_text, bool want_json, StatsText* out) {
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.source, true, "ask");
  if (engine == nullptr) return false;
  Result<TableHandle> table = engine->FindTable(args.keyspace, args.table);
  fs::TableStats stats;
  Status s = table.ok() ? fs::ComputeTableStats(engine->NewReadView(), *table, kWidestShown, &stats)
                        : table.status();
  if (!s.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.source.c_str(), s.message().c_str());
    return false;
  }
  fs::AttachBuilds(engine->BuildsInProgress(), &stats);
  if (want_text) out->text = fs::FormatStatsText(stats);
  if (want_json) out->json = fs::FormatStatsJson(stats);
  return true;
}

// Writes the picture of `json` to args.plot; false after a message.
bool WritePlot(const StatsArgs& args, const std::string& json) {
  Result<std::string> svg = RenderStatsSvg(json);
  if (!svg.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", svg.status().message().c_str());
    return false;
  }
  std::ofstream file(args.plot, std::ios::binary | std::ios::trunc);
  file << *svg;
  file.close();
  if (!file) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.plot.c_str(), ErrnoText(errno).c_str());
    return false;
  }
  return true;
}

}  // namespace

int RunStats(const StatsArgs& args) {
  bool want_text = !args.json;
  bool want_json = args.json || !args.plot.empty();
  StatsText stats;
  bool ok = args.offline ? ComputeOffline(args, want_text, want_json, &stats)
                         : ReadThroughMount(args, want_text, want_json, &stats);
  if (!ok) return 1;
  const std::string& shown = args.json ? stats.json : stats.text;
  std::fwrite(shown.data(), 1, shown.size(), stdout);
  std::fflush(stdout);
  if (!args.plot.empty() && !WritePlot(args, stats.json)) return 1;
  return 0;
}

}  // namespace cellfs::tools
