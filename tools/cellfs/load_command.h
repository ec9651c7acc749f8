// `cellfs load`: bulk-loads JSON Lines or CSV files into a table, through a
// mount's TABLE/@insert or, with --offline, straight into a data directory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cellfs::tools {

struct LoadArgs {
  std::string target;  // the mount point; with `offline`, the data directory
  bool offline = false;
  std::string keyspace, table;     // as their directories are named
  std::vector<std::string> files;  // "-" is stdin
  std::string ttl;                 // --ttl; empty: none (the table's default)
  std::string timestamp;           // --timestamp; empty: the server's write time
  uint64_t skip_rows = 0;          // --skip-rows: records skipped after a CSV header
  // Set: a CSV header line (no '\n') sent before each file, whose lines
  // are then all records (the shell's COPY FROM without HEADER = true);
  // line numbers stay the file's. Empty: each file starts with its own.
  std::string header;
  // --max-errors: stop once more records than this were refused, over all
  // files (cqlsh COPY's MAXPARSEERRORS and MAXINSERTERRORS); -1: no limit.
  int64_t max_errors = -1;
  std::string errfile;  // --errfile: where the refused records' rows go
};

// Loads each file in turn, each on an @insert of its own (line numbers count
// from 1 per file). `skip_rows` records of each file are not sent (JSON
// Lines: its first lines; CSV: the records after the header, which is
// sent), as cqlsh COPY's SKIPROWS; reported line numbers stay the file's.
// Through a mount, every 8 MiB or so the load fsyncs @insert at a record
// boundary, so it knows which rows are stored: when the mount fails
// meanwhile (the daemon killed) it says on stderr "FILE: interrupted:
// rows up to line N (M rows) are stored; resume with --skip-rows K". Refused records are printed to
// stderr as "FILE: line N: message", the first kShownRefusals of each file
// (tools/cellfs/load_errors.h), and their rows go to `errfile` when set.
// With `max_errors` >= 0, once more records than that were refused the
// load stops: through a mount at the next checkpoint (every 8 MiB of input:
// what was sent before it is stored), offline after the current 1 MiB
// block; no further file is read, and stderr says "stopped: more than N
// records refused". Each file ends with "loaded FILE: N rows stored, M refused, R
// lines/s" on stdout. On a terminal stderr shows a progress bar meanwhile. Valid records are stored
// whatever else the file holds. Offline: the store must not be mounted (its lock is held then); it
// is synced before the command returns. Returns the exit code: 0 when every record of every file
// was stored, 1 when a record was refused or a file, the mount or the store could not be used, 2
// for a bad --ttl or --timestamp.
int RunLoad(const LoadArgs& args);

}  // namespace cellfs::tools
