// Query segments parsed into a RowQuery, and a directory's RowSource
// (fs/tree/query_path.h).
#include "fs/tree/query_path.h"

#include <algorithm>

#include "fs/formats/indexed_partitions.h"
#include "fs/formats/key_name.h"
#include "fs/tree/slice_path.h"
#include "fs/tree/virtual_name.h"

namespace cellfs::fs {
namespace {

constexpr std::string_view kColumnsPrefix = "@columns=";

Status FindColumnIndex(const TableSchema& table, std::string_view name, size_t* index) {
  const ColumnDef* column = table.def.FindColumn(std::string(name));
  if (column == nullptr) {
    return Status::InvalidArgument("Undefined column name " + std::string(name) + " in table " +
                                   table.def.keyspace + "." + table.def.name);
  }
  *index = static_cast<size_t>(column - table.def.columns.data());
  return Status::Ok();
}

Status ParseTerm(const TableSchema& table, std::string_view term, RowQuery::Equals* out) {
  const size_t eq = term.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Status::InvalidArgument("'" + std::string(term) +
                                   "': a filter is column=value, e.g. country=US");
  }
  if (Status s = FindColumnIndex(table, term.substr(0, eq), &out->column); !s.ok()) return s;
  const CqlType& type = *table.column(out->column).type;
  if (type.is_multi_cell()) {
    return Status::InvalidArgument("'" + std::string(term) +
                                   "': a non-frozen collection or UDT column cannot be filtered "
                                   "by equality");
  }
  const CqlType* types[] = {&type};
  std::vector<std::string> values;
  Status s = ParseKeyPrefix(types, term.substr(eq + 1), &values);
  if (!s.ok()) return s.WithContext(std::string(term));
  if (values.size() != 1) return Status::InvalidArgument("'" + std::string(term) + "': no value");
  out->value = std::move(values[0]);
  return Status::Ok();
}

Status ParseColumns(const TableSchema& table, std::string_view text, std::vector<size_t>* out) {
  out->clear();
  while (true) {
    const size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    if (name.empty()) return Status::InvalidArgument("@columns=: an empty column name");
    size_t index = 0;
    if (Status s = FindColumnIndex(table, name, &index); !s.ok()) return s;
    out->push_back(index);
    if (comma == std::string_view::npos) return Status::Ok();
    text.remove_prefix(comma + 1);
  }
}

// Whether `segment` is a slice bound (@ge=V, @gt=V, @le=V, @lt=V); its
// parts in `*out`.
bool IsBound(const std::string& segment, VirtualName* out) {
  return ParseVirtualName(segment, out).ok() && out->kind == VirtualName::Kind::kSliceBound;
}

// The bound `parsed` of column `column`, its value parsed as the column's.
Status ParseBound(const TableSchema& table, size_t column, const std::string& segment,
                  const VirtualName& parsed, RowQuery::Bound* out) {
  using Op = RowQuery::Bound::Op;
  const CqlType& type = *table.column(column).type;
  if (type.kind() == TypeKind::kDuration) {
    return Status::InvalidArgument("Slice restrictions are not supported on duration columns");
  }
  RowQuery::Equals value;
  if (Status s = ParseTerm(table, table.column(column).name + "=" + parsed.bound_text, &value);
      !s.ok()) {
    return s.WithContext(segment);
  }
  out->column = column;
  out->op = parsed.lower_bound ? (parsed.inclusive ? Op::kGe : Op::kGt)
                               : (parsed.inclusive ? Op::kLe : Op::kLt);
  out->value = std::move(value.value);
  return Status::Ok();
}

// "@by", column[, value | bound...] at segments[at]: the index lookup, of
// one value or of a slice of values. `*used` receives how many segments it
// took.
Status ParseLookup(const TableSchema& table, std::span<const std::string> segments, size_t at,
                   RowQuery* out, size_t* used) {
  const std::string& name = segments[at + 1];
  *used = 2;
  size_t column = 0;
  if (Status s = FindColumnIndex(table, name, &column); !s.ok()) return s;
  std::optional<size_t> index = WholeValueIndex(table, column);
  if (!index) {
    return Status::InvalidArgument("@by/" + name + ": column " + name +
                                   " has no index (CREATE INDEX ON " + table.def.name + " (" +
                                   name + "); or scan with @where/" + name + "=value)");
  }
  if (!table.indexes[*index].built) {
    return Status::InvalidArgument("The secondary index '" + table.def.indexes[*index].name +
                                   "' is not yet available");
  }
  if (at + 2 == segments.size()) return Status::Ok();  // @by/<column>
  VirtualName parsed;
  if (!IsBound(segments[at + 2], &parsed)) {
    RowQuery::Equals filter;
    if (Status s = ParseTerm(table, name + "=" + segments[at + 2], &filter); !s.ok()) return s;
    out->index = index;
    out->index_bounds = IndexBounds::Equal(filter.value);
    out->filters.push_back(std::move(filter));
    *used = 3;
    return Status::Ok();
  }
  // @by/<column>/@ge=V/@lt=W/...: the index's values in the slice.
  IndexBounds bounds;
  for (size_t i = at + 2; i < segments.size() && IsBound(segments[i], &parsed); ++i) {
    RowQuery::Bound bound;
    if (Status s = ParseBound(table, column, segments[i], parsed, &bound); !s.ok()) return s;
    using Op = RowQuery::Bound::Op;
    NarrowIndexBounds(*table.column(column).type, bound.op == Op::kGe || bound.op == Op::kGt,
                      bound.op == Op::kGe || bound.op == Op::kLe, bound.value, &bounds);
    out->bounds.push_back(std::move(bound));
    ++*used;
  }
  out->index = index;
  out->index_bounds = std::move(bounds);
  return Status::Ok();
}

}  // namespace

bool AwaitsFilterTerm(std::span<const std::string> segments) {
  if (segments.empty()) return false;
  const size_t n = segments.size();
  return segments[n - 1] == kWhereSegment || segments[n - 1] == kBySegment ||
         (n >= 2 && segments[n - 2] == kBySegment);
}

bool EndsInIndexColumnOrBound(std::span<const std::string> segments) {
  size_t n = segments.size();
  VirtualName parsed;
  while (n > 0 && IsBound(segments[n - 1], &parsed)) --n;
  return n >= 2 && segments[n - 2] == kBySegment;
}

bool HasProjection(std::span<const std::string> segments) {
  return std::any_of(segments.begin(), segments.end(),
                     [](const std::string& s) { return s.starts_with(kColumnsPrefix); });
}

Status BuildQuery(const TableSchema& table, std::span<const std::string> segments, RowQuery* out) {
  *out = RowQuery{};
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (segment == kWhereSegment) {
      if (i + 1 == segments.size()) break;  // the @where directory itself
      RowQuery::Equals filter;
      if (Status s = ParseTerm(table, segments[++i], &filter); !s.ok()) return s;
      if (!out->index) {
        // A built whole-value index on the column answers the filter.
        std::optional<size_t> index = WholeValueIndex(table, filter.column);
        if (index && table.indexes[*index].built) {
          out->index = index;
          out->index_bounds = IndexBounds::Equal(filter.value);
        }
      }
      out->filters.push_back(std::move(filter));
      continue;
    }
    if (segment == kBySegment) {
      if (i + 1 == segments.size()) break;  // @by
      size_t used = 0;
      if (Status s = ParseLookup(table, segments, i, out, &used); !s.ok()) return s;
      i += used - 1;
      continue;
    }
    VirtualName parsed;
    if (Status s = ParseVirtualName(segment, &parsed); !s.ok()) {
      return Status::InvalidArgument(s.message());
    }
    if (parsed.kind == VirtualName::Kind::kLimit) {
      out->limit = out->limit == 0 ? parsed.limit : std::min(out->limit, parsed.limit);
    } else if (parsed.kind == VirtualName::Kind::kColumns) {
      if (Status s = ParseColumns(table, parsed.columns_text, &out->columns); !s.ok()) {
        return s.WithContext(segment);
      }
    } else {
      return Status::InvalidArgument(segment + " is not a query directory");
    }
  }
  return Status::Ok();
}

Status RowSourceOf(const Node& dir, RowSource* out) {
  *out = RowSource{};
  out->table = dir.table;
  if (Status s = BuildQuery(*dir.table, dir.id.query, &out->query); !s.ok()) return s;
  if (dir.id.partition_key.empty()) return Status::Ok();
  out->partition_key = dir.id.partition_key;
  out->is_slice = !dir.id.slice.empty();
  if (!dir.clustered()) return Status::Ok();
  return BuildSlice(*dir.table, dir.id.slice, &out->slice);
}

}  // namespace cellfs::fs
