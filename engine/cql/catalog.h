// Catalog: the set of keyspaces, types and tables, changed only by applying
// parsed DDL statements, each validated as Cassandra validates it.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "engine/cql/cql_statement.h"
#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

// What applying a statement did, for messages and cache invalidation.
struct SchemaChange {
  // kTruncated: the schema is unchanged, the table's data is to go
  // (Engine::Execute gives it a fresh data space).
  enum class Kind { kNone, kCreated, kDropped, kUpdated, kUsed, kTruncated };
  Kind kind = Kind::kNone;  // kNone: IF [NOT] EXISTS made it a no-op, or DESCRIBE
  std::string keyspace;
  std::string object;  // table or type name; empty for keyspace-level changes
};

// Not thread-safe: the owner serialises access (the engine holds it under
// its schema lock).
class Catalog {
 public:
  // Validates and applies `statement`. `*current_keyspace` is the session's
  // keyspace (from USE): read to qualify bare names, written by USE.
  // On error nothing changes and the Status message names the problem and,
  // where it has one, its position ("line 4:5: Unknown definition ck ...").
  // Materialized views are tables with TableDef::view set (docs/CQL.md
  // "Materialized views"). DESCRIBE changes nothing
  // (kNone; engine/cql/describe_statement.h makes its text); TRUNCATE is
  // validated and reported as kTruncated.
  Status Apply(const Statement& statement, std::string* current_keyspace,
               SchemaChange* change = nullptr);

  // Applies every statement of `cql` in turn, as a session whose keyspace
  // is `*current_keyspace`; stops at the first failure (the statements
  // before it stay applied).
  Status ApplyScript(std::string_view cql, std::string* current_keyspace);

  // Applying stored DESCRIBE text (catalog records, snapshots) rather than
  // a user's statements: the checks of index options that later builds
  // added are skipped, so that whatever a store holds keeps loading.
  void set_applying_stored_text(bool stored) { stored_text_ = stored; }

  // Adds a keyspace wholesale (used when loading a stored catalog).
  // REQUIRES: no keyspace of that name exists.
  void Restore(KeyspaceDef keyspace);

  // nullptr when absent.
  const KeyspaceDef* FindKeyspace(const std::string& name) const;
  const TableDef* FindTable(const std::string& keyspace, const std::string& table) const;

  const std::map<std::string, KeyspaceDef>& keyspaces() const { return keyspaces_; }

 private:
  std::map<std::string, KeyspaceDef> keyspaces_;
  bool stored_text_ = false;
};

}  // namespace cellfs
