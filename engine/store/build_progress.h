// BuildProgress: how far the build of an index or materialized view over
// the rows written before it has got (docs/ENGINE.md "Index builds").
#pragma once

#include <cstdint>
#include <string>

namespace cellfs {

// One index or view that is not built yet. A plain value type.
struct BuildProgress {
  enum class Kind { kIndex, kView };
  Kind kind = Kind::kIndex;
  std::string keyspace;
  std::string table;  // the indexed table; for a view, the view itself
  std::string name;   // the index's name; for a view, the view's name
  // Base rows (and static rows) read so far by the build that is running
  // or was interrupted; 0 before it starts.
  uint64_t rows = 0;
  // The share of the token ring read so far, 0 to 1: builds read the base
  // table in token order, and tokens are spread evenly, so this is also
  // about the share of the rows.
  double fraction = 0;
  // Why the build stopped, when it failed (a storage failure: the write
  // fence's reason); "" while it runs or waits to.
  std::string error;
};

}  // namespace cellfs
