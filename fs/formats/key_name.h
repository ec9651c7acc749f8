// Key names: the directory name of a partition or row key (DESIGN.md
// section 2) and its inverse, also used for the tuple T of a slice bound
// (@ge=T). Values are serialized bytes, as everywhere in cellfs.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs {

// Every function here is a pure function of its arguments: thread-safe.
//
// Grammar of a key name (one component per key column, in key order):
//
//   name       := component ("," component)*
//   component  := "%-"                       the empty value (see below)
//               | (byte | "%" hex hex)+      the escaped canonical text
//
// Writing: each value's canonical text is FormatLiteral's (engine/cql/literal.h),
// in which '%' '/' ',' and NUL are written %25 %2F %2C %00, and so is an '@'
// or '.' that is the first byte of the whole name (%40 %2E): names that
// start with '@' are virtual, and '.' and '..' are the directory itself and
// its parent. An '@' that starts "@ttl=" or "@timestamp=" anywhere is
// written %40 too, so a listed name never ends in what reads as a write
// suffix (fs/tree/virtual_name.h). Escapes use upper-case hex. Every other byte, newline and
// multi-byte UTF-8 included, is written as is.
//
// The empty value (zero bytes: empty text, or an empty component of a
// composite key) is written "%-". No escaping of a non-empty value can
// produce it, since an escaped '%' is always followed by two hex digits;
// and unlike a bare "%" it is not what a user gets by forgetting to escape a
// percent sign, so a typo fails (EINVAL) instead of naming a different key.
// A component with zero bytes ("a,,b", a trailing ',') is refused rather
// than read as the empty value. The empty value of a type whose canonical
// text is not empty keeps that text: an empty blob is written "0x"
// (FormatLiteral's choice), and "%-" reads as the empty blob too.
//
// Reading splits on ',' before decoding escapes, so an escaped comma stays
// inside its component: the frozen set {1, 2} is written "{1%2C 2}". Any
// byte may be escaped, in either case of hex ("%2f", "%41"), so a user may
// escape more than needed; the text key "x@ttl=5" is written, listed and
// created as "x%40ttl=5", since its plain spelling would be taken for a
// write suffix (fs/tree/virtual_name.h). A '%' not followed by two hex digits, other than a
// whole "%-" component, is refused. Each decoded component is then parsed
// with ParseLiteral, so lookup also accepts every other spelling CQL accepts
// for the type ("2018-07-23 11:04:22.432+0000" or "1532343862432" for a
// timestamp, an upper-case uuid, TRUE) and resolves it to the same key.

// The longest name the fs lists or accepts for a key, in bytes.
inline constexpr size_t kMaxNameBytes = 255;

// The canonical name of a key: "MPLS2,20180723" for (text 'MPLS2', int
// 20180723), "2018-07-23T11:04:22.432Z,aaronp" for (timestamp, text).
// The name never contains '/' or NUL, never starts with '@' or '.', and is
// never empty. NameTooLong when it would exceed kMaxNameBytes: such a key
// cannot be listed, so every write path refuses it.
// REQUIRES: !types.empty(), values.size() == types.size(), and
// ValidateValue(*types[i], values[i]) for each i (stored keys always are).
Result<std::string> FormatKeyName(std::span<const CqlType* const> types,
                                  std::span<const std::string> values);

// Whether every key of `types` has a name within kMaxNameBytes, whatever its
// values: true when each type's canonical text has a bounded length
// (booleans, integers, floating point, dates and times, uuids, inet) and the
// name fits even with every byte escaped. A write path may then skip
// FormatKeyName's length check; any other key must be formatted to know.
bool KeyNameAlwaysFits(std::span<const CqlType* const> types);

// Parses a directory name into the serialized values of a key of `types`.
// For every key FormatKeyName names, ParseKeyName(FormatKeyName(key))
// gives back the same key: exactly its values (the decimal 1.00 stays
// 1.00), except a decimal of negative scale (1E+1 is named 10, which parses
// with scale 0) and a UDT holding fewer fields than its type (it parses
// with every field); those come back as equal values that the key codec
// encodes alike, and format to the same name.
//
// Errors:
//  - NameTooLong when name.size() > kMaxNameBytes, or when the canonical
//    name of the parsed key would be (a short spelling such as the
//    timestamp "0" can stand for a long canonical name); no such key can be
//    stored, so a write must be refused and a lookup cannot find it.
//  - InvalidArgument, naming the component and the problem, for: a number
//    of components other than types.size(); an empty component; a '%' not
//    followed by two hex digits; a value that does not parse for its type
//    (text that is not valid UTF-8, ascii that is not ASCII, "12x" for an
//    int); a name starting with an unescaped '@' (the virtual namespace:
//    the fs resolves those before calling this); the names "." and "..".
//    Any other leading '.' is taken as data: ".x" is the text ".x", listed
//    as "%2Ex".
// On success *values holds types.size() values, each passing ValidateValue;
// on error it is unspecified.
// REQUIRES: !types.empty(), values != nullptr.
Status ParseKeyName(std::span<const CqlType* const> types, std::string_view name,
                    std::vector<std::string>* values);

// As ParseKeyName, for the tuple T of a slice bound (@ge=T): T may hold 1 to
// types.size() components, a prefix of the key, and *values receives as many
// values as T has components. T is not a whole directory name, so its first
// byte has no special meaning: "@", "." and ".." are plain text here, and
// the canonical length of the prefix is not checked (a bound is never
// stored). NameTooLong only when text.size() > kMaxNameBytes.
// REQUIRES: !types.empty(), values != nullptr.
Status ParseKeyPrefix(std::span<const CqlType* const> types, std::string_view text,
                      std::vector<std::string>* values);

}  // namespace cellfs::fs
