// Resolves a parsed TypeExpr against a keyspace's user types, enforcing
// Cassandra's nesting rules (frozen, collections, counters, durations).
// Internal to engine/: used by the catalog for tables, ALTER and types.
#pragma once

#include "engine/cql/cql_statement.h"
#include "engine/cql/cql_type.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// The deepest CqlType::depth() a column or field may have.
inline constexpr int kMaxResolvedTypeDepth = 64;

// The resolved type of `expr` for a column or field in `keyspace`. Errors
// are InvalidArgument (NotFound for an unknown user type) whose message
// starts with the expression's position; a type deeper than
// kMaxResolvedTypeDepth is refused.
Result<TypePtr> ResolveType(const TypeExpr& expr, const KeyspaceDef& keyspace);

// "line L:C: " + message: the one spelling of positioned messages.
std::string AtPosition(const SourcePosition& position, const std::string& message);

}  // namespace cellfs
