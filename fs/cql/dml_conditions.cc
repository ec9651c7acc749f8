// ConditionalRequest: Cassandra's CQL3CasRequest and ColumnCondition rules
// on one node: which rows are read, when each condition holds, and what the
// result shows when one does not.
#include "fs/cql/dml_conditions.h"

#include <algorithm>
#include <array>
#include <functional>
#include <mutex>
#include <utility>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "fs/cql/cqlsh_table.h"
#include "fs/cql/dml_writer.h"
#include "fs/cql/value_order.h"
#include "fs/formats/row_json.h"

namespace cellfs::fs {
namespace {

using Op = Condition::Op;

bool IsSlice(Op op) { return op == Op::kLt || op == Op::kLe || op == Op::kGt || op == Op::kGe; }

bool HoldsDuration(const CqlType& type) {
  if (type.kind() == TypeKind::kDuration) return true;
  return std::any_of(type.params().begin(), type.params().end(),
                     [](const TypePtr& param) { return HoldsDuration(*param); });
}

// Cassandra's ColumnCondition.compareWithOperator: `operand` is the
// condition's value, `current` the stored one.
bool Compare(const CqlType& type, Op op, const std::optional<std::string>& operand,
             const std::optional<std::string_view>& current) {
  if (!operand) return op == Op::kEq ? !current : current.has_value();  // kNe
  if (!current) return op == Op::kNe;
  return OrderSatisfies(op, CompareValues(type, *current, *operand));
}

// The live value of column `index` in `row` (assembled for a multi-cell column).
std::optional<std::string_view> CellValue(const TableSchema& table, size_t index,
                                          const std::optional<RowFragment>& row) {
  if (!row) return std::nullopt;
  const RowCell* cell = row->FindCell(table.column_ids[index]);
  if (cell == nullptr || cell->cell.is_tombstone()) return std::nullopt;
  return std::string_view(cell->cell.value);
}

std::string Boolean(bool value) { return std::string(1, value ? '\x01' : '\x00'); }

}  // namespace

struct ConditionalRequest::TypedCondition {
  enum class Access { kWhole, kListIndex, kMapKey, kField };
  size_t column = 0;
  Access access = Access::kWhole;
  int32_t list_index = 0;
  std::string map_key;
  size_t field = 0;
  Op op = Op::kEq;
  TypePtr compared;  // the type of the values: the column's, an element's or a field's
  std::vector<std::optional<std::string>> values;  // one, or the IN list; nullopt: null
};

// A row the conditions read: the static row or one regular row, with its
// existence condition or its column conditions (Cassandra keeps one kind
// per row).
struct ConditionalRequest::RowTarget {
  enum class Existence { kNone, kMustExist, kMustNotExist };
  bool is_static = false;
  std::vector<std::string> clustering;
  Existence existence = Existence::kNone;
  std::vector<TypedCondition> conditions;
  std::optional<RowFragment> current;  // Check's read
};

ConditionalRequest::ConditionalRequest(TableHandle table, std::vector<std::string> partition_key,
                                       bool batch)
    : table_(std::move(table)), partition_key_(std::move(partition_key)), batch_(batch) {
  static_condition_.assign(table_->def.columns.size(), false);
}

ConditionalRequest::~ConditionalRequest() = default;

Status ConditionalRequest::Type(const Condition& condition, TypedCondition* out) const {
  const TableSchema& t = *table_;
  const ColumnRef& target = condition.target;
  CELLFS_RETURN_IF_ERROR(FindColumnIndex(t, target.name, target.position, &out->column));
  const ColumnDef& def = t.column(out->column);
  const std::string name = QuoteIdentifier(def.name);
  if (def.is_primary_key()) {
    return ErrorAt(target.position, "PRIMARY KEY column '" + name + "' cannot have IF conditions");
  }
  const CqlType& type = *def.type;
  out->compared = def.type;
  if (target.index) {
    if (!type.is_collection()) {
      return ErrorAt(target.position,
                     "Invalid element access syntax for non-collection column " + name);
    }
    if (type.kind() == TypeKind::kSet) {
      return ErrorAt(target.position, "Invalid element access syntax for set column " + name);
    }
    const bool map = type.kind() == TypeKind::kMap;
    std::string index;
    bool is_null = false;
    const TypePtr index_type = map ? type.params()[0] : CqlType::Native(TypeKind::kInt);
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(*index_type, *target.index, def.name, &index, &is_null));
    if (is_null) {
      return ErrorAt(target.index->position, std::string("Invalid null value for ") +
                                                 (map ? "map" : "list") + " element access");
    }
    if (map) {
      out->access = TypedCondition::Access::kMapKey;
      out->map_key = std::move(index);
    } else {
      out->access = TypedCondition::Access::kListIndex;
      uint32_t bits = 0;
      for (char c : index) bits = (bits << 8) | static_cast<unsigned char>(c);
      out->list_index = static_cast<int32_t>(bits);
    }
    out->compared = map ? type.params()[1] : type.params()[0];
  } else if (!target.field.empty()) {
    if (type.kind() != TypeKind::kUdt) {
      return ErrorAt(target.position, "Invalid field access for non-UDT column " + name);
    }
    const auto& names = type.field_names();
    const auto found = std::find(names.begin(), names.end(), target.field);
    if (found == names.end()) {
      return ErrorAt(target.position,
                     "Unknown field " + QuoteIdentifier(target.field) + " for column " + name);
    }
    out->access = TypedCondition::Access::kField;
    out->field = static_cast<size_t>(found - names.begin());
    out->compared = type.params()[out->field];
  }
  out->op = condition.op;
  if (IsSlice(condition.op) && HoldsDuration(*out->compared)) {
    const CqlType& compared = *out->compared;
    const std::string what = compared.is_collection() ? "collections containing durations"
                             : compared.kind() == TypeKind::kTuple ? "tuples containing durations"
                             : compared.kind() == TypeKind::kUdt   ? "UDTs containing durations"
                                                                   : "";
    if (!what.empty()) {
      return ErrorAt(condition.op_position, "Slice conditions are not supported on " + what);
    }
    return ErrorAt(condition.op_position, "Slice conditions ( " +
                                              std::string(RelationOpText(condition.op)) +
                                              " ) are not supported on durations");
  }
  const std::vector<CqlTerm> single = {condition.value};
  const std::vector<CqlTerm>& terms = condition.op == Op::kIn ? condition.values : single;
  for (const CqlTerm& term : terms) {
    std::string value;
    bool is_null = false;
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(*out->compared, term, def.name, &value, &is_null));
    // An empty non-frozen collection is no value at all, as when written.
    if (out->compared->is_multi_cell() && out->compared->is_collection() &&
        value == std::string(4, '\0')) {
      is_null = true;
    }
    if (is_null && IsSlice(condition.op)) {
      return ErrorAt(condition.op_position, "Invalid comparison with null for operator \"" +
                                                std::string(RelationOpText(condition.op)) + "\"");
    }
    out->values.push_back(is_null ? std::nullopt : std::optional<std::string>(std::move(value)));
  }
  return Status::Ok();
}

Status ConditionalRequest::Add(ConditionalStatement statement) {
  const TableSchema& t = *table_;
  updates_static_ = updates_static_ || statement.updates_static;
  updates_regular_ = updates_regular_ || statement.updates_regular;
  const ConditionClause& clause = *statement.conditions;
  if (clause.empty()) return Status::Ok();
  auto target_for = [&](bool is_static) -> RowTarget* {
    for (RowTarget& target : targets_) {
      if (target.is_static == is_static &&
          (is_static || target.clustering == statement.clustering)) {
        return &target;
      }
    }
    RowTarget& added = targets_.emplace_back();
    added.is_static = is_static;
    if (!is_static) added.clustering = statement.clustering;
    return &added;
  };
  if (statement.partition_delete && clause.kind == ConditionClause::Kind::kIfExists) {
    return Status::NotSupported(clause.position.ToString() +
                                ": IF EXISTS on a partition or range deletion is not supported by "
                                "cellfs");
  }
  if (clause.kind != ConditionClause::Kind::kColumns) {
    const bool not_exists = clause.kind == ConditionClause::Kind::kIfNotExists;
    RowTarget* target = target_for(statement.static_row);
    const auto wanted =
        not_exists ? RowTarget::Existence::kMustNotExist : RowTarget::Existence::kMustExist;
    if (!target->conditions.empty()) {
      return ErrorAt(clause.position, std::string("Cannot mix IF conditions and IF ") +
                                          (not_exists ? "NOT " : "") + "EXISTS for the same row");
    }
    if (target->existence != RowTarget::Existence::kNone && target->existence != wanted) {
      return ErrorAt(clause.position,
                     "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
    }
    target->existence = wanted;
    wildcard_ = true;
    return Status::Ok();
  }
  std::vector<TypedCondition> regular, statics;
  for (const Condition& condition : clause.columns) {
    TypedCondition typed;
    CELLFS_RETURN_IF_ERROR(Type(condition, &typed));
    const bool is_static = t.column(typed.column).kind == ColumnKind::kStatic;
    if (!is_static && statement.partition_delete) {
      return ErrorAt(condition.target.position,
                     "DELETE statements must restrict all PRIMARY KEY columns with equality "
                     "relations in order to use IF condition on non static columns");
    }
    if (!is_static && statement.static_row) {
      std::string missing;
      for (size_t i = t.partition_key_count(); i < t.partition_key_count() + t.clustering_count();
           ++i) {
        missing += (missing.empty() ? "" : ", ") + QuoteIdentifier(t.column(i).name);
      }
      return ErrorAt(condition.target.position, "Some clustering keys are missing: " + missing);
    }
    (is_static ? statics : regular).push_back(std::move(typed));
  }
  for (auto* group : {&regular, &statics}) {
    if (group->empty()) continue;
    RowTarget* target = target_for(group == &statics);
    if (target->existence != RowTarget::Existence::kNone) {
      return ErrorAt(clause.position,
                     "Cannot mix IF conditions and IF NOT EXISTS for the same row");
    }
    for (TypedCondition& typed : *group) {
      if (std::find(shown_columns_.begin(), shown_columns_.end(), typed.column) ==
          shown_columns_.end()) {
        shown_columns_.push_back(typed.column);
      }
      if (group == &statics) static_condition_[typed.column] = true;
      target->conditions.push_back(std::move(typed));
    }
  }
  return Status::Ok();
}

bool ConditionalRequest::Holds(const TypedCondition& condition,
                               const std::optional<RowFragment>& row) const {
  std::optional<std::string_view> current = CellValue(*table_, condition.column, row);
  using Access = TypedCondition::Access;
  if (current && condition.access != Access::kWhole) {
    const CqlType& type = *table_->column(condition.column).type;
    std::optional<std::string_view> part;
    if (condition.access == Access::kField) {
      std::vector<std::optional<std::string_view>> fields;
      if (UnpackComponents(*current, type.params().size(), &fields).ok() &&
          condition.field < fields.size()) {
        part = fields[condition.field];
      }
    } else {
      const bool map = condition.access == Access::kMapKey;
      std::vector<std::string_view> items;
      if (UnpackCollection(*current, map ? 2 : 1, &items).ok()) {
        if (!map && condition.list_index >= 0 &&
            static_cast<size_t>(condition.list_index) < items.size()) {
          part = items[static_cast<size_t>(condition.list_index)];
        }
        for (size_t i = 0; map && i + 1 < items.size(); i += 2) {
          if (CompareValues(*type.params()[0], items[i], condition.map_key) == 0) {
            part = items[i + 1];
          }
        }
      }
    }
    current = part;
  }
  for (const std::optional<std::string>& value : condition.values) {
    const Op op = condition.op == Op::kIn ? Op::kEq : condition.op;
    if (Compare(*condition.compared, op, value, current)) return true;
  }
  return false;
}

Status ConditionalRequest::Check(const ReadView& view, bool* applied) {
  const TableSchema& t = *table_;
  // The static columns read: all of them when the request writes the
  // static row, else those the conditions name (CQL3CasRequest.columnsToRead).
  std::vector<bool> static_read(t.def.columns.size(), false);
  bool any_static_read = false;
  for (size_t i = 0; i < t.def.columns.size(); ++i) {
    static_read[i] =
        t.column(i).kind == ColumnKind::kStatic && (updates_static_ || static_condition_[i]);
    any_static_read = any_static_read || static_read[i];
  }
  std::optional<RowFragment> static_row;
  if (any_static_read) {
    Result<std::optional<RowFragment>> read = view.GetStaticRow(table_, partition_key_);
    if (!read.ok()) return read.status();
    static_row = std::move(read.value());
    if (static_row) {
      std::erase_if(static_row->cells, [&](const RowCell& cell) {
        const std::optional<size_t> index = t.ColumnIndexById(cell.column_id);
        return !index || !static_read[*index];
      });
      if (static_row->cells.empty()) static_row.reset();
    }
  }
  bool regular_targets = false;
  *applied = true;
  for (RowTarget& target : targets_) {
    if (target.is_static) {
      target.current = static_row;
    } else {
      regular_targets = true;
      Result<std::optional<RowFragment>> read =
          view.GetRow(table_, partition_key_, target.clustering);
      if (!read.ok()) return read.status();
      target.current = std::move(read.value());
    }
    switch (target.existence) {
      case RowTarget::Existence::kMustExist:
        *applied = *applied && target.current.has_value();
        break;
      case RowTarget::Existence::kMustNotExist:
        *applied = *applied && !target.current.has_value();
        break;
      case RowTarget::Existence::kNone:
        for (const TypedCondition& condition : target.conditions) {
          *applied = *applied && Holds(condition, target.current);
        }
        break;
    }
  }
  applied_ = *applied;
  result_rows_.clear();
  if (applied_) return Status::Ok();

  // The failure result: the rows read (SelectStatement.processPartition):
  // each existing regular row, in clustering order, with the static values
  // read; else one row of static values when the static row has any.
  std::vector<size_t> columns;
  if (wildcard_) {
    columns = SelectStarOrder(t);
  } else {
    if (batch_) {
      for (size_t i = 0; i < t.partition_key_count() + t.clustering_count(); ++i) {
        columns.push_back(i);
      }
    }
    columns.insert(columns.end(), shown_columns_.begin(), shown_columns_.end());
  }
  // A row read: its clustering and, for a conditioned row, the target
  // holding its values (targets_ stays put until Output).
  struct ReadRow {
    std::vector<std::string> clustering;
    const RowTarget* target = nullptr;
  };
  std::vector<ReadRow> rows;
  if (regular_targets) {
    for (const RowTarget& target : targets_) {
      if (!target.is_static && target.current) rows.push_back({target.clustering, &target});
    }
    auto before = [&](const ReadRow& a, const ReadRow& b) {
      for (size_t i = 0; i < a.clustering.size(); ++i) {
        const ColumnDef& def = t.column(t.partition_key_count() + i);
        int order = CompareValues(*def.type, a.clustering[i], b.clustering[i]);
        if (def.order == SortOrder::kDesc) order = -order;
        if (order != 0) return order < 0;
      }
      return false;
    };
    std::sort(rows.begin(), rows.end(), before);
  } else {
    // Only static conditions: Cassandra reads the partition's first live
    // row too (to tell a missing partition from one without static values),
    // without its regular columns.
    Result<PartitionRef> partition = PartitionRef::Make(t, partition_key_);
    if (!partition.ok()) return partition.status();
    Result<ReadView::PartitionRead> read = view.ReadPartition(table_, partition.value());
    if (!read.ok()) return read.status();
    RowIterator& first = *read.value().rows;
    if (first.Valid()) {
      ReadRow& row = rows.emplace_back();
      CELLFS_RETURN_IF_ERROR(first.DecodeClustering(&row.clustering));
    }
    CELLFS_RETURN_IF_ERROR(first.status());
  }
  if (rows.empty() && static_row) rows.emplace_back();
  for (const ReadRow& read : rows) {
    std::vector<std::optional<std::string>>& out = result_rows_.emplace_back();
    for (size_t index : columns) {
      const ColumnDef& def = t.column(index);
      const auto position = static_cast<size_t>(def.position);
      std::optional<std::string_view> value;
      if (def.kind == ColumnKind::kPartitionKey) {
        value = partition_key_[position];
      } else if (def.kind == ColumnKind::kClustering) {
        if (position < read.clustering.size()) value = read.clustering[position];
      } else if (def.kind == ColumnKind::kStatic) {
        value = CellValue(t, index, static_row);
      } else {
        if (read.target != nullptr) value = CellValue(t, index, read.target->current);
      }
      out.push_back(value ? std::optional<std::string>(*value) : std::nullopt);
    }
  }
  result_columns_ = std::move(columns);
  return Status::Ok();
}

std::string ConditionalRequest::Output() const {
  std::vector<CqlshColumn> columns = {{"[applied]", CqlType::Native(TypeKind::kBoolean)}};
  std::vector<CqlshRow> rows;
  if (applied_ || result_rows_.empty()) {
    rows.push_back({Boolean(applied_)});
  } else {
    for (size_t index : result_columns_) {
      columns.push_back({table_->column(index).name, table_->column(index).type});
    }
    for (const auto& values : result_rows_) {
      CqlshRow& row = rows.emplace_back();
      row.push_back(Boolean(false));
      row.insert(row.end(), values.begin(), values.end());
    }
  }
  CqlshResultPrinter printer(std::move(columns), CqlshPrintOptions{});
  std::string out;
  printer.PrintPage(rows, &out);
  return out;
}

std::mutex& PartitionLocks::For(const TableSchema& table,
                                const std::vector<std::string>& partition_key) {
  static std::array<std::mutex, 64> locks;
  size_t hash = std::hash<std::string>()(table.def.keyspace + "." + table.def.name);
  for (const std::string& part : partition_key) {
    hash = hash * 31 + std::hash<std::string>()(part);
  }
  return locks[hash % locks.size()];
}

}  // namespace cellfs::fs
