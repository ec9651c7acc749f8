// DmlWriter: turns one INSERT, UPDATE or DELETE into operations on a shared
// Mutation, checking it as Cassandra does. Internal to fs/cql; the batch
// rules and the apply are dml_executor.cc's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/cql/dml_statement.h"
#include "engine/engine.h"
#include "fs/cql/dml_executor.h"

namespace cellfs::fs {

// Not thread-safe; one per statement run.
class DmlWriter {
 public:
  // `engine` and `mutation` must outlive the writer; `touched` collects
  // what the statements wrote.
  DmlWriter(Engine* engine, Mutation* mutation, std::vector<DmlTouched>* touched)
      : engine_(engine), mutation_(mutation), touched_(touched) {}

  // Each adds the statement's writes to the mutation, or fails with an
  // error carrying a position and adds nothing the caller will apply (the
  // caller drops the mutation on any error). `table` is resolved by the
  // caller; `timestamp` is the batch's USING TIMESTAMP when the statement
  // has none.
  Status Insert(const TableHandle& table, const InsertStatement& statement,
                const WriteAttributes& attributes);
  Status Update(const TableHandle& table, const UpdateStatement& statement,
                const WriteAttributes& attributes);
  Status Delete(const TableHandle& table, const DeleteStatement& statement,
                const WriteAttributes& attributes);

 private:
  // One key of the WHERE clause: every partition key column's value, then
  // the clustering columns restricted with '=' or IN (a prefix) and, for
  // DELETE, at most one range on the next one.
  struct Key {
    std::vector<std::string> partition;
    std::vector<std::string> clustering;  // the '=' prefix
    std::optional<ClusteringBound> lower;
    std::optional<ClusteringBound> upper;
  };
  Status InsertJson(const TableHandle& table, const InsertStatement& statement,
                    const WriteAttributes& attributes);
  // Every key the WHERE clause names: the product of the '=' and IN values
  // of the partition key, then of the clustering prefix (IN values once
  // each, in byte order), each with the range when there is one.
  Status ParseKeys(const TableHandle& table, const std::vector<Relation>& where,
                   const SourcePosition& where_position, bool allow_range, std::vector<Key>* keys);
  Status UpdateKey(const TableHandle& table, const UpdateStatement& statement, const Key& key,
                   const WriteAttributes& attributes);
  Status DeleteKey(const TableHandle& table, const DeleteStatement& statement, const Key& key,
                   const WriteAttributes& attributes);
  Status RequireClustering(const TableHandle& table, const Key& key,
                           const SourcePosition& position);
  Status Assign(const TableHandle& table, const Key& key, const Assignment& assignment,
                const WriteAttributes& attributes);
  Status DeleteElement(const TableHandle& table, const Key& key, const ColumnRef& ref,
                       size_t column, const WriteAttributes& attributes);
  // The live elements of list `column`, read before this mutation.
  Result<std::vector<RowCell>> ListElements(const TableHandle& table, const Key& key,
                                            size_t column);
  Status ListIndexPath(const TableHandle& table, const Key& key, size_t column,
                       const CqlTerm& index, std::string* path);
  // Records what a write touched, after checking that its keys have names
  // (DESIGN.md section 2: a key whose name would pass 255 bytes is refused
  // on every write path): NameTooLong at `position` otherwise.
  Status Touch(const TableHandle& table, DmlTouched::Scope scope, const Key& key,
               std::vector<size_t> columns, const SourcePosition& position);

  Engine* engine_;
  Mutation* mutation_;
  std::vector<DmlTouched>* touched_;
};

// Shared by the writer's files: the index of column `name`, or Cassandra's
// "Undefined column name x" at `position`.
Status FindColumnIndex(const TableSchema& table, const std::string& name,
                       const SourcePosition& position, size_t* index);
// The table `table` of `keyspace`, or of `session_keyspace` when that is
// empty, with Cassandra's messages at `position` when there is none.
Status ResolveTable(Engine* engine, const std::string& session_keyspace,
                    const std::string& keyspace, const std::string& table,
                    const SourcePosition& position, TableHandle* out);
// `message` prefixed with `position` ("line L:C: message").
Status ErrorAt(const SourcePosition& position, const std::string& message);

}  // namespace cellfs::fs
