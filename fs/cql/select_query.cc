// BuildSelectQuery: a SelectPlan's terms typed against the table, keys and
// clustering values ordered as Cassandra orders IN lists, slices built.
#include "fs/cql/select_query.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "engine/cql/collection_codec.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/cql/key_codec.h"
#include "engine/store/token.h"
#include "fs/cql/dml_writer.h"
#include "fs/cql/select_like.h"
#include "fs/formats/indexed_partitions.h"
#include "fs/formats/row_json.h"

namespace cellfs::fs {
namespace {

using Values = std::vector<std::string>;

// One typed value of column `index`; null is refused as Cassandra refuses it
// in a condition.
Status TypeValue(const TableSchema& table, size_t index, const CqlTerm& term, std::string* out) {
  const ColumnDef& column = table.column(index);
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseValueTerm(*column.type, term, column.name, out, &is_null));
  if (is_null) {
    return ErrorAt(term.position,
                   "Invalid null value in condition for column " + QuoteIdentifier(column.name));
  }
  return Status::Ok();
}

// A tuple literal over `columns`, split into one value per column.
Status TypeTuple(const TableSchema& table, const std::vector<size_t>& columns, const CqlTerm& term,
                 Values* out) {
  std::vector<TypePtr> types;
  std::string names = "(";
  for (size_t i = 0; i < columns.size(); ++i) {
    types.push_back(table.column(columns[i]).type);
    names += (i > 0 ? "," : "") + QuoteIdentifier(table.column(columns[i]).name);
  }
  names += ")";
  std::string packed;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(
      ParseValueTerm(*CqlType::Tuple(std::move(types)), term, names, &packed, &is_null));
  std::vector<std::optional<std::string_view>> components;
  if (!is_null) CELLFS_RETURN_IF_ERROR(UnpackComponents(packed, columns.size(), &components));
  if (is_null || components.size() != columns.size()) {
    return ErrorAt(term.position, "Invalid null value in condition for columns " + names);
  }
  out->clear();
  for (const auto& component : components) {
    if (!component) {
      return ErrorAt(term.position, "Invalid null value in condition for columns " + names);
    }
    out->emplace_back(*component);
  }
  return Status::Ok();
}

// The values of one clustering step's term: one value, or a tuple's.
Status TypeStepTerm(const TableSchema& table, const ClusteringStep& step, const CqlTerm& term,
                    size_t column_count, Values* out) {
  const size_t first = table.partition_key_count() + step.first;
  if (!step.multi_column) {
    out->assign(1, std::string());
    return TypeValue(table, first, term, &(*out)[0]);
  }
  std::vector<size_t> columns;
  for (size_t i = 0; i < column_count; ++i) columns.push_back(first + i);
  return TypeTuple(table, columns, term, out);
}

// The encoded form of `values` for clustering positions from `first`, each
// in its column's order: memcmp order is the clustering order.
std::string EncodeClusteringValues(const TableSchema& table, size_t first, const Values& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnDef& column = table.column(table.partition_key_count() + first + i);
    EncodeKeyComponent(*column.type, values[i], column.order, &out);
  }
  return out;
}

// Sorts `prefixes` (each `width` values from clustering position `first`)
// into clustering order, folding duplicates, as Cassandra's IN does.
void SortClustering(const TableSchema& table, size_t first, std::vector<Values>* prefixes) {
  std::vector<std::pair<std::string, Values>> keyed;
  for (Values& v : *prefixes) keyed.emplace_back(EncodeClusteringValues(table, first, v), v);
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  keyed.erase(std::unique(keyed.begin(), keyed.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              keyed.end());
  prefixes->clear();
  for (auto& [encoded, values] : keyed) prefixes->push_back(std::move(values));
}

Status BuildSlices(const TableSchema& table, const SelectPlan& plan, SelectQuery* query) {
  // Every equal/IN combination of the prefix, in clustering order.
  std::vector<Values> prefixes(1);
  const ClusteringStep* slice = nullptr;
  for (const ClusteringStep& step : plan.clustering) {
    if (step.kind == ClusteringStep::Kind::kSlice) {
      slice = &step;
      break;
    }
    std::vector<Values> choices;
    for (const CqlTerm& term : step.values) {
      Values values;
      CELLFS_RETURN_IF_ERROR(TypeStepTerm(table, step, term, step.column_count, &values));
      choices.push_back(std::move(values));
    }
    SortClustering(table, step.first, &choices);
    std::vector<Values> next;
    for (const Values& prefix : prefixes) {
      for (const Values& choice : choices) {
        Values joined = prefix;
        joined.insert(joined.end(), choice.begin(), choice.end());
        next.push_back(std::move(joined));
      }
    }
    prefixes = std::move(next);
  }
  query->clustering_restricted = !plan.clustering.empty();
  query->slices.clear();
  for (const Values& prefix : prefixes) {
    SliceSpec spec;
    spec.reverse = plan.reversed;
    if (!prefix.empty()) {
      spec.lower = ClusteringBound{prefix, true};
      spec.upper = ClusteringBound{prefix, true};
    }
    if (slice != nullptr) {
      for (const auto* bound : {&slice->start, &slice->end}) {
        if (!*bound) continue;
        Values values;
        CELLFS_RETURN_IF_ERROR(
            TypeStepTerm(table, *slice, (*bound)->value, (*bound)->column_count, &values));
        ClusteringBound narrowed{prefix, (*bound)->inclusive};
        narrowed.prefix.insert(narrowed.prefix.end(), values.begin(), values.end());
        const bool lower = bound == &slice->start;
        (lower ? spec.lower : spec.upper) = std::move(narrowed);
      }
    }
    query->slices.push_back(std::move(spec));
  }
  if (plan.reversed) std::reverse(query->slices.begin(), query->slices.end());
  return Status::Ok();
}

Status BuildKeys(const TableSchema& table, const SelectPlan& plan, SelectQuery* query) {
  std::vector<std::pair<std::string, Values>> keyed;
  for (const std::vector<CqlTerm>& terms : plan.partition_keys) {
    Values key(terms.size());
    std::string encoded;
    for (size_t i = 0; i < terms.size(); ++i) {
      CELLFS_RETURN_IF_ERROR(TypeValue(table, i, terms[i], &key[i]));
      EncodeKeyComponent(*table.column(i).type, key[i], SortOrder::kAsc, &encoded);
    }
    keyed.emplace_back(std::move(encoded), std::move(key));
  }
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  keyed.erase(std::unique(keyed.begin(), keyed.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              keyed.end());
  for (auto& [encoded, key] : keyed) query->keys.push_back(std::move(key));
  return Status::Ok();
}

// The argument list of `text` when it is a call of token(...), spaces
// allowed before the parenthesis: "(a, b)"; empty otherwise.
std::string_view TokenArguments(std::string_view text) {
  constexpr std::string_view kName = "token";
  if (text.size() < kName.size()) return {};
  for (size_t i = 0; i < kName.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != kName[i]) return {};
  }
  const size_t open = text.find_first_not_of(" \t\r\n", kName.size());
  if (open == std::string_view::npos || text[open] != '(') return {};
  return text.substr(open);
}

// The comma-separated terms of `list` ("(a, 'b,c', [1, 2])"), each with
// its position: `list` starts `prefix` bytes after `start`. Commas inside
// strings ('...' with '', $$...$$), quoted names and brackets do not split.
Status SplitArguments(std::string_view list, SourcePosition start, size_t prefix,
                      std::vector<CqlTerm>* out) {
  auto at = [&](size_t offset) {
    SourcePosition position = start;
    position.column += static_cast<int>(prefix + offset);
    position.offset += prefix + offset;
    return position;
  };
  int depth = 0;
  size_t item = 1;
  for (size_t i = 0; i < list.size(); ++i) {
    const char c = list[i];
    if (c == '\'' || c == '"') {
      const size_t close = list.find(c, i + 1);
      if (close == std::string_view::npos) break;
      i = close;  // '' and "" escapes read as two strings side by side
    } else if (c == '$' && list.substr(i, 2) == "$$") {
      const size_t close = list.find("$$", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    }
    if ((c == ',' && depth == 1) || (c == ')' && depth == 0)) {
      std::string_view text = list.substr(item, i - item);
      const size_t first = text.find_first_not_of(" \t\r\n");
      const size_t last = text.find_last_not_of(" \t\r\n");
      if (first == std::string_view::npos) {
        if (c == ')' && out->empty()) return Status::Ok();  // token()
        return ErrorAt(at(i), "expected a value");
      }
      out->push_back({std::string(text.substr(first, last - first + 1)), at(item + first)});
      item = i + 1;
      if (c == ')') return Status::Ok();
    }
  }
  return ErrorAt(at(list.size()), "expected ')'");
}

// A token bound: a bigint, or token(v1, ...) of partition key values, whose
// token it stands for (Cassandra's token function on constants).
Status TypeToken(const TableSchema& table, const TermBound& bound, std::optional<int64_t>* token,
                 bool* inclusive) {
  *inclusive = bound.inclusive;
  if (std::string_view arguments = TokenArguments(bound.value.text); !arguments.empty()) {
    const size_t prefix = bound.value.text.size() - arguments.size();
    std::vector<CqlTerm> args;
    CELLFS_RETURN_IF_ERROR(SplitArguments(arguments, bound.value.position, prefix, &args));
    const size_t count = table.partition_key_count();
    if (args.size() != count) {
      return ErrorAt(
          bound.value.position,
          "Invalid number of arguments in call to function system.token: " + std::to_string(count) +
              " required but " + std::to_string(args.size()) + " provided");
    }
    Values key(count);
    for (size_t i = 0; i < count; ++i) {
      const ColumnDef& column = table.column(i);
      bool is_null = false;
      if (!ParseValueTerm(*column.type, args[i], column.name, &key[i], &is_null).ok()) {
        return ErrorAt(args[i].position, "Type error: " + args[i].text +
                                             " cannot be passed as argument " + std::to_string(i) +
                                             " of function system.token of type " +
                                             column.type->ToCql());
      }
      if (is_null) {
        return ErrorAt(args[i].position,
                       "Invalid null value for partition key part " + QuoteIdentifier(column.name));
      }
    }
    *token = ComputeToken(SerializePartitionKey(key));
    return Status::Ok();
  }
  std::string value;
  bool is_null = false;
  CELLFS_RETURN_IF_ERROR(ParseValueTerm(*CqlType::Native(TypeKind::kBigint), bound.value,
                                        "partition key token", &value, &is_null));
  if (is_null || value.size() != 8) {
    return ErrorAt(bound.value.position, "Invalid null value for partition key token");
  }
  uint64_t bits = 0;
  for (char c : value) bits = (bits << 8) | static_cast<unsigned char>(c);
  *token = static_cast<int64_t>(bits);
  return Status::Ok();
}

Status BuildFilter(const TableSchema& table, const RowFilter& filter, TypedFilter* out) {
  if (filter.op == SelectRelation::Op::kLike) return BuildLikeFilter(table, filter, out);
  out->columns = filter.columns;
  out->op = filter.op;
  using Op = SelectRelation::Op;
  const std::string& name = table.column(filter.columns[0]).name;
  if (filter.map_key) {
    // The receivers Cassandra names key(m) and value(m).
    const CqlType& type = *table.column(filter.columns[0]).type;
    std::string key, value;
    bool key_null = false, value_null = false;
    // Both are typed when Cassandra prepares; nulls are found at execution.
    CELLFS_RETURN_IF_ERROR(
        ParseValueTerm(*type.params()[0], *filter.map_key, "key(" + name + ")", &key, &key_null));
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(*type.params()[1], filter.value, "value(" + name + ")",
                                          &value, &value_null));
    if (key_null) {
      return ErrorAt(filter.map_key->position, "Unsupported null map key for column " + name);
    }
    if (value_null) {
      return ErrorAt(filter.value.position, "Unsupported null map value for column " + name);
    }
    out->map_entry = true;
    out->values = {std::move(key), std::move(value)};
    return Status::Ok();
  }
  if (filter.op == Op::kContains || filter.op == Op::kContainsKey) {
    const CqlType& type = *table.column(filter.columns[0]).type;
    const bool is_map = type.kind() == TypeKind::kMap;
    out->compared_type =
        filter.op == Op::kContainsKey || !is_map ? type.params()[0] : type.params()[1];
    std::string value;
    bool is_null = false;
    // The receiver Cassandra names key(m) for CONTAINS KEY, else value(c).
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(
        *out->compared_type, filter.value,
        (filter.op == Op::kContainsKey ? "key(" : "value(") + name + ")", &value, &is_null));
    if (is_null) {
      return ErrorAt(filter.value.position,
                     "Unsupported null value for column " +
                         QuoteIdentifier(table.column(filter.columns[0]).name));
    }
    out->values.push_back(std::move(value));
    return Status::Ok();
  }
  const std::vector<CqlTerm> single{filter.value};
  const std::vector<CqlTerm>& terms = filter.op == Op::kIn ? filter.in_list : single;
  for (const CqlTerm& term : terms) {
    if (filter.multi_column) {
      Values values;
      CELLFS_RETURN_IF_ERROR(TypeTuple(table, filter.columns, term, &values));
      out->values.insert(out->values.end(), values.begin(), values.end());
    } else {
      std::string value;
      CELLFS_RETURN_IF_ERROR(TypeValue(table, filter.columns[0], term, &value));
      out->values.push_back(std::move(value));
    }
  }
  if (filter.op == Op::kEq && !filter.multi_column) AnalyzeEquality(table, out);
  return Status::Ok();
}

Status NotRunYet(const std::string& what) {
  return Status::NotSupported(what + " in a selection is not supported by cellfs yet");
}

Status BuildOutput(const TableSchema& table, const ResolvedSelector& selector, OutputColumn* out);

// count(c), min, max, sum or avg of its built argument (out->args[0]).
Status BuildAggregate(const std::string& name, const std::vector<TypePtr>& arg_types,
                      const std::vector<std::string>& arg_names, OutputColumn* out) {
  if (std::any_of(out->args.begin(), out->args.end(), HasAggregate)) {
    return Status::InvalidArgument(
        "aggregate functions cannot be used as arguments of aggregate functions");
  }
  CELLFS_RETURN_IF_ERROR(ResolveAggregate(name, arg_types, &out->aggregate));
  out->source = OutputColumn::Source::kAggregate;
  out->type = out->aggregate.result;
  out->name = out->aggregate.name + "(" + arg_names[0] + ")";
  return Status::Ok();
}

// A function call or CAST: its arguments built, the function resolved on
// their types, constant arguments typed as its parameters.
Status BuildFunction(const TableSchema& table, const ResolvedSelector& selector,
                     OutputColumn* out) {
  using Kind = Selector::Kind;
  std::vector<TypePtr> arg_types;
  std::vector<std::string> arg_names;
  for (const ResolvedSelector& arg : selector.args) {
    OutputColumn& built = out->args.emplace_back();
    if (arg.kind == Kind::kTerm) {
      built.source = OutputColumn::Source::kConstant;
      built.name = arg.term.text;
      arg_types.push_back(nullptr);
    } else {
      ResolvedSelector unaliased = arg;
      unaliased.alias.clear();
      CELLFS_RETURN_IF_ERROR(BuildOutput(table, unaliased, &built));
      arg_types.push_back(built.type);
    }
    arg_names.push_back(built.name);
  }
  if (selector.kind == Kind::kFunction && IsAggregateName(selector.name)) {
    return BuildAggregate(selector.name, arg_types, arg_names, out);
  }
  out->source = OutputColumn::Source::kFunction;
  if (selector.kind == Kind::kCast) {
    if (arg_types.size() != 1 || !arg_types[0]) return NotRunYet("CAST of a constant");
    CELLFS_RETURN_IF_ERROR(ResolveCast(arg_types[0], selector.name, arg_names[0], &out->function));
    out->name = "cast(" + arg_names[0] + " as " + selector.name + ")";
  } else {
    std::vector<TypePtr> constant_types;
    CELLFS_RETURN_IF_ERROR(
        ResolveFunction(selector.name, arg_types, arg_names, &out->function, &constant_types));
    for (size_t i = 0; i < out->args.size(); ++i) {
      if (out->args[i].source != OutputColumn::Source::kConstant) continue;
      const ResolvedSelector& arg = selector.args[i];
      std::string value;
      bool is_null = false;
      CELLFS_RETURN_IF_ERROR(
          ParseValueTerm(*constant_types[i], arg.term, arg_names[i], &value, &is_null));
      out->args[i].type = constant_types[i];
      if (!is_null) out->args[i].constant = std::move(value);
    }
    out->name = out->function.name + "(";
    for (size_t i = 0; i < arg_names.size(); ++i) out->name += (i > 0 ? ", " : "") + arg_names[i];
    out->name += ")";
  }
  out->type = out->function.result;
  return Status::Ok();
}

Status BuildOutput(const TableSchema& table, const ResolvedSelector& selector, OutputColumn* out) {
  using Kind = Selector::Kind;
  using Source = OutputColumn::Source;
  switch (selector.kind) {
    case Kind::kColumn:
      out->source = Source::kColumn;
      out->column = static_cast<size_t>(selector.column);
      out->name = table.column(out->column).name;
      out->type = table.column(out->column).type;
      break;
    case Kind::kWriteTime:
    case Kind::kTtl: {
      const bool writetime = selector.kind == Kind::kWriteTime;
      out->source = writetime ? Source::kWriteTime : Source::kTtl;
      out->column = static_cast<size_t>(selector.column);
      out->name =
          std::string(writetime ? "writetime(" : "ttl(") + table.column(out->column).name + ")";
      out->type = CqlType::Native(writetime ? TypeKind::kBigint : TypeKind::kInt);
      break;
    }
    case Kind::kToken: {
      out->source = Source::kToken;
      out->name = "system.token(";
      for (size_t i = 0; i < table.partition_key_count(); ++i) {
        out->name += (i > 0 ? ", " : "") + table.column(i).name;
      }
      out->name += ")";
      out->type = CqlType::Native(TypeKind::kBigint);
      break;
    }
    case Kind::kCountRows:
      out->source = Source::kCount;
      out->name = "count";
      out->type = CqlType::Native(TypeKind::kBigint);
      break;
    case Kind::kCast:
    case Kind::kFunction:
      CELLFS_RETURN_IF_ERROR(BuildFunction(table, selector, out));
      break;
    case Kind::kTerm:
      // Cassandra 4.x types no literal on its own (Selectable.WithTerm).
      return Status::InvalidArgument("Cannot infer type for term " + selector.term.text +
                                     " in selection clause (try using a cast to force a type)");
  }
  if (!selector.alias.empty()) out->name = selector.alias;
  return Status::Ok();
}

}  // namespace

bool HasAggregate(const OutputColumn& column) {
  using Source = OutputColumn::Source;
  if (column.source == Source::kCount || column.source == Source::kAggregate) return true;
  return std::any_of(column.args.begin(), column.args.end(), HasAggregate);
}

Status BuildSelectQuery(const TableHandle& table, const SelectPlan& plan, SelectQuery* query) {
  const TableSchema& t = *table;
  *query = SelectQuery();
  query->table = table;
  query->partitions = plan.partitions;
  if (plan.partitions == SelectPlan::Partitions::kKeys) {
    CELLFS_RETURN_IF_ERROR(BuildKeys(t, plan, query));
  }
  if (plan.token_start) {
    CELLFS_RETURN_IF_ERROR(
        TypeToken(t, *plan.token_start, &query->token_lower, &query->token_lower_inclusive));
  }
  if (plan.token_end) {
    CELLFS_RETURN_IF_ERROR(
        TypeToken(t, *plan.token_end, &query->token_upper, &query->token_upper_inclusive));
  }
  CELLFS_RETURN_IF_ERROR(BuildSlices(t, plan, query));
  for (const RowFilter& filter : plan.filters) {
    TypedFilter typed;
    CELLFS_RETURN_IF_ERROR(BuildFilter(t, filter, &typed));
    query->filters.push_back(std::move(typed));
  }
  if (plan.index && plan.index->slice) {
    // A SASI or SAI slice: the filters' bounds on the column, intersected.
    using Op = SelectRelation::Op;
    const std::string& column = t.def.indexes[plan.index->index].column;
    IndexBounds bounds;
    for (const TypedFilter& filter : query->filters) {
      if (filter.columns.size() != 1 || t.column(filter.columns[0]).name != column ||
          filter.values.size() != 1 ||
          (filter.op != Op::kGt && filter.op != Op::kGe && filter.op != Op::kLt &&
           filter.op != Op::kLe)) {
        continue;
      }
      NarrowIndexBounds(*t.column(filter.columns[0]).type,
                        filter.op == Op::kGt || filter.op == Op::kGe,
                        filter.op == Op::kGe || filter.op == Op::kLe, filter.values[0], &bounds);
    }
    query->index = plan.index->index;
    query->index_bounds = std::move(bounds);
  } else if (plan.index) {
    // The indexed restriction is among the filters, typed: its value (a
    // LIKE's term, a map entry) is the lookup's.
    using Op = SelectRelation::Op;
    const IndexDef& index = t.def.indexes[plan.index->index];
    auto answered = [&](const TypedFilter& filter) {
      if (filter.columns.size() != 1 || t.column(filter.columns[0]).name != index.column) {
        return false;
      }
      switch (index.target) {
        case IndexTargetKind::kValues:
          return filter.op == Op::kContains;
        case IndexTargetKind::kKeys:
          return filter.op == Op::kContainsKey;
        case IndexTargetKind::kEntries:
          return filter.map_entry;
        default:
          return !filter.map_entry && filter.op == (plan.index->like ? Op::kLike : Op::kEq);
      }
    };
    for (const TypedFilter& filter : query->filters) {
      if (!answered(filter)) continue;
      query->index = plan.index->index;
      if (filter.map_entry) {
        // An ENTRIES index's value: a map of the one entry.
        query->index_bounds = IndexBounds::Equal(PackCollection(filter.values, 2));
      } else if (plan.index->like || filter.analyzer) {
        query->index_bounds = TextIndexBounds(filter, *t.column(filter.columns[0]).type);
      } else {
        query->index_bounds = IndexBounds::Equal(filter.values[0]);
      }
      break;
    }
  }
  if (plan.limit) query->limit = static_cast<uint64_t>(*plan.limit);
  if (plan.per_partition_limit) {
    query->per_partition_limit = static_cast<uint64_t>(*plan.per_partition_limit);
  }
  query->distinct = plan.distinct;
  query->json = plan.json;
  if (plan.wildcard) {
    // SELECT *: every column in Cassandra's select order (row_json.h).
    for (size_t i : SelectStarOrder(t)) {
      OutputColumn& column = query->outputs.emplace_back();
      column.column = i;
      column.name = t.column(i).name;
      column.type = t.column(i).type;
    }
    return Status::Ok();
  }
  for (const ResolvedSelector& selector : plan.selectors) {
    OutputColumn column;
    CELLFS_RETURN_IF_ERROR(BuildOutput(t, selector, &column));
    query->outputs.push_back(std::move(column));
  }
  query->aggregate = std::any_of(query->outputs.begin(), query->outputs.end(), HasAggregate);
  return Status::Ok();
}

}  // namespace cellfs::fs
