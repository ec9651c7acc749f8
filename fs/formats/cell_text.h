// Cell contents as files: the bytes `cat` shows for a stored value and the
// value a write() of bytes means (DESIGN.md section 3: the text newline
// convention, raw blobs, CQL literals for other types), counter deltas, and
// the merge behind `>>` (append) on collections, text and blobs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs {

// Every function here is a pure function of its arguments: thread-safe.

// The file content of serialized value `value` of `type`:
//   text, ascii, varchar: the value plus one '\n' (sysfs convention);
//   blob: the raw bytes, nothing added;
//   every other type: FormatLiteral(type, value) plus '\n' (so `cat` of an
//   int prints "42\n", of a set "{'a', 'b'}\n", of a timestamp
//   "2018-07-23T11:04:22.432Z\n").
// A counter's stored value is its 8-byte big-endian total; pass it with the
// counter type, which prints as a bigint does.
// REQUIRES: ValidateValue(type, value).
std::string FormatCellContent(const CqlType& type, std::string_view value);

// The serialized value that file content `content` written to a cell of
// `type` means, the inverse of FormatCellContent:
//   text, ascii: `content` less one trailing '\n' if present; must be valid
//     UTF-8 (ascii: ASCII only);
//   blob: `content` as is (may be empty);
//   every other type: `content` less one trailing '\n' if present, parsed
//     with ParseLiteral (CQL's spellings: "42", "2018-07-23 11:04:22+0000",
//     "{'a', 'b'}", "0xff" is not an int).
// InvalidArgument naming the type and quoting (a prefix of) the content
// when it does not parse; never a coercion.
Result<std::string> ParseCellContent(const CqlType& type, std::string_view content);

// Whether `content` may still become valid text after more bytes arrive:
// for text/ascii, true when `content` is valid UTF-8 (ascii: ASCII) except
// possibly for an incomplete multi-byte sequence at its very end. The fs
// checks each write() with this so a bad byte fails the write that sent it,
// while a character split across two writes is accepted.
// REQUIRES: type is text, varchar or ascii.
bool IsValidTextPrefix(const CqlType& type, std::string_view content);

// ParseCellContent for text whose bytes already passed IsValidTextPrefix
// (every write() of a cell file checks its bytes so): only its last
// character is checked to be whole, so the value is not validated again
// from its start. The same results as ParseCellContent for such content.
// REQUIRES: type is text, varchar or ascii; IsValidTextPrefix(type, content).
Result<std::string> ParseCheckedTextContent(const CqlType& type, std::string_view content);

// Whether `content`, which does not parse for `type` (ParseCellContent
// failed), may still become a value when more bytes arrive: the kernel
// splits large writes, and a program may write a value in pieces. True
// only when `content` has no trailing '\n' (a newline ends a shell value)
// and either a bracket or single-quoted string is still open (collections,
// tuples, UDTs, quoted elements) or every byte belongs to the alphabet of
// the type's spellings (digits and signs for integers, "-12" on its way
// to "-12345"). "12x" is refused at once; "{'a', 3" waits for more.
bool CouldBecomeValid(const CqlType& type, std::string_view content);

// The delta a write to a counter file adds: `content` less one trailing
// '\n', a signed 64-bit decimal integer ("1", "-5", "+3" is refused as CQL
// does not write it either). InvalidArgument otherwise (empty, overflow,
// "1.5", "x").
Result<int64_t> ParseCounterDelta(std::string_view content);

// What `>>` (O_APPEND) on a cell means: the value after appending
// `appended` (serialized, as ParseCellContent returned it) to `current`
// (serialized; nullopt-like empty `has_current` = false when the cell is
// absent):
//   set:   union (CQL: SET s = s + {...});
//   list:  concatenation (SET l = l + [...]);
//   map:   entries of `appended` put into `current`, replacing equal keys
//          (SET m = m + {...});
//   text, ascii, blob: byte concatenation (a Unix append);
//   other types (int, frozen collections, tuples, UDTs...): InvalidArgument
//   ("append is not defined for int").
// Without a current value the result is `appended`. The result is
// serialized canonically (sets and maps sorted, duplicates dropped), as
// ParseLiteral would produce it.
// REQUIRES: `appended` and (when has_current) `current` pass ValidateValue.
Result<std::string> AppendCellValue(const CqlType& type, bool has_current, std::string_view current,
                                    std::string_view appended);

}  // namespace cellfs::fs
