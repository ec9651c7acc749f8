// The JSON Lines reader of @insert (fs/formats/insert_parser.h): each line read
// as one object by the JSON converter a row's @json write also uses
// (fs/formats/json_value.h), its members turned into the record's key, cells
// and attributes.
#include <cstdint>
#include <string>

#include "fs/formats/insert_parser_internal.h"
#include "fs/formats/json_value.h"
#include "fs/formats/write_suffixes.h"

namespace cellfs::fs::insert_internal {
namespace {

using json_internal::JsonError;
using json_internal::JsonTypeName;
using json_internal::od::json_type;

class JsonLinesReader final : public RecordReader {
 public:
  JsonLinesReader(RowBuilder* builder, uint64_t first_line)
      : builder_(builder), line_(first_line) {}

  void Feed(std::string_view bytes, const Sink& sink) override {
    size_t newline = bytes.find('\n');
    if (!pending_.empty()) {
      if (newline == std::string_view::npos) {
        pending_.append(bytes);
        return;
      }
      pending_.append(bytes.substr(0, newline));
      Line(pending_, sink);
      pending_.clear();
      bytes.remove_prefix(newline + 1);
      newline = bytes.find('\n');
    }
    for (; newline != std::string_view::npos; newline = bytes.find('\n')) {
      Line(bytes.substr(0, newline), sink);
      bytes.remove_prefix(newline + 1);
    }
    pending_.append(bytes);
  }

  void Finish(const Sink& sink) override {
    if (!pending_.empty()) Line(pending_, sink);
    pending_.clear();
  }

 private:
  // One whole line, without its '\n'.
  void Line(std::string_view text, const Sink& sink) {
    const uint64_t line = line_++;
    if (text.find_first_not_of(" \t\r") == std::string_view::npos) return;
    if (!builder_->table_status().ok()) return sink(line, builder_->table_status());
    builder_->Begin();
    Status status = ParseObject(text);
    if (status.ok()) status = builder_->CheckKeys();
    if (!status.ok()) return sink(line, std::move(status));
    builder_->Emit(line, sink);
  }

  Status ParseObject(std::string_view text) {
    return reader_.Read(text, [this](std::string_view name, json_internal::od::value& value) {
      return ParseMember(name, value);
    });
  }

  Status ParseMember(std::string_view name, json_internal::od::value& value) {
    json_type json;
    const size_t target = builder_->Find(name);
    if (target == kUnknownTarget) return Status::InvalidArgument("unknown column " + Quoted(name));
    CELLFS_RETURN_IF_ERROR(builder_->Claim(target, name));
    if (auto error = json_internal::TypeOf(value, &json)) return JsonError(error);
    if (target == kTtlTarget || target == kTimestampTarget) {
      return ReadAttribute(target, value, json);
    }
    if (json == json_type::null) return builder_->Null(target);
    const ColumnDef& column = builder_->table().column(target);
    Status status = json_internal::JsonToValue(*column.type, value, json, builder_->Value(target));
    return status.ok() ? status : status.WithContext("column " + Quoted(column.name));
  }

  Status ReadAttribute(size_t target, json_internal::od::value& value, json_type json) {
    const bool ttl = target == kTtlTarget;
    const char* name = ttl ? "@ttl" : "@timestamp";
    if (json != json_type::number) {
      return Status::InvalidArgument(std::string(name) + " must be a JSON integer, not a " +
                                     JsonTypeName(json));
    }
    int64_t number = 0;
    const std::string_view token = json_internal::Token(value);
    Status status = ttl ? ParseTtlText(token, &number) : ParseTimestampText(token, &number);
    if (!status.ok()) return status.WithContext(name);
    (ttl ? builder_->attributes().ttl : builder_->attributes().timestamp) = number;
    return Status::Ok();
  }

  RowBuilder* builder_;
  uint64_t line_;        // of the next line to finish
  std::string pending_;  // the unfinished line
  json_internal::JsonObjectReader reader_;
};

}  // namespace

std::unique_ptr<RecordReader> NewJsonLinesReader(RowBuilder* builder, uint64_t first_line) {
  return std::make_unique<JsonLinesReader>(builder, first_line);
}

}  // namespace cellfs::fs::insert_internal
