// Parses one CQL term (a literal as written inside a statement or a
// collection: 'quoted text', 42, 0xff, [..], {..}, (..), null) of a given
// type from a lexer. Internal to engine/; shared by ParseLiteral and the
// statement parser.
#pragma once

#include <string>

#include "engine/cql_type.h"
#include "engine/internal/cql_lexer.h"
#include "engine/status.h"

namespace cellfs {

// Consumes exactly one term from `lexer` and writes the serialized value to
// `*out`. `*is_null` (when non-null) is set for the literal `null`, which is
// otherwise an error. Errors carry the token's position.
Status ParseTerm(const CqlType& type, CqlLexer& lexer, std::string* out, bool* is_null = nullptr);

}  // namespace cellfs
