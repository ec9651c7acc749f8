// WITH options of CREATE/ALTER KEYSPACE and TABLE: validation, the typed
// options cellfs acts on, and canonical text for the ones it only keeps.
// Internal to engine/.
#pragma once

#include <string>
#include <vector>

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// Merges `options` into `*keyspace` (replication, durable_writes). When
// `creating`, replication is mandatory. On error `*keyspace` is unchanged.
Status ApplyKeyspaceOptions(const std::vector<TableOption>& options, bool creating,
                            KeyspaceDef* keyspace);

// Merges `options` into `*table_options`: default_time_to_live (0..630720000)
// and gc_grace_seconds (>= 0) typed, the other known Cassandra table options
// kept as canonical text; unknown names are refused. On error nothing changes.
Status ApplyTableOptions(const std::vector<TableOption>& options, TableOptions* table_options);

// Canonical CQL text of an option value: 'text' (quotes doubled), numbers and
// booleans as written, maps as {'k': 'v', ...} with 'class' first, then by key.
std::string OptionValueText(const OptionValue& value);

// {'class': 'X', 'k': 'v'}: the canonical text of a string map.
std::string StringMapText(const std::vector<std::pair<std::string, std::string>>& entries);

// 'it''s': a CQL string literal.
std::string QuoteString(const std::string& text);

}  // namespace cellfs
