// Typing a statement's value term (engine/cql/dml_statement.h) against the
// column it is written to: the same term parser as collection literals and
// file values (engine/cql/literal.h), with Cassandra's wording for a
// constant of the wrong kind. Pure functions: thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/cql_type.h"
#include "engine/cql/dml_statement.h"
#include "engine/status.h"

namespace cellfs {

// Parses `term` as a value of `type` for column (or element) `receiver`
// into its serialized bytes. *is_null is set for the literal null (then
// *out is empty). Function calls (now(), currentTimestamp(),
// minTimeuuid('...'), blobAsInt(0x...)) are evaluated as ParseLiteral does.
// Errors are InvalidArgument starting with the term's position:
// "line 2:30: Invalid STRING constant (x) for "v" of type int" when the
// constant's kind cannot spell the type (Cassandra's Constants wording),
// else the literal parser's message.
Status ParseValueTerm(const CqlType& type, const CqlTerm& term, std::string_view receiver,
                      std::string* out, bool* is_null);

}  // namespace cellfs
