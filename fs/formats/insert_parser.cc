// InsertParser (fs/formats/insert_parser.h): picks the input format from the first
// non-blank byte and hands the bytes to its reader (fs/formats/insert_json.cc,
// fs/formats/insert_csv.cc); RowBuilder, the record both formats build.
#include "fs/formats/insert_parser.h"

#include <algorithm>
#include <utility>

#include "fs/formats/insert_parser_internal.h"
#include "fs/formats/key_name.h"

namespace cellfs::fs {
namespace insert_internal {

std::string Quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

RowBuilder::RowBuilder(TableHandle table, const WriteAttributes& defaults)
    : table_(std::move(table)),
      defaults_{defaults.timestamp, defaults.ttl},
      given_in_(table_->def.columns.size() + 2) {
  for (size_t i = 0; i < table_->def.columns.size(); ++i) {
    by_name_.emplace(table_->def.columns[i].name, i);
  }
  row_.partition_key.resize(table_->partition_key_count());
  row_.clustering.resize(table_->clustering_count());
  for (size_t i = 0; i < table_->partition_key_count() + table_->clustering_count(); ++i) {
    const ColumnDef& column = table_->column(i);
    (column.kind == ColumnKind::kPartitionKey ? partition_types_ : clustering_types_)
        .push_back(column.type.get());
  }
  partition_name_fits_ = KeyNameAlwaysFits(partition_types_);
  clustering_name_fits_ = KeyNameAlwaysFits(clustering_types_);
}

size_t RowBuilder::Find(std::string_view name) const {
  if (name == "@ttl") return kTtlTarget;
  if (name == "@timestamp") return kTimestampTarget;
  auto found = by_name_.find(name);
  if (found != by_name_.end()) return found->second;
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    found = by_name_.find(name.substr(1, name.size() - 2));
    if (found != by_name_.end()) return found->second;
  }
  return kUnknownTarget;
}

void RowBuilder::Begin() {
  if (++record_ == 0) {  // wrapped: forget every old mark
    std::fill(given_in_.begin(), given_in_.end(), 0);
    record_ = 1;
  }
  // A sink that moved the row away left its vectors empty.
  row_.partition_key.resize(table_->partition_key_count());
  row_.clustering.resize(table_->clustering_count());
  row_.attributes = defaults_;
  cells_ = 0;
}

Status RowBuilder::Claim(size_t target, std::string_view name) {
  const size_t columns = table_->def.columns.size();
  const size_t slot = target == kTtlTarget         ? columns
                      : target == kTimestampTarget ? columns + 1
                                                   : target;
  if (given_in_[slot] == record_) {
    return Status::InvalidArgument((slot < columns ? "column " : "") + Quoted(name) +
                                   " given twice");
  }
  given_in_[slot] = record_;
  return Status::Ok();
}

std::string* RowBuilder::Value(size_t column) {
  const ColumnDef& def = table_->column(column);
  const auto position = static_cast<size_t>(def.position);
  if (def.kind == ColumnKind::kPartitionKey) return &row_.partition_key[position];
  if (def.kind == ColumnKind::kClustering) return &row_.clustering[position];
  if (cells_ == row_.cells.size()) row_.cells.emplace_back();
  ColumnValue& cell = row_.cells[cells_++];
  cell.column = column;
  if (!cell.value) cell.value.emplace();
  return &*cell.value;
}

Status RowBuilder::Null(size_t column) {
  const ColumnDef& def = table_->column(column);
  if (def.is_primary_key()) {
    return Status::InvalidArgument("key column " + Quoted(def.name) + " cannot be null");
  }
  if (def.type->kind() == TypeKind::kCounter) {
    return Status::InvalidArgument("counter column " + Quoted(def.name) + " cannot be null");
  }
  if (cells_ == row_.cells.size()) row_.cells.emplace_back();
  ColumnValue& cell = row_.cells[cells_++];
  cell.column = column;
  cell.value.reset();
  return Status::Ok();
}

Status RowBuilder::CheckKeys() {
  const size_t partition_keys = table_->partition_key_count();
  const size_t keys = partition_keys + table_->clustering_count();
  static_only_ = false;
  size_t missing = keys;
  bool clustering_given = false;
  for (size_t i = 0; i < keys; ++i) {
    const bool given = given_in_[i] == record_;
    if (!given && missing == keys) missing = i;
    clustering_given = clustering_given || (given && i >= partition_keys);
  }
  if (missing == keys) return Status::Ok();
  if (missing >= partition_keys && !clustering_given) {
    // INSERT INTO t (pk, s) VALUES (…): the static row alone.
    bool statics = false;
    bool regulars = false;
    for (size_t i = keys; i < table_->def.columns.size(); ++i) {
      if (given_in_[i] != record_) continue;
      (table_->column(i).kind == ColumnKind::kStatic ? statics : regulars) = true;
    }
    static_only_ = statics && !regulars;
    if (static_only_) return Status::Ok();
  }
  return Status::InvalidArgument("missing key column " + Quoted(table_->column(missing).name));
}

Status RowBuilder::CheckKeyNames() const {
  if (!partition_name_fits_) {
    Result<std::string> name = FormatKeyName(partition_types_, row_.partition_key);
    if (!name.ok()) return name.status().WithContext("partition key");
  }
  if (clustering_types_.empty() || static_only_ || clustering_name_fits_) return Status::Ok();
  Result<std::string> name = FormatKeyName(clustering_types_, row_.clustering);
  return name.ok() ? Status::Ok() : name.status().WithContext("row key");
}

void RowBuilder::Emit(uint64_t line, const Sink& sink) {
  if (Status names = CheckKeyNames(); !names.ok()) return sink(line, std::move(names));
  // Counters are added to (cqlsh COPY FROM): Cassandra refuses a TTL or a
  // timestamp on a counter update, whether the record or the file gave it.
  if (table_->def.has_counters() && !row_.attributes.empty()) {
    return sink(line, Status::InvalidArgument(row_.attributes.ttl
                                                  ? "Cannot provide custom TTL for counter updates"
                                                  : "Cannot provide custom timestamp for counter "
                                                    "updates"));
  }
  row_.cells.resize(cells_);
  row_.static_only = static_only_;
  if (static_only_) row_.clustering.clear();  // Begin sizes it again
  Result<InsertRow> result(std::move(row_));
  sink(line, std::move(result));
  if (result.ok()) row_ = std::move(result).value();
}

}  // namespace insert_internal

struct InsertParser::State {
  State(TableHandle table, const WriteAttributes& defaults, size_t max_line)
      : builder(std::move(table), defaults), max_line_bytes(max_line) {}

  insert_internal::RowBuilder builder;
  std::unique_ptr<insert_internal::RecordReader> reader;  // null until the format is known
  bool csv = false;
  uint64_t line = 1;   // of the next byte
  std::string blanks;  // the current line's blank bytes while the format is unknown
  const size_t max_line_bytes;
  size_t line_bytes = 0;  // of the current line, fed so far
  bool skipping = false;  // inside a refused long line, until its '\n'
  // A CSV input's header line as fed, replayed to a fresh reader after a
  // long line; complete once it ends with '\n'.
  std::string csv_header;
  uint64_t header_line = 0;  // CSV: the header's line
};

InsertParser::InsertParser(TableHandle table, const WriteAttributes& defaults,
                           size_t max_line_bytes)
    : state_(std::make_unique<State>(std::move(table), defaults, max_line_bytes)) {}

InsertParser::~InsertParser() = default;

void InsertParser::Feed(std::string_view bytes, const Sink& sink) {
  State& s = *state_;
  if (s.skipping) {
    const size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos) return;
    bytes.remove_prefix(newline + 1);
    s.skipping = false;
    ++s.line;
    s.line_bytes = 0;
  }
  if (!s.reader) {
    size_t i = 0;
    for (; i < bytes.size(); ++i) {
      const char c = bytes[i];
      if (c == '\n') {
        ++s.line;
        s.blanks.clear();
      } else if (c == ' ' || c == '\t' || c == '\r') {
        s.blanks += c;
        if (s.blanks.size() > s.max_line_bytes) {
          s.blanks.clear();
          RefuseLongLine(sink);
          return Feed(bytes.substr(i + 1), sink);
        }
      } else {
        break;
      }
    }
    if (i == bytes.size()) return;
    s.csv = bytes[i] != '{';
    s.header_line = s.line;
    s.reader = s.csv ? insert_internal::NewCsvReader(&s.builder, s.line)
                     : insert_internal::NewJsonLinesReader(&s.builder, s.line);
    bytes.remove_prefix(i);
    // The line's leading blanks belong to its first record (a CSV field keeps them).
    s.line_bytes = s.blanks.size();
    if (!s.blanks.empty()) {
      if (s.csv) s.csv_header = s.blanks;
      s.reader->Feed(std::exchange(s.blanks, std::string()), sink);
    }
  }
  FeedLines(bytes, sink);
}

void InsertParser::FeedLines(std::string_view bytes, const Sink& sink) {
  State& s = *state_;
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t newline = bytes.find('\n', pos);
    const size_t end = newline == std::string_view::npos ? bytes.size() : newline;
    if (s.line_bytes + (end - pos) > s.max_line_bytes) {
      s.reader->Feed(bytes.substr(0, pos), sink);  // the lines before it
      RefuseLongLine(sink);
      return Feed(bytes.substr(end), sink);  // skips to after its '\n'
    }
    const size_t next = newline == std::string_view::npos ? bytes.size() : newline + 1;
    if (s.csv && s.line == s.header_line) s.csv_header.append(bytes.substr(pos, next - pos));
    if (newline == std::string_view::npos) {
      s.line_bytes += end - pos;
      break;
    }
    ++s.line;
    s.line_bytes = 0;
    pos = next;
  }
  s.reader->Feed(bytes, sink);
}

void InsertParser::Finish(const Sink& sink) {
  State& s = *state_;
  if (!s.reader) return;
  s.reader->Finish(sink);
  // The JSON reader counted the unfinished line it just ended as a line.
  if (!s.csv && s.line_bytes != 0) {
    ++s.line;
    s.line_bytes = 0;
  }
}

void InsertParser::RefuseLongLine(const Sink& sink) {
  State& s = *state_;
  sink(s.line,
       Status::InvalidArgument("longer than " + std::to_string(s.max_line_bytes) + " bytes"));
  s.skipping = true;
  s.line_bytes = 0;
  if (!s.reader) return;
  // A fresh reader drops the partial record and its bytes; for CSV it is
  // given the header again (quietly: its verdict was reported already).
  const uint64_t next_line = s.line + 1;
  if (!s.csv) {
    s.reader = insert_internal::NewJsonLinesReader(&s.builder, next_line);
    return;
  }
  if (s.line == s.header_line) {  // the header itself: the next line is one
    s.header_line = next_line;
    s.csv_header.clear();
  }
  const bool replay = !s.csv_header.empty();
  s.reader = insert_internal::NewCsvReader(&s.builder, replay ? next_line - 1 : next_line);
  if (replay) s.reader->Feed(s.csv_header, [](uint64_t, Result<InsertRow>&&) {});
}

}  // namespace cellfs::fs
