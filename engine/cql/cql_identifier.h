// CQL identifiers: when a name must be double-quoted to survive a round trip
// through the parser's case folding and keyword rules.
#pragma once

#include <string>
#include <string_view>

namespace cellfs {

// True when `word` (any case) is a reserved CQL keyword that cannot be used
// as an unquoted identifier (SELECT, FROM, KEY, ...).
bool IsReservedKeyword(std::string_view word);

// `name` as it must be written in CQL: bare when it is lower-case
// [a-z][a-z0-9_]* and not reserved, otherwise "double-quoted" with inner
// quotes doubled.
std::string QuoteIdentifier(std::string_view name);

}  // namespace cellfs
