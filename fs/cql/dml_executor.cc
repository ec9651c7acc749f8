// ExecuteDataStatement: resolves tables, applies USING and the BATCH rules
// (Cassandra's BatchStatement checks and wording), and applies everything
// as one Mutation.
#include "fs/cql/dml_executor.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_identifier.h"
#include "fs/cql/dml_conditions.h"
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
  const ConditionClause* conditions;
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
              &entry.insert,
              &entry.insert.conditions};
    case BatchEntry::Kind::kUpdate:
      return {entry.kind,
              &entry.update.keyspace,
              &entry.update.table,
              entry.update.table_position,
              &entry.update.using_clause,
              &entry,
              &entry.update,
              &entry.update.conditions};
    case BatchEntry::Kind::kDelete:
      break;
  }
  return {entry.kind,
          &entry.remove.keyspace,
          &entry.remove.table,
          entry.remove.table_position,
          &entry.remove.using_clause,
          &entry,
          &entry.remove,
          &entry.remove.conditions};
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

// The BATCH rules that depend on the tables (Cassandra's BatchStatement
// checks), before anything runs.
Status CheckBatch(const BatchStatement& batch, const std::vector<Modification>& modifications,
                  const std::vector<TableHandle>& tables, const SourcePosition& position) {
  if (batch.using_clause.ttl) {
    return ErrorAt(batch.using_clause.ttl_position,
                   "Global TTL on the BATCH statement is not supported.");
  }
  bool has_counters = false;
  bool has_non_counters = false;
  for (size_t i = 0; i < modifications.size(); ++i) {
    const Modification& m = modifications[i];
    if (batch.using_clause.timestamp && m.using_clause->timestamp) {
      return ErrorAt(m.entry->position,
                     "Timestamp must be set either on BATCH or individual statements");
    }
    // Cassandra counts a statement on a counter table as a counter one.
    const bool counter = tables[i]->def.has_counters();
    if (batch.type == BatchStatement::Type::kCounter && !counter) {
      return ErrorAt(m.entry->position, "Cannot include non-counter statement in a counter batch");
    }
    if (batch.type == BatchStatement::Type::kLogged && counter) {
      return ErrorAt(m.entry->position, "Cannot include a counter statement in a logged batch");
    }
    (counter ? has_counters : has_non_counters) = true;
  }
  if (has_counters && has_non_counters) {
    return ErrorAt(position, "Counter and non-counter mutations cannot exist in the same batch");
  }
  return Status::Ok();
}

// The rules of conditional statements that need no read (Cassandra's
// ModificationStatement and BatchStatement checks).
Status CheckConditional(const BatchStatement* batch, const std::vector<Modification>& modifications,
                        const std::vector<TableHandle>& tables) {
  if (batch != nullptr && batch->using_clause.timestamp) {
    return ErrorAt(batch->using_clause.timestamp_position,
                   "Cannot provide custom timestamp for conditional BATCH");
  }
  for (size_t i = 0; i < modifications.size(); ++i) {
    const Modification& m = modifications[i];
    if (m.conditions->empty()) continue;
    if (tables[i]->def.has_counters()) {
      return ErrorAt(m.conditions->position,
                     "Conditional updates are not supported on counter tables");
    }
    if (m.using_clause->timestamp) {
      return ErrorAt(m.using_clause->timestamp_position,
                     "Cannot provide custom timestamp for conditional updates");
    }
    if (m.kind == BatchEntry::Kind::kInsert) continue;
    const bool update = m.kind == BatchEntry::Kind::kUpdate;
    const std::vector<Relation>& where =
        update ? static_cast<const UpdateStatement*>(m.statement)->where
               : static_cast<const DeleteStatement*>(m.statement)->where;
    for (const Relation& relation : where) {
      if (relation.op != Relation::Op::kIn) continue;
      const ColumnDef* column = tables[i]->def.FindColumn(relation.column);
      const bool partition = column != nullptr && column->kind == ColumnKind::kPartitionKey;
      return ErrorAt(
          relation.position,
          std::string("IN on the ") + (partition ? "partition key" : "clustering key columns") +
              " is not supported with conditional " + (update ? "updates" : "deletions"));
    }
  }
  return Status::Ok();
}

bool SameTable(const TableHandle& a, const TableHandle& b) {
  return a->def.keyspace == b->def.keyspace && a->def.name == b->def.name;
}

// A conditional statement or batch (a lightweight transaction): every
// statement is first run against a scratch mutation to learn the one
// partition and the rows it writes; then, under that partition's lock, the
// conditions are checked on a fresh snapshot and, when they hold, the
// statements run again (list operations read the state just checked) and
// are applied as one mutation.
Status RunConditional(Engine* engine, const std::vector<Modification>& modifications,
                      const std::vector<TableHandle>& tables,
                      const std::vector<WriteAttributes>& attributes, bool batch,
                      DmlResult* result) {
  std::unique_ptr<ConditionalRequest> request;
  std::vector<std::string> partition_key;
  for (size_t i = 0; i < modifications.size(); ++i) {
    const Modification& m = modifications[i];
    const SourcePosition& at = m.entry != nullptr ? m.entry->position : m.table_position;
    if (!SameTable(tables[i], tables[0])) {
      return ErrorAt(at, "Batch with conditions cannot span multiple tables");
    }
    Mutation scratch = engine->NewMutation();
    std::vector<DmlTouched> touched;
    DmlWriter dry_run(engine, &scratch, &touched);
    CELLFS_RETURN_IF_ERROR(Run(&dry_run, tables[i], m, attributes[i]));
    if (touched.empty()) return Status::FailedPrecondition("a conditional statement wrote nothing");
    ConditionalStatement statement;
    statement.conditions = m.conditions;
    const TableSchema& t = *tables[i];
    for (const DmlTouched& write : touched) {
      if (!request) {
        partition_key = write.partition_key;
        request = std::make_unique<ConditionalRequest>(tables[0], partition_key, batch);
      } else if (write.partition_key != partition_key) {
        return ErrorAt(at, "Batch with conditions cannot span multiple partitions");
      }
      switch (write.scope) {
        case DmlTouched::Scope::kCells:
          if (t.clustering_count() > 0 && write.clustering.empty()) {
            statement.static_row = true;
            statement.updates_static = true;
            break;
          }
          statement.clustering = write.clustering;
          statement.updates_regular = true;
          for (size_t column : write.columns) {
            statement.updates_static =
                statement.updates_static || t.column(column).kind == ColumnKind::kStatic;
          }
          break;
        case DmlTouched::Scope::kRow:
          statement.clustering = write.clustering;
          statement.updates_regular = true;
          break;
        case DmlTouched::Scope::kPartition:
          if (t.clustering_count() == 0) {  // the partition's one row
            statement.updates_regular = true;
            break;
          }
          statement.partition_delete = true;
          statement.static_row = true;
          break;
      }
    }
    CELLFS_RETURN_IF_ERROR(request->Add(std::move(statement)));
  }
  std::lock_guard<std::mutex> lock(PartitionLocks::For(*tables[0], partition_key));
  bool applied = false;
  CELLFS_RETURN_IF_ERROR(request->Check(engine->NewReadView(), &applied));
  if (applied) {
    Mutation mutation = engine->NewMutation();
    std::vector<DmlTouched> touched;
    DmlWriter writer(engine, &mutation, &touched);
    for (size_t i = 0; i < modifications.size(); ++i) {
      CELLFS_RETURN_IF_ERROR(Run(&writer, tables[i], modifications[i], attributes[i]));
    }
    if (!mutation.empty()) CELLFS_RETURN_IF_ERROR(engine->Apply(std::move(mutation)));
    result->touched = std::move(touched);
  }
  result->output = request->Output();
  return Status::Ok();
}

}  // namespace

Status ExecuteDataStatement(Engine* engine, const Statement& statement, const std::string& keyspace,
                            DmlResult* result) {
  const auto* batch = std::get_if<BatchStatement>(&statement.body);
  BatchEntry lone;  // a lone statement, as a batch of one
  std::vector<Modification> modifications;
  if (batch != nullptr) {
    for (const BatchEntry& entry : batch->statements)
      modifications.push_back(ModificationOf(entry));
  } else {
    if (const auto* insert = std::get_if<InsertStatement>(&statement.body)) {
      lone.kind = BatchEntry::Kind::kInsert;
      lone.insert = *insert;
    } else if (const auto* update = std::get_if<UpdateStatement>(&statement.body)) {
      lone.kind = BatchEntry::Kind::kUpdate;
      lone.update = *update;
    } else {
      lone.kind = BatchEntry::Kind::kDelete;
      lone.remove = std::get<DeleteStatement>(statement.body);
    }
    modifications.push_back(ModificationOf(lone));
    modifications.back().entry = nullptr;
  }
  std::vector<TableHandle> tables;
  for (const Modification& m : modifications) {
    CELLFS_RETURN_IF_ERROR(ResolveTable(engine, keyspace, *m.keyspace, *m.table, m.table_position,
                                        &tables.emplace_back()));
    // Cassandra's ModificationStatement: a view changes only through its base.
    if (tables.back()->def.view) {
      return ErrorAt(m.table_position, "Cannot directly modify a materialized view");
    }
  }
  if (batch != nullptr) {
    CELLFS_RETURN_IF_ERROR(CheckBatch(*batch, modifications, tables, statement.position));
    result->summary = "BATCH (" + std::to_string(batch->statements.size()) + " statement" +
                      (batch->statements.size() == 1 ? ")" : "s)");
  } else {
    result->summary = Verb(lone.kind) + " " + QuoteIdentifier(tables[0]->def.keyspace) + "." +
                      QuoteIdentifier(tables[0]->def.name);
  }
  const bool conditional =
      std::any_of(modifications.begin(), modifications.end(),
                  [](const Modification& m) { return !m.conditions->empty(); });
  if (conditional) CELLFS_RETURN_IF_ERROR(CheckConditional(batch, modifications, tables));
  std::vector<WriteAttributes> attributes(modifications.size());
  for (size_t i = 0; i < modifications.size(); ++i) {
    const std::optional<int64_t> batch_timestamp =
        batch != nullptr ? batch->using_clause.timestamp : std::nullopt;
    CELLFS_RETURN_IF_ERROR(
        AttributesOf(*modifications[i].using_clause, batch_timestamp, &attributes[i]));
  }
  if (conditional) {
    return RunConditional(engine, modifications, tables, attributes, batch != nullptr, result);
  }
  Mutation mutation = engine->NewMutation();
  std::vector<DmlTouched> touched;
  DmlWriter writer(engine, &mutation, &touched);
  for (size_t i = 0; i < modifications.size(); ++i) {
    CELLFS_RETURN_IF_ERROR(Run(&writer, tables[i], modifications[i], attributes[i]));
  }
  if (!mutation.empty()) CELLFS_RETURN_IF_ERROR(engine->Apply(std::move(mutation)));
  result->touched = std::move(touched);
  return Status::Ok();
}

}  // namespace cellfs::fs
