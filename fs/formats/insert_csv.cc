// The CSV reader of @insert (fs/formats/insert_parser.h): libcsv in strict mode,
// fed one line at a time so that each record knows the line it starts on;
// the first record is the header, naming the column of each field.
#include <csv.h>
#include <simdjson.h>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "engine/cql/literal.h"
#include "fs/formats/insert_parser_internal.h"

namespace cellfs::fs::insert_internal {
namespace {

// Strict: a quote inside an unquoted field, or text after a closing quote,
// is an error rather than data. Unquoted empty fields arrive as null.
constexpr unsigned char kOptions = CSV_STRICT | CSV_EMPTY_IS_NULL;
constexpr size_t kMinBufferStep = 4096;

// No byte is a space: cqlsh keeps a field's blanks, and so do we.
int NoSpace(unsigned char) { return 0; }

Status StoreLiteral(const CqlType& type, std::string_view text, std::string* out) {
  if (type.kind() == TypeKind::kText && simdjson::validate_utf8(text.data(), text.size())) {
    out->assign(text);
    return Status::Ok();
  }
  Result<std::string> parsed = ParseLiteral(type, text);
  if (!parsed.ok()) return parsed.status();
  *out = std::move(parsed).value();
  return Status::Ok();
}

class CsvReader final : public RecordReader {
  static constexpr int kRowNotBegun = 0;  // libcsv's parser state between records

 public:
  CsvReader(RowBuilder* builder, uint64_t first_line) : builder_(builder), line_(first_line) {
    csv_init(&parser_, kOptions);
    csv_set_space_func(&parser_, NoSpace);
  }
  ~CsvReader() override { csv_free(&parser_); }
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  void Feed(std::string_view bytes, const Sink& sink) override {
    sink_ = &sink;
    while (!bytes.empty()) {
      const size_t newline = bytes.find('\n');
      const size_t size = newline == std::string_view::npos ? bytes.size() : newline + 1;
      FeedLine(bytes.substr(0, size));
      if (newline != std::string_view::npos) ++line_;
      bytes.remove_prefix(size);
    }
  }

  void Finish(const Sink& sink) override {
    sink_ = &sink;
    if (skipping_) return;
    csv_set_opts(&parser_, kOptions | CSV_STRICT_FINI);
    const bool unclosed = csv_fini(&parser_, OnField, OnRecordEnd, this) != 0;
    csv_set_opts(&parser_, kOptions);
    if (unclosed) {
      Refuse("a quoted field is not closed at the end of the input");
      // A refused csv_fini leaves libcsv inside the quoted field: without
      // this, the next fsync would refuse the same record again and the
      // next line would continue it.
      csv_fini(&parser_, nullptr, nullptr, nullptr);
    }
    Rethrow();
  }

 private:
  struct Field {
    size_t offset = 0;  // in field_bytes_
    size_t size = 0;
    bool null = false;
  };

  // libcsv's callbacks: C code cannot unwind, so exceptions wait for Rethrow.
  static void OnField(void* data, size_t size, void* self) {
    static_cast<CsvReader*>(self)->Guard([&](CsvReader* r) {
      // A record that starts on the line where a lone '\r' ended the last
      // one: OnRecordEnd left record_line_ at that line.
      if (!r->in_record_) r->in_record_ = true;
      r->fields_.push_back({r->field_bytes_.size(), size, data == nullptr});
      if (data != nullptr) r->field_bytes_.append(static_cast<const char*>(data), size);
    });
  }
  static void OnRecordEnd(int, void* self) {
    static_cast<CsvReader*>(self)->Guard([](CsvReader* r) {
      r->EndRecord();
      // Where a record that begins before the next '\n' starts (FeedLine
      // starts the ones that begin a line itself).
      r->record_line_ = r->line_;
    });
  }
  static void StartRecord(CsvReader* r) {
    r->in_record_ = true;
    r->record_line_ = r->line_;
  }
  template <typename F>
  void Guard(F f) {
    if (exception_) return;
    try {
      f(this);
    } catch (...) {
      exception_ = std::current_exception();
    }
  }
  void Rethrow() {
    if (exception_) std::rethrow_exception(std::exchange(exception_, nullptr));
  }

  // Bytes of one line, through its '\n' when it has one.
  void FeedLine(std::string_view part) {
    const bool ends_line = part.back() == '\n';
    if (skipping_) {
      skipping_ = !ends_line;
      return;
    }
    // A record starts here only when libcsv is between records: after a lone
    // '\r', the next record may have begun (inside a quoted field) on the
    // line before, where OnRecordEnd left record_line_. libcsv's state is a
    // public member; 0 is its "row not begun" (libcsv.c, ROW_NOT_BEGUN).
    if (!in_record_ && parser_.pstate == kRowNotBegun &&
        part.find_first_not_of("\r\n") != std::string_view::npos) {
      StartRecord(this);
    }
    // libcsv grows its field buffer by a fixed step: make the steps geometric.
    csv_set_blk_size(&parser_,
                     std::max({kMinBufferStep, csv_get_buffer_size(&parser_), part.size()}));
    const size_t parsed = csv_parse(&parser_, part.data(), part.size(), OnField, OnRecordEnd, this);
    Rethrow();
    if (parsed == part.size()) return;
    const int error = csv_error(&parser_);
    Refuse(error == CSV_EPARSE ? "bad quoting on line " + std::to_string(line_) +
                                     ": a '\"' must open a field, close it before ',' or the "
                                     "end of the line, or be doubled inside it"
                               : std::string(csv_strerror(error)));
    csv_fini(&parser_, nullptr, nullptr, nullptr);  // back to the start of a record
    skipping_ = !ends_line;                         // the rest of the line goes with the record
  }

  // Refuses the record in progress; when it is the header, every later one too.
  void Refuse(const std::string& problem) {
    Status status = Status::InvalidArgument(problem);
    if (!header_read_) {
      header_read_ = true;
      header_status_ = status.WithContext("CSV header on line " + std::to_string(record_line_));
      status = header_status_;
    }
    (*sink_)(record_line_, std::move(status));
    in_record_ = false;
    fields_.clear();
    field_bytes_.clear();
  }

  void EndRecord() {
    in_record_ = false;
    const uint64_t line = record_line_;
    if (!header_read_) {
      header_read_ = true;
      header_status_ = ReadHeader();
      if (!header_status_.ok()) {
        header_status_ = header_status_.WithContext("CSV header on line " + std::to_string(line));
        (*sink_)(line, header_status_);
      }
    } else if (!header_status_.ok()) {
      (*sink_)(line, header_status_);
    } else if (!builder_->table_status().ok()) {
      (*sink_)(line, builder_->table_status());
    } else {
      builder_->Begin();
      Status status = ReadRecord();
      if (status.ok()) {
        builder_->Emit(line, *sink_);
      } else {
        (*sink_)(line, std::move(status));
      }
    }
    fields_.clear();
    field_bytes_.clear();
  }

  std::string_view Text(const Field& field) const {
    return std::string_view(field_bytes_).substr(field.offset, field.size);
  }

  Status ReadHeader() {
    builder_->Begin();
    header_.clear();
    for (const Field& field : fields_) {
      const std::string_view name = Text(field);
      const size_t target = builder_->Find(name);
      if (target == kUnknownTarget) {
        return Status::InvalidArgument("unknown column " + Quoted(name));
      }
      CELLFS_RETURN_IF_ERROR(builder_->Claim(target, name));
      header_.push_back(target);
    }
    return builder_->CheckKeys();
  }

  Status ReadRecord() {
    if (fields_.size() != header_.size()) {
      return Status::InvalidArgument(std::to_string(fields_.size()) + " fields, the header has " +
                                     std::to_string(header_.size()));
    }
    for (size_t i = 0; i < fields_.size(); ++i) {
      CELLFS_RETURN_IF_ERROR(ReadField(header_[i], fields_[i]));
    }
    return Status::Ok();
  }

  Status ReadField(size_t target, const Field& field) {
    if (target == kTtlTarget || target == kTimestampTarget) {
      const bool ttl = target == kTtlTarget;
      if (field.null) {  // no timestamp of its own: the default; no TTL is written 0
        return ttl ? Status::InvalidArgument("@ttl is empty (write 0 for no TTL)") : Status::Ok();
      }
      int64_t number = 0;
      Status status =
          ttl ? ParseTtlText(Text(field), &number) : ParseTimestampText(Text(field), &number);
      if (!status.ok()) return status.WithContext(ttl ? "@ttl" : "@timestamp");
      (ttl ? builder_->attributes().ttl : builder_->attributes().timestamp) = number;
      return Status::Ok();
    }
    if (field.null) return builder_->Null(target);
    const ColumnDef& column = builder_->table().column(target);
    Status status = StoreLiteral(*column.type, Text(field), builder_->Value(target));
    return status.ok() ? status : status.WithContext("column " + Quoted(column.name));
  }

  RowBuilder* builder_;
  csv_parser parser_;
  const Sink* sink_ = nullptr;  // the current Feed's or Finish's
  std::exception_ptr exception_;
  uint64_t line_;             // of the bytes being fed
  uint64_t record_line_ = 0;  // where the record in progress started
  bool in_record_ = false;
  bool skipping_ = false;  // dropping the rest of a line after a quoting error
  bool header_read_ = false;
  Status header_status_;
  std::vector<size_t> header_;  // per field: a column index, kTtlTarget or kTimestampTarget
  std::vector<Field> fields_;   // of the record in progress
  std::string field_bytes_;
};

}  // namespace

std::unique_ptr<RecordReader> NewCsvReader(RowBuilder* builder, uint64_t first_line) {
  return std::make_unique<CsvReader>(builder, first_line);
}

}  // namespace cellfs::fs::insert_internal
