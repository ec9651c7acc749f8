// VerifyReport: what Engine::Verify found walking a whole store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cellfs {

// A plain value type.
struct VerifyReport {
  // Entries read, by kind.
  uint64_t data_entries = 0;      // row fragments, static rows, deletions
  uint64_t index_entries = 0;     // secondary-index entries
  uint64_t view_entries = 0;      // materialized-view entries
  uint64_t expiry_entries = 0;    // expiry-index entries
  uint64_t dropped_entries = 0;   // entries of dropped tables, indexes and views not yet reclaimed
  uint64_t snapshot_entries = 0;  // data entries kept by snapshots (decoded as the others)
  uint64_t buried_entries = 0;    // dead rows the sweeper moved to buried spaces
  // Expiry-index entries whose group holds nothing any more, or whose table
  // was dropped and reclaimed: harmless (the sweeper drops each when it
  // falls due), counted, not a fault.
  uint64_t dangling_expiry_entries = 0;
  // Faults: a key or value that does not decode, data of an id that is
  // neither in the schema nor dropped, an expiry entry that names a table
  // id never given out.
  uint64_t faults = 0;
  std::vector<std::string> fault_lines;  // the first kMaxFaultLines, each "KIND KEY(hex): reason"

  static constexpr size_t kMaxFaultLines = 100;
  bool sound() const { return faults == 0; }
};

}  // namespace cellfs
