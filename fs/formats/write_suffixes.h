// Write suffixes: the @ttl= / @timestamp= run that may trail a data name
// (`col@ttl=60`, `@insert@ttl=3600`) and the text of those values (also the
// user.cellfs.ttl extended attribute). Part of the names' grammar, used by
// the tree and by the @insert parsers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/store/mutation.h"

namespace cellfs::fs {

// Every function here is a pure function of its arguments: thread-safe.
//
// Numbers in names have exactly one spelling, so that a name means one thing
// and formatting a parsed value gives the name back: decimal digits, "0" or
// no leading zero, no '+', no spaces; a timestamp may start with '-' ("-0"
// is refused). A value outside its range is refused, never clamped.

// The write attributes a name carries: `col@ttl=60@timestamp=1700000000000000`
// gives WriteAttributes{timestamp 1700000000000000, ttl 60} (engine/store/mutation.h:
// TTL 0..kMaxTtlSeconds, 0 = no TTL even with a default_time_to_live; any
// timestamp but INT64_MIN).

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
Status SplitWriteSuffixes(std::string_view name, std::string_view* base, WriteAttributes* out);

// The `@update` flag of mkdir (`mkdir PK/CK@update`): a key directory made
// for UPDATEs, with no row marker stored (docs/FILESYSTEM.md,
// "Directories"). True when `name` ends in exactly "@update" after at least
// one byte; then *base is `name` without it. It is a flag, not a write
// attribute: it may not be combined with @ttl= or @timestamp=, and key
// names escape an '@' that would start it, as they do for the suffixes.
bool SplitUpdateFlag(std::string_view name, std::string_view* base);

// The suffixes `suffixes` holds, ttl first: "" when empty, "@ttl=60",
// "@ttl=60@timestamp=5". Appended to a base that SplitWriteSuffixes returns
// whole and without suffixes, it splits back into that base and `suffixes`.
// REQUIRES: the values are in range (as SplitWriteSuffixes produces them).
std::string FormatWriteSuffixes(const WriteAttributes& suffixes);

// The value of an "@ttl=" suffix (also the text of the user.cellfs.ttl
// extended attribute): InvalidArgument unless it is a canonical integer in
// 0..kMaxTtlSeconds.
Status ParseTtlText(std::string_view text, int64_t* seconds);

// The value of an "@timestamp=" suffix: InvalidArgument unless it is a
// canonical signed integer other than INT64_MIN.
Status ParseTimestampText(std::string_view text, int64_t* micros);

// Whether `segment` ("@ttl=…", "@timestamp=…") has a suffix keyword; its
// value may still be bad.
bool IsWriteSuffixShaped(std::string_view segment);

// A canonical unsigned decimal ("0", or digits without a leading zero) of at
// most `max`; false for anything else. Never overflows.
bool ParseCanonicalUnsigned(std::string_view text, uint64_t max, uint64_t* value);

}  // namespace cellfs::fs
