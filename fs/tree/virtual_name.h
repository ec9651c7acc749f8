// Virtual names: the '@' names that resolve by lookup but are never listed
// (@cql, @schema, @insert, @json, @csv, @stats, @count, slice directories,
// query directories @where and @columns=). The
// write suffixes that may trail a name are fs/formats/write_suffixes.h.
// Every function here is a pure function of its arguments: thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "fs/formats/write_suffixes.h"

namespace cellfs::fs {

// True for names that begin with '@'. A data name never does: key names
// escape a leading '@' as %40, and a column name cannot start with one.
bool IsVirtualName(std::string_view name);

// A parsed virtual name. Plain value type.
struct VirtualName {
  enum class Kind {
    kCql,         // @cql
    kSchema,      // @schema
    kInsert,      // @insert, optionally with write suffixes
    kJson,        // @json
    kCsv,         // @csv
    kStats,       // @stats
    kSliceBound,  // @ge=T @gt=T @le=T @lt=T
    kLimit,       // @limit=N
    kReverse,     // @reverse
    kStatsJson,   // @stats.json: @stats as one JSON object
    kErrors,      // @errors: the mount's latest refusals (fs/tree/refusal_log.h)
    kCount,       // @count: the number of rows, as SELECT count(*)
    kWhere,       // @where: the directory of equality filters `col=value`
    kBy,          // @by: a table's index lookups, @by/<column>/<value>
    kColumns,     // @columns=a,b: a projection for @json / @csv
    kStatus,      // @status: the mount's daemon, store and health, one JSON object
    // (node_id.cc checks a stored kind against the last one: append here.)
  };

  Kind kind = Kind::kCql;

  // kSliceBound: @ge/@gt bound from below, @le/@lt from above; @ge/@le are
  // inclusive. bound_text is T exactly as written (non-empty, still escaped
  // as key names are): the key-name layer decodes it against the table's
  // clustering columns.
  bool lower_bound = false;
  bool inclusive = false;
  std::string bound_text;

  // kLimit: 1..UINT64_MAX.
  uint64_t limit = 0;

  // kColumns: the column names as written after '=' (non-empty; split and
  // checked against the table by fs/tree/query_path.h).
  std::string columns_text;

  // kInsert: "@insert@ttl=3600" applies the TTL to every line written.
  WriteAttributes write;

  bool operator==(const VirtualName&) const = default;
};

// Parses an '@' name.
//
// NotFound: not a virtual name cellfs knows ("@foo", "@JSON", "@limit",
//   "@ge", "@reverse=1"), including any name not starting with '@'. The fs
//   answers ENOENT.
// InvalidArgument: a known name with a bad argument: "@limit=0", "@columns=",
//   "@limit=abc", "@limit=007", a limit above UINT64_MAX, "@ge=" (empty T),
//   a bad or repeated write suffix ("@insert@ttl=x"), or write suffixes on
//   any name but @insert ("@json@ttl=5").
//
// A slice bound takes everything after its '=' as T, '@' included: key
// names escape only a leading '@', so "@ge=a@ttl=5" bounds by the text
// "a@ttl=5". Other names are split with SplitWriteSuffixes first.
//
// On success *out is overwritten; on error it is unspecified.
Status ParseVirtualName(std::string_view name, VirtualName* out);

// The name of a virtual file without arguments ("@json", "@errors"); empty
// for the kinds that carry one (slice bounds, @limit=N).
std::string_view FixedVirtualName(VirtualName::Kind kind);

// The directories a virtual name may appear in (DESIGN.md section 1).
// kQuery: a query directory (@where/col=value, a table's @limit=N,
// @columns=...: fs/tree/query_path.h).
enum class TreeLevel { kMountRoot, kKeyspace, kTable, kPartition, kSlice, kRow, kQuery };

// Whether a name of kind `kind` exists under a directory at `level`:
//   @cql, @errors: mount root.  @schema: keyspace, table.  @insert, @stats,
//   @stats.json: table.
//   @json: table, partition, slice, query, row.  @csv, @count, @where,
//   @columns: table, partition, slice, query.
//   slice bounds, @reverse: partition, slice.  @limit: table, partition,
//   slice, query.
// A partition of a table without clustering columns holds its cells
// directly; which level it counts as is the fs's choice.
bool IsAllowedIn(VirtualName::Kind kind, TreeLevel level);

}  // namespace cellfs::fs
