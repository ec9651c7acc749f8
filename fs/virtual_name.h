// Virtual names: the '@' names that resolve by lookup but are never listed
// (@cql, @schema, @insert, @json, @csv, @stats, slice directories), and the
// @ttl= / @timestamp= write suffixes that may trail a data name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::fs {

// Every function here is a pure function of its arguments: thread-safe.
//
// Numbers in names have exactly one spelling, so that a name means one thing
// and formatting a parsed value gives the name back: decimal digits, "0" or
// no leading zero, no '+', no spaces; a timestamp may start with '-' ("-0"
// is refused). A value outside its range is refused, never clamped.

// Write attributes carried by a name: `col@ttl=60@timestamp=1700000000000000`.
struct WriteSuffixes {
  // Seconds, 0..kMaxTtlSeconds (engine/cell.h); 0 = no TTL even when the
  // table has a default_time_to_live, as CQL's USING TTL 0.
  std::optional<int64_t> ttl;
  // Microseconds, any int64 except INT64_MIN (which the engine refuses).
  std::optional<int64_t> timestamp;

  bool empty() const { return !ttl && !timestamp; }
  bool operator==(const WriteSuffixes&) const = default;
};

// True for names that begin with '@'. A data name never does: key names
// escape a leading '@' as %40, and a column name cannot start with one.
bool IsVirtualName(std::string_view name);

// Splits a data name into its base and the trailing run of write suffixes.
//
// Rule: a suffix is a segment from an '@' to the next '@' or the end of the
// name that begins with exactly "@ttl=" or "@timestamp=". Only the trailing
// run of such segments is taken, scanning from the end; the first segment
// that is not one stops the scan and stays in the base with everything
// before it. An '@' at position 0 never starts a suffix, so the base of a
// non-empty name is never empty. '@' anywhere else is data:
//   "a@b"              -> base "a@b", no suffixes
//   "a@b@ttl=5"        -> base "a@b", ttl 5
//   "a@ttl=5@b"        -> base "a@ttl=5@b", no suffixes
//   "c@timestamp=7@ttl=5" and "c@ttl=5@timestamp=7" -> base "c", both
//   "a@ttl"            -> base "a@ttl" (no '=': not a suffix)
// A segment that claims to be a suffix must be one: "a@ttl=x", "a@ttl=",
// "a@ttl=-1", "a@ttl=630720001", and a repeated suffix ("a@ttl=1@ttl=2")
// are InvalidArgument. Keywords are case-sensitive ("@TTL=5" is data).
//
// Consequence: a key whose text ends in such a segment (the text value
// "x@ttl=5") cannot be created by name through mkdir; the fs should resolve
// an exact data name before splitting (lookup, read, rm), and split only on
// the paths that create (create, mknod, mkdir).
//
// On success sets *base (a view into `name`) and *out (cleared first). On
// error *base and *out are unspecified.
Status SplitWriteSuffixes(std::string_view name, std::string_view* base, WriteSuffixes* out);

// The suffixes `suffixes` holds, ttl first: "" when empty, "@ttl=60",
// "@ttl=60@timestamp=5". Appended to a base that SplitWriteSuffixes returns
// whole and without suffixes, it splits back into that base and `suffixes`.
// REQUIRES: the values are in range (as SplitWriteSuffixes produces them).
std::string FormatWriteSuffixes(const WriteSuffixes& suffixes);

// The value of an "@ttl=" suffix (also the text of the user.cellfs.ttl
// extended attribute): InvalidArgument unless it is a canonical integer in
// 0..kMaxTtlSeconds.
Status ParseTtlText(std::string_view text, int64_t* seconds);

// The value of an "@timestamp=" suffix: InvalidArgument unless it is a
// canonical signed integer other than INT64_MIN.
Status ParseTimestampText(std::string_view text, int64_t* micros);

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

  // kInsert: "@insert@ttl=3600" applies the TTL to every line written.
  WriteSuffixes write;

  bool operator==(const VirtualName&) const = default;
};

// Parses an '@' name.
//
// NotFound: not a virtual name cellfs knows ("@foo", "@JSON", "@limit",
//   "@ge", "@reverse=1"), including any name not starting with '@'. The fs
//   answers ENOENT.
// InvalidArgument: a known name with a bad argument: "@limit=0",
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

// The directories a virtual name may appear in (DESIGN.md section 1).
enum class TreeLevel { kMountRoot, kKeyspace, kTable, kPartition, kSlice, kRow };

// Whether a name of kind `kind` exists under a directory at `level`:
//   @cql: mount root.  @schema: keyspace, table.  @insert, @stats,
//   @stats.json: table.
//   @json: table, partition, slice, row.  @csv: table, partition, slice.
//   slice bounds, @limit, @reverse: partition, slice.
// A partition of a table without clustering columns holds its cells
// directly; which level it counts as is the fs's choice.
bool IsAllowedIn(VirtualName::Kind kind, TreeLevel level);

}  // namespace cellfs::fs
