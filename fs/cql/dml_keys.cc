// DmlWriter's WHERE clauses and DELETE: the primary key a statement names,
// checked with Cassandra's messages, and the deletions of cells, elements,
// rows, clustering ranges and partitions.
#include <algorithm>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "fs/cql/dml_writer.h"
#include "fs/formats/key_name.h"

namespace cellfs::fs {
namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) joined += ", ";
    joined += QuoteIdentifier(name);
  }
  return joined;
}

// One key column's restrictions: `=` or IN (the values, each once, in the
// order of their bytes as Cassandra's IN keeps a sorted set), or a range.
struct ColumnRestriction {
  std::optional<std::vector<std::string>> eq;
  bool in = false;                                    // eq came from IN
  std::optional<std::pair<std::string, bool>> lower;  // value, inclusive
  std::optional<std::pair<std::string, bool>> upper;
  bool any() const { return eq || lower || upper; }
};

// Every combination of one value per restriction, in order.
std::vector<std::vector<std::string>> Product(const std::vector<ColumnRestriction>& columns,
                                              size_t count) {
  std::vector<std::vector<std::string>> out = {{}};
  for (size_t i = 0; i < count; ++i) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : out) {
      for (const std::string& value : *columns[i].eq) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace

Status ErrorAt(const SourcePosition& position, const std::string& message) {
  if (message.starts_with("line ")) return Status::InvalidArgument(message);
  return Status::InvalidArgument(position.ToString() + ": " + message);
}

Status ResolveTable(Engine* engine, const std::string& session_keyspace,
                    const std::string& keyspace, const std::string& table,
                    const SourcePosition& position, TableHandle* out) {
  const std::string& ks = keyspace.empty() ? session_keyspace : keyspace;
  if (ks.empty()) {
    return ErrorAt(position,
                   "No keyspace has been specified. USE a keyspace, or explicitly specify "
                   "keyspace.tablename");
  }
  if (engine->catalog()->FindKeyspace(ks) == nullptr) {
    return ErrorAt(position, "Keyspace " + QuoteIdentifier(ks) + " does not exist");
  }
  Result<TableHandle> found = engine->FindTable(ks, table);
  if (!found.ok()) return ErrorAt(position, "unconfigured table " + table);
  *out = std::move(found.value());
  return Status::Ok();
}

Status FindColumnIndex(const TableSchema& table, const std::string& name,
                       const SourcePosition& position, size_t* index) {
  const ColumnDef* column = table.def.FindColumn(name);
  if (column == nullptr) {  // Cassandra 5.0's words (4.x ends after the name)
    return ErrorAt(position, "Undefined column name " + QuoteIdentifier(name) + " in table " +
                                 QuoteIdentifier(table.def.keyspace) + "." +
                                 QuoteIdentifier(table.def.name));
  }
  *index = static_cast<size_t>(column - table.def.columns.data());
  return Status::Ok();
}

Status DmlWriter::ParseKeys(const TableHandle& table, const std::vector<Relation>& where,
                            const SourcePosition& where_position, bool allow_range,
                            std::vector<Key>* keys) {
  const TableSchema& t = *table;
  const size_t pk_count = t.partition_key_count();
  const size_t ck_count = t.clustering_count();
  std::vector<ColumnRestriction> columns(pk_count + ck_count);
  for (const Relation& relation : where) {
    size_t index = 0;
    CELLFS_RETURN_IF_ERROR(FindColumnIndex(t, relation.column, relation.position, &index));
    const ColumnDef& def = t.column(index);
    const std::string name = QuoteIdentifier(def.name);
    if (!def.is_primary_key()) {
      return ErrorAt(relation.position, "Non PRIMARY KEY columns found in where clause: " + name);
    }
    const bool in = relation.op == Relation::Op::kIn;
    const std::vector<CqlTerm> single = {relation.value};
    std::vector<std::string> values;
    for (const CqlTerm& term : in ? relation.in_values : single) {
      std::string value;
      bool is_null = false;
      CELLFS_RETURN_IF_ERROR(ParseValueTerm(*def.type, term, def.name, &value, &is_null));
      if (is_null) {
        return ErrorAt(term.position, "Invalid null value in condition for column " + name);
      }
      values.push_back(std::move(value));
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    const bool eq = in || relation.op == Relation::Op::kEq;
    ColumnRestriction& r = columns[index];
    if (r.eq || (eq && r.any())) {
      return ErrorAt(relation.position,
                     name + " cannot be restricted by more than one relation if it includes " +
                         (r.in || (in && !r.eq) ? "a IN" : "an Equal"));
    }
    if (eq) {
      r.eq = std::move(values);
      r.in = in;
      continue;
    }
    if (def.kind == ColumnKind::kPartitionKey) {
      return ErrorAt(relation.position,
                     "Only EQ and IN relation are supported on the partition key (unless you "
                     "use the token() function)");
    }
    const bool lower = relation.op == Relation::Op::kGt || relation.op == Relation::Op::kGe;
    const bool inclusive = relation.op == Relation::Op::kGe || relation.op == Relation::Op::kLe;
    auto& bound = lower ? r.lower : r.upper;
    if (bound) {
      return ErrorAt(relation.position, "More than one restriction was found for the " +
                                            std::string(lower ? "start" : "end") + " bound on " +
                                            name);
    }
    bound.emplace(std::move(values[0]), inclusive);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < pk_count; ++i) {
    if (!columns[i].eq) missing.push_back(t.column(i).name);
  }
  if (!missing.empty()) {
    return ErrorAt(where_position, "Some partition key parts are missing: " + JoinNames(missing));
  }
  // Clustering: '=' or IN on a prefix, then at most one range, then nothing.
  std::optional<size_t> range_at;
  std::optional<size_t> gap_at;
  size_t prefix = 0;  // clustering columns restricted by '=' or IN
  for (size_t i = 0; i < ck_count; ++i) {
    const ColumnRestriction& r = columns[pk_count + i];
    if (!r.any()) {
      if (!gap_at) gap_at = i;
      continue;
    }
    if (gap_at) {
      return ErrorAt(where_position, "PRIMARY KEY column \"" + t.column(pk_count + i).name +
                                         "\" cannot be restricted as preceding column \"" +
                                         t.column(pk_count + *gap_at).name +
                                         "\" is not restricted");
    }
    if (range_at) {
      return ErrorAt(where_position, "Clustering column \"" + t.column(pk_count + i).name +
                                         "\" cannot be restricted (preceding column \"" +
                                         t.column(pk_count + *range_at).name +
                                         "\" is restricted by a non-EQ relation)");
    }
    if (r.eq) {
      ++prefix;
      continue;
    }
    if (!allow_range) {
      return ErrorAt(where_position,
                     "Slice restrictions are not supported on the clustering columns in UPDATE "
                     "statements");
    }
    range_at = i;
  }
  std::vector<ColumnRestriction> clustering(columns.begin() + static_cast<ptrdiff_t>(pk_count),
                                            columns.end());
  keys->clear();
  for (auto& partition : Product(columns, pk_count)) {
    for (auto& row : Product(clustering, prefix)) {
      Key& key = keys->emplace_back();
      key.partition = partition;
      key.clustering = std::move(row);
      if (!range_at) continue;
      const ColumnRestriction& r = clustering[*range_at];
      if (r.lower) {
        key.lower = ClusteringBound{key.clustering, r.lower->second};
        key.lower->prefix.push_back(r.lower->first);
      }
      if (r.upper) {
        key.upper = ClusteringBound{key.clustering, r.upper->second};
        key.upper->prefix.push_back(r.upper->first);
      }
    }
  }
  return Status::Ok();
}

Status DmlWriter::RequireClustering(const TableHandle& table, const Key& key,
                                    const SourcePosition& position) {
  const TableSchema& t = *table;
  if (key.clustering.size() == t.clustering_count() && !key.lower && !key.upper) {
    return Status::Ok();
  }
  std::vector<std::string> missing;
  for (size_t i = key.clustering.size(); i < t.clustering_count(); ++i) {
    missing.push_back(t.column(t.partition_key_count() + i).name);
  }
  return ErrorAt(position, "Some clustering keys are missing: " + JoinNames(missing));
}

Status DmlWriter::Delete(const TableHandle& table, const DeleteStatement& statement,
                         const WriteAttributes& attributes) {
  if (!statement.columns.empty()) {
    // A range with columns: Cassandra's own refusal, before "missing" ones.
    std::vector<Key> probe;
    Status ranged = ParseKeys(table, statement.where, statement.where_position, true, &probe);
    if (ranged.ok() && !probe.empty() && (probe[0].lower || probe[0].upper)) {
      return ErrorAt(statement.where_position,
                     "Range deletions are not supported for specific columns");
    }
  }
  std::vector<Key> keys;
  CELLFS_RETURN_IF_ERROR(ParseKeys(table, statement.where, statement.where_position,
                                   statement.columns.empty(), &keys));
  for (const Key& key : keys) CELLFS_RETURN_IF_ERROR(DeleteKey(table, statement, key, attributes));
  return Status::Ok();
}

Status DmlWriter::DeleteKey(const TableHandle& table, const DeleteStatement& statement,
                            const Key& key, const WriteAttributes& attributes) {
  const TableSchema& t = *table;
  if (statement.columns.empty()) {
    Status s;
    DmlTouched::Scope scope = DmlTouched::Scope::kPartition;
    if (key.lower || key.upper ||
        (!key.clustering.empty() && key.clustering.size() < t.clustering_count())) {
      SliceSpec range;
      range.lower = key.lower;
      range.upper = key.upper;
      if (!key.lower && !key.upper) {  // an '=' prefix alone: every row under it
        range.lower = ClusteringBound{key.clustering, true};
        range.upper = ClusteringBound{key.clustering, true};
      } else if (!key.lower && !key.clustering.empty()) {
        range.lower = ClusteringBound{key.clustering, true};
      } else if (!key.upper && !key.clustering.empty()) {
        range.upper = ClusteringBound{key.clustering, true};
      }
      s = mutation_->DeleteRange(table, key.partition, range, attributes);
    } else if (!key.clustering.empty()) {
      s = mutation_->DeleteRow(table, key.partition, key.clustering, attributes);
      scope = DmlTouched::Scope::kRow;
    } else {
      s = mutation_->DeletePartition(table, key.partition, attributes);
    }
    if (!s.ok()) return ErrorAt(statement.where_position, s.message());
    return Touch(table, scope, key, {}, statement.where_position);
  }
  std::vector<size_t> whole;
  bool all_static = true;
  std::vector<size_t> indexes;
  for (const ColumnRef& ref : statement.columns) {
    size_t index = 0;
    CELLFS_RETURN_IF_ERROR(FindColumnIndex(t, ref.name, ref.position, &index));
    if (t.column(index).is_primary_key()) {
      return ErrorAt(ref.position, "Invalid identifier " + QuoteIdentifier(ref.name) +
                                       " for deletion (should not be a PRIMARY KEY part)");
    }
    all_static = all_static && t.column(index).kind == ColumnKind::kStatic;
    indexes.push_back(index);
  }
  if (!all_static || !key.clustering.empty()) {
    CELLFS_RETURN_IF_ERROR(RequireClustering(table, key, statement.where_position));
  }
  std::vector<std::string> clustering = all_static ? std::vector<std::string>{} : key.clustering;
  Key row = key;
  row.clustering = clustering;
  for (size_t i = 0; i < statement.columns.size(); ++i) {
    const ColumnRef& ref = statement.columns[i];
    if (!ref.index && ref.field.empty()) {
      if (std::find(whole.begin(), whole.end(), indexes[i]) == whole.end()) {
        whole.push_back(indexes[i]);
      }
      continue;
    }
    CELLFS_RETURN_IF_ERROR(DeleteElement(table, row, ref, indexes[i], attributes));
  }
  if (!whole.empty()) {
    Status s = mutation_->DeleteCells(table, key.partition, clustering, whole, attributes);
    if (!s.ok()) return ErrorAt(statement.table_position, s.message());
  }
  return Touch(table, DmlTouched::Scope::kCells, row, indexes, statement.where_position);
}

Status DmlWriter::Touch(const TableHandle& table, DmlTouched::Scope scope, const Key& key,
                        std::vector<size_t> columns, const SourcePosition& position) {
  const TableSchema& t = *table;
  auto check = [&](size_t first, const std::vector<std::string>& values) -> Status {
    if (values.empty()) return Status::Ok();
    std::vector<const CqlType*> types;
    for (size_t i = 0; i < values.size(); ++i) types.push_back(t.column(first + i).type.get());
    Result<std::string> name = FormatKeyName(types, values);
    if (name.ok()) return Status::Ok();
    return Status(name.status().code(), position.ToString() + ": " + name.status().message());
  };
  CELLFS_RETURN_IF_ERROR(check(0, key.partition));
  CELLFS_RETURN_IF_ERROR(check(t.partition_key_count(), key.clustering));
  DmlTouched& touched = touched_->emplace_back();
  touched.table = table;
  touched.scope = scope;
  touched.partition_key = key.partition;
  if (scope != DmlTouched::Scope::kPartition) touched.clustering = key.clustering;
  touched.columns = std::move(columns);
  return Status::Ok();
}

}  // namespace cellfs::fs
