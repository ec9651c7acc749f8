// `cellfs verify`: Engine::Verify on an offline store, printed.
#include "tools/cellfs/verify_command.h"

#include <cinttypes>
#include <cstdio>

#include "tools/cellfs/offline_store.h"

namespace cellfs::tools {

int RunVerify(const VerifyArgs& args) {
  std::unique_ptr<Engine> engine = OpenOfflineStore(args.data_dir, /*read_only=*/true, nullptr);
  if (engine == nullptr) return 2;
  VerifyReport report;
  if (Status s = engine->Verify(&report); !s.ok()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.data_dir.c_str(), s.ToString().c_str());
    return 2;
  }
  std::printf("%s: %" PRIu64 " data, %" PRIu64 " index, %" PRIu64 " view, %" PRIu64
              " expiry-index entries read",
              args.data_dir.c_str(), report.data_entries, report.index_entries, report.view_entries,
              report.expiry_entries);
  if (report.snapshot_entries != 0) {
    std::printf("; %" PRIu64 " data entries kept by snapshots", report.snapshot_entries);
  }
  if (report.buried_entries != 0) {
    std::printf("; %" PRIu64 " buried dead rows", report.buried_entries);
  }
  if (report.dropped_entries != 0) {
    std::printf("; %" PRIu64 " entries of dropped tables wait for the sweeper",
                report.dropped_entries);
  }
  if (report.dangling_expiry_entries != 0) {
    std::printf("; %" PRIu64
                " expiry-index entries name purged data (harmless: each goes when due)",
                report.dangling_expiry_entries);
  }
  std::printf("\n");
  for (const std::string& line : report.fault_lines) std::printf("fault: %s\n", line.c_str());
  if (report.faults > report.fault_lines.size()) {
    std::printf("... and %" PRIu64 " more faults\n", report.faults - report.fault_lines.size());
  }
  std::printf("%s\n",
              report.sound() ? "sound" : (std::to_string(report.faults) + " faults").c_str());
  return report.sound() ? 0 : 1;
}

}  // namespace cellfs::tools
