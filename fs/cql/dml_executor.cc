// ExecuteDataStatement: resolves tables, applies USING and the BATCH rules
// (Cassandra's BatchStatement checks and wording), and applies everything
// as one Mutation.
#include "fs/cql/dml_executor.h"

#include "engine/cql/catalog.h"
#include "engine/cql/cql_identifier.h"
#include "fs/cql/dml_writer.h"

namespace cellfs::fs {
namespace {

// One INSERT, UPDATE or DELETE, with what the checks need to know of it.
struct Modification {
  BatchEntry::Kind kind;
  const std::string* keyspace;
  const std::string* table;
  SourcePosition table_position;
  const UsingClause* using_clause;
  const BatchEntry* entry = nullptr;  // inside a batch
  const void* statement;
};

// USING TTL / TIMESTAMP checked as Cassandra's Attributes does.
Status AttributesOf(const UsingClause& using_clause, std::optional<int64_t> batch_timestamp,
                    WriteAttributes* out) {
  if (using_clause.ttl) {
    const int64_t ttl = *using_clause.ttl;
    if (ttl < 0) {
      return ErrorAt(using_clause.ttl_position,
                     "A TTL must be greater or equal to 0, but was " + std::to_string(ttl));
    }
    if (ttl > TableOptions::kMaxTtlSeconds) {
      return ErrorAt(using_clause.ttl_position,
                     "ttl is too large. requested (" + std::to_string(ttl) + ") maximum (" +
                         std::to_string(TableOptions::kMaxTtlSeconds) + ")");
    }
    out->ttl = ttl;
  }
  out->timestamp = using_clause.timestamp ? using_clause.timestamp : batch_timestamp;
  return Status::Ok();
}

Status Run(DmlWriter* writer, const TableHandle& table, const Modification& m,
           const WriteAttributes& attributes) {
  switch (m.kind) {
    case BatchEntry::Kind::kInsert: {
      if (table->def.has_counters()) {
        return ErrorAt(m.table_position,
                       "INSERT statements are not allowed on counter tables, use UPDATE instead");
      }
      return writer->Insert(table, *static_cast<const InsertStatement*>(m.statement), attributes);
    }
    case BatchEntry::Kind::kUpdate:
      return writer->Update(table, *static_cast<const UpdateStatement*>(m.statement), attributes);
    case BatchEntry::Kind::kDelete:
      return writer->Delete(table, *static_cast<const DeleteStatement*>(m.statement), attributes);
  }
  return Status::Ok();
}

Modification ModificationOf(const BatchEntry& entry) {
  switch (entry.kind) {
    case BatchEntry::Kind::kInsert:
      return {entry.kind,
              &entry.insert.keyspace,
              &entry.insert.table,
              entry.insert.table_position,
              &entry.insert.using_clause,
              &entry,
              &entry.insert};
    case BatchEntry::Kind::kUpdate:
      return {entry.kind,
              &entry.update.keyspace,
              &entry.update.table,
              entry.update.table_position,
              &entry.update.using_clause,
              &entry,
              &entry.update};
    case BatchEntry::Kind::kDelete:
      break;
  }
  return {entry.kind,
          &entry.remove.keyspace,
          &entry.remove.table,
          entry.remove.table_position,
          &entry.remove.using_clause,
          &entry,
          &entry.remove};
}

std::string Verb(BatchEntry::Kind kind) {
  switch (kind) {
    case BatchEntry::Kind::kInsert:
      return "INSERT";
    case BatchEntry::Kind::kUpdate:
      return "UPDATE";
    case BatchEntry::Kind::kDelete:
      break;
  }
  return "DELETE";
}

Status RunBatch(Engine* engine, const std::string& keyspace, const BatchStatement& batch,
                const SourcePosition& position, DmlWriter* writer) {
  if (batch.using_clause.ttl) {
    return ErrorAt(batch.using_clause.ttl_position,
                   "Global TTL on the BATCH statement is not supported.");
  }
  bool has_counters = false;
  bool has_non_counters = false;
  std::vector<TableHandle> tables;
  for (const BatchEntry& entry : batch.statements) {
    const Modification m = ModificationOf(entry);
    TableHandle table;
    CELLFS_RETURN_IF_ERROR(
        ResolveTable(engine, keyspace, *m.keyspace, *m.table, m.table_position, &table));
    if (batch.using_clause.timestamp && m.using_clause->timestamp) {
      return ErrorAt(entry.position,
                     "Timestamp must be set either on BATCH or individual statements");
    }
    // Cassandra counts a statement on a counter table as a counter one.
    const bool counter = table->def.has_counters();
    if (batch.type == BatchStatement::Type::kCounter && !counter) {
      return ErrorAt(entry.position, "Cannot include non-counter statement in a counter batch");
    }
    if (batch.type == BatchStatement::Type::kLogged && counter) {
      return ErrorAt(entry.position, "Cannot include a counter statement in a logged batch");
    }
    (counter ? has_counters : has_non_counters) = true;
    tables.push_back(std::move(table));
  }
  if (has_counters && has_non_counters) {
    return ErrorAt(position, "Counter and non-counter mutations cannot exist in the same batch");
  }
  for (size_t i = 0; i < batch.statements.size(); ++i) {
    const Modification m = ModificationOf(batch.statements[i]);
    WriteAttributes attributes;
    CELLFS_RETURN_IF_ERROR(
        AttributesOf(*m.using_clause, batch.using_clause.timestamp, &attributes));
    CELLFS_RETURN_IF_ERROR(Run(writer, tables[i], m, attributes));
  }
  return Status::Ok();
}

}  // namespace

Status ExecuteDataStatement(Engine* engine, const Statement& statement, const std::string& keyspace,
                            DmlResult* result) {
  Mutation mutation = engine->NewMutation();
  std::vector<DmlTouched> touched;
  DmlWriter writer(engine, &mutation, &touched);
  if (const auto* batch = std::get_if<BatchStatement>(&statement.body)) {
    CELLFS_RETURN_IF_ERROR(RunBatch(engine, keyspace, *batch, statement.position, &writer));
    result->summary = "BATCH (" + std::to_string(batch->statements.size()) + " statement" +
                      (batch->statements.size() == 1 ? ")" : "s)");
  } else {
    BatchEntry entry;  // a lone statement, as a batch of one
    if (const auto* insert = std::get_if<InsertStatement>(&statement.body)) {
      entry.kind = BatchEntry::Kind::kInsert;
      entry.insert = *insert;
    } else if (const auto* update = std::get_if<UpdateStatement>(&statement.body)) {
      entry.kind = BatchEntry::Kind::kUpdate;
      entry.update = *update;
    } else {
      entry.kind = BatchEntry::Kind::kDelete;
      entry.remove = std::get<DeleteStatement>(statement.body);
    }
    const Modification m = ModificationOf(entry);
    TableHandle table;
    CELLFS_RETURN_IF_ERROR(
        ResolveTable(engine, keyspace, *m.keyspace, *m.table, m.table_position, &table));
    WriteAttributes attributes;
    CELLFS_RETURN_IF_ERROR(AttributesOf(*m.using_clause, std::nullopt, &attributes));
    CELLFS_RETURN_IF_ERROR(Run(&writer, table, m, attributes));
    result->summary = Verb(entry.kind) + " " + QuoteIdentifier(table->def.keyspace) + "." +
                      QuoteIdentifier(table->def.name);
  }
  if (!mutation.empty()) CELLFS_RETURN_IF_ERROR(engine->Apply(std::move(mutation)));
  result->touched = std::move(touched);
  return Status::Ok();
}

}  // namespace cellfs::fs
