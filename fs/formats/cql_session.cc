// CqlSession: runs a CQL script (DDL, TRUNCATE, DESCRIBE) as it streams in through @cql writes, one
// statement at a time, and words each outcome as a transcript line.
#include "fs/formats/cql_session.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <variant>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_parser.h"
#include "engine/cql/describe.h"
#include "engine/cql/describe_statement.h"
#include "fs/cql/dml_executor.h"
#include "fs/cql/select_executor.h"

namespace cellfs::fs {
namespace {

constexpr std::string_view kIfNotExists = "IF NOT EXISTS";
constexpr std::string_view kIfExists = "IF EXISTS";

// Where the text handed to one CqlParser starts in the whole script, so that
// positions the parser and catalog report can be moved to script positions.
struct Origin {
  size_t line;
  size_t column;
};

// A statement's verb for the transcript, and the IF clause that can make it
// a no-op.
struct Verb {
  std::string_view text;
  std::string_view guard;
};

struct VerbOf {
  Verb operator()(const CreateKeyspace&) const { return {"CREATE KEYSPACE", kIfNotExists}; }
  Verb operator()(const AlterKeyspace&) const { return {"ALTER KEYSPACE", kIfExists}; }
  Verb operator()(const DropKeyspace&) const { return {"DROP KEYSPACE", kIfExists}; }
  Verb operator()(const UseKeyspace&) const { return {"USE", kIfExists}; }
  Verb operator()(const CreateTable&) const { return {"CREATE TABLE", kIfNotExists}; }
  Verb operator()(const DropTable&) const { return {"DROP TABLE", kIfExists}; }
  Verb operator()(const AlterTable& s) const {
    // ADD IF NOT EXISTS on a table that must exist guards columns, not the table.
    const bool guards_columns = s.if_column_not_exists && !s.if_exists;
    return {"ALTER TABLE", guards_columns ? kIfNotExists : kIfExists};
  }
  Verb operator()(const CreateType&) const { return {"CREATE TYPE", kIfNotExists}; }
  Verb operator()(const DropType&) const { return {"DROP TYPE", kIfExists}; }
  Verb operator()(const CreateRoutine& s) const {
    const bool function = s.kind == CreateRoutine::Kind::kFunction;
    return {function ? "CREATE FUNCTION" : "CREATE AGGREGATE", kIfNotExists};
  }
  Verb operator()(const UnsupportedStatement& s) const { return {s.what, kIfExists}; }
  // Data statements are summarised by their executor (RunStatement).
  Verb operator()(const InsertStatement&) const { return {"INSERT", kIfNotExists}; }
  Verb operator()(const UpdateStatement&) const { return {"UPDATE", kIfExists}; }
  Verb operator()(const DeleteStatement&) const { return {"DELETE", kIfExists}; }
  Verb operator()(const BatchStatement&) const { return {"BATCH", kIfExists}; }
  Verb operator()(const SelectStatement&) const { return {"SELECT", kIfExists}; }
  Verb operator()(const DropRoutine& s) const {
    const bool function = s.kind == CreateRoutine::Kind::kFunction;
    return {function ? "DROP FUNCTION" : "DROP AGGREGATE", kIfExists};
  }
  Verb operator()(const CreateIndex&) const { return {"CREATE INDEX", kIfNotExists}; }
  Verb operator()(const DropIndex&) const { return {"DROP INDEX", kIfExists}; }
  Verb operator()(const CreateView&) const { return {"CREATE MATERIALIZED VIEW", kIfNotExists}; }
  Verb operator()(const DropView&) const { return {"DROP MATERIALIZED VIEW", kIfExists}; }
  Verb operator()(const AlterView&) const { return {"ALTER MATERIALIZED VIEW", kIfExists}; }
  Verb operator()(const TruncateTable&) const { return {"TRUNCATE", kIfExists}; }
  Verb operator()(const DescribeStatement&) const { return {"DESCRIBE", kIfExists}; }
};

std::string Summary(const StatementBody& body, const SchemaChange& change) {
  const Verb verb = std::visit(VerbOf{}, body);
  if (change.kind == SchemaChange::Kind::kNone) {
    return "no change (" + std::string(verb.guard) + ")";
  }
  std::string name = QuoteIdentifier(change.keyspace);
  if (!change.object.empty()) name += "." + QuoteIdentifier(change.object);
  return std::string(verb.text) + " " + name;
}

// Splits a leading "line L:C: " off `message`; false when it has none.
bool SplitPosition(std::string_view message, size_t* line, size_t* column, std::string_view* rest) {
  constexpr std::string_view kPrefix = "line ";
  if (!message.starts_with(kPrefix)) return false;
  const char* end = message.data() + message.size();
  size_t parsed_line = 0;
  size_t parsed_column = 0;
  auto [after_line, line_error] =
      std::from_chars(message.data() + kPrefix.size(), end, parsed_line);
  if (line_error != std::errc() || after_line == end || *after_line != ':') return false;
  auto [after_column, column_error] = std::from_chars(after_line + 1, end, parsed_column);
  if (column_error != std::errc()) return false;
  const std::string_view tail(after_column, static_cast<size_t>(end - after_column));
  if (!tail.starts_with(": ")) return false;
  *line = parsed_line;
  *column = parsed_column;
  *rest = tail.substr(2);
  return true;
}

// `message` as "line L:C: ..." with L:C counted from the start of the
// script: its own leading position when it has one, else `fallback`; both
// are relative to the text that starts at `origin`.
std::string Rebase(std::string_view message, const SourcePosition& fallback, Origin origin) {
  size_t line = static_cast<size_t>(fallback.line);
  size_t column = static_cast<size_t>(fallback.column);
  std::string_view rest = message;
  SplitPosition(message, &line, &column, &rest);
  if (line == 1) column += origin.column - 1;  // later lines start where the chunk does not
  line += origin.line - 1;
  return "line " + std::to_string(line) + ":" + std::to_string(column) + ": " + std::string(rest);
}

// A DESCRIBE's transcript entry: "OUTPUT <n>" and the n lines of its text.
std::string RunDescribe(const Engine& engine, const Statement& statement,
                        const DescribeStatement& describe, Origin origin,
                        const std::string& keyspace) {
  Result<std::string> text = DescribeOutput(*engine.catalog(), describe, keyspace);
  if (!text.ok()) return "ERROR " + Rebase(text.status().message(), statement.position, origin);
  std::string entry = "OUTPUT " + std::to_string(std::count(text->begin(), text->end(), '\n'));
  if (!text->empty()) entry += "\n" + text->substr(0, text->size() - 1);
  return entry;
}

// One statement's transcript entry (a line, or an OUTPUT block), without
// its final newline; empty when the statement appended a result stream to
// `transcript` instead (SELECT).
std::string RunStatement(Engine* engine, const Statement& statement, Origin origin,
                         std::string* keyspace, Transcript* transcript,
                         std::vector<DmlTouched>* touched) {
  if (IsDataStatement(statement.body)) {
    DmlResult result;
    Status status = ExecuteDataStatement(engine, statement, *keyspace, &result);
    if (!status.ok()) return "ERROR " + Rebase(status.message(), statement.position, origin);
    for (DmlTouched& t : result.touched) touched->push_back(std::move(t));
    if (result.output.empty()) return "OK " + result.summary;
    // A conditional statement's "[applied]" table.
    const std::string& text = result.output;
    return "OUTPUT " + std::to_string(std::count(text.begin(), text.end(), '\n')) + "\n" +
           text.substr(0, text.size() - 1);
  }
  if (std::holds_alternative<SelectStatement>(statement.body)) {
    std::unique_ptr<ResultStream> result;
    Status status = StartSelect(engine, statement, *keyspace, &result);
    if (!status.ok()) return "ERROR " + Rebase(status.message(), statement.position, origin);
    transcript->Append(std::move(result));
    return {};
  }
  if (const auto* describe = std::get_if<DescribeStatement>(&statement.body)) {
    return RunDescribe(*engine, statement, *describe, origin, *keyspace);
  }
  if (const auto* unsupported = std::get_if<UnsupportedStatement>(&statement.body)) {
    // The catalog would refuse it too, but words it as a gap still to fill.
    return "ERROR " +
           Rebase(unsupported->what + " is not supported by cellfs", statement.position, origin);
  }
  SchemaChange change;
  Status status = engine->Execute(statement, keyspace, &change);
  if (!status.ok()) return "ERROR " + Rebase(status.message(), statement.position, origin);
  return "OK " + Summary(statement.body, change);
}

// Runs every statement of `text`, which starts at `origin` of the script,
// appending a line each to `*transcript`. InvalidArgument with the first
// failure's line (without "ERROR ") when any statement failed.
Status RunScript(Engine* engine, std::string_view text, Origin origin, std::string* keyspace,
                 Transcript* transcript, std::vector<DmlTouched>* touched) {
  CqlParser parser(text);
  Status first_failure;
  for (;;) {
    Statement statement;
    bool done = false;
    Status parsed = parser.Next(&statement, &done);
    if (parsed.ok() && done) return first_failure;
    // Parser messages always carry a position; the text's start is a last resort.
    const std::string line =
        parsed.ok() ? RunStatement(engine, statement, origin, keyspace, transcript, touched)
                    : "ERROR " + Rebase(parsed.message(), {}, origin);
    if (line.empty()) continue;
    transcript->Append(line + "\n");
    constexpr std::string_view kError = "ERROR ";
    if (first_failure.ok() && line.starts_with(kError)) {
      first_failure = Status::InvalidArgument(line.substr(kError.size()));
    }
  }
}

// Moves `*line`:`*column` past `consumed`, counting as the lexer does.
void Advance(std::string_view consumed, size_t* line, size_t* column) {
  const size_t last_newline = consumed.rfind('\n');
  if (last_newline == std::string_view::npos) {
    *column += consumed.size();
    return;
  }
  *line += static_cast<size_t>(std::count(consumed.begin(), consumed.end(), '\n'));
  *column = consumed.size() - last_newline;
}

// Where a byte-at-a-time scan for statement ends stands, by the rules of
// engine/cql/internal/cql_lexer.cc: ';' ends a statement only outside strings
// ('it''s', $$...$$), quoted names ("a""b") and comments (--, //, /* */).
// The "k...Open" states have seen a byte that may start or end one.
enum ScanState : uint8_t {
  kCode,
  kDashOpen,    // '-': "--" starts a comment
  kSlashOpen,   // '/': "//" or "/*" starts a comment
  kDollarOpen,  // '$': "$$" starts a string
  kLineComment,
  kBlockComment,
  kBlockCommentStar,  // "*/" would end it
  kString,
  kStringQuote,  // "''" is a quote inside, else the string ended
  kQuotedName,
  kQuotedNameQuote,
  kDollarString,
  kDollarStringDollar,  // "$$" ends it
};

// The state after byte `c` in state `s`. Sets *code when the byte is not
// part of what `s` had begun (a lone '-', the byte after a closing quote)
// and must be read again in kCode; never for `s` kCode.
ScanState Step(ScanState s, char c, bool* code) {
  switch (s) {
    case kCode:
      return c == '\''  ? kString
             : c == '"' ? kQuotedName
             : c == '-' ? kDashOpen
             : c == '/' ? kSlashOpen
             : c == '$' ? kDollarOpen
                        : kCode;
    case kDashOpen:
      if (c == '-') return kLineComment;
      break;
    case kSlashOpen:
      if (c == '/') return kLineComment;
      if (c == '*') return kBlockComment;
      break;
    case kDollarOpen:
      if (c == '$') return kDollarString;
      break;
    case kLineComment:
      return c == '\n' ? kCode : kLineComment;
    case kBlockComment:
      return c == '*' ? kBlockCommentStar : kBlockComment;
    case kBlockCommentStar:
      return c == '/' ? kCode : c == '*' ? kBlockCommentStar : kBlockComment;
    case kString:
      return c == '\'' ? kStringQuote : kString;
    case kStringQuote:
      if (c == '\'') return kString;  // doubled: a quote inside
      break;
    case kQuotedName:
      return c == '"' ? kQuotedNameQuote : kQuotedName;
    case kQuotedNameQuote:
      if (c == '"') return kQuotedName;
      break;
    case kDollarString:
      return c == '$' ? kDollarStringDollar : kDollarString;
    case kDollarStringDollar:
      return c == '$' ? kCode : kDollarString;
  }
  *code = true;
  return kCode;
}

// Moves `*state` over `bytes`; returns the offset just past the last ';'
// in them that ends a statement, or 0 when there is none.
size_t ScanStatementEnds(std::string_view bytes, uint8_t* state) {
  size_t end = 0;
  auto s = static_cast<ScanState>(*state);
  for (size_t i = 0; i < bytes.size(); ++i) {
    const char c = bytes[i];
    bool code = s == kCode;
    if (!code) s = Step(s, c, &code);
    if (!code) continue;
    if (c == ';') end = i + 1;
    s = Step(kCode, c, &code);
  }
  *state = s;
  return end;
}

}  // namespace

CqlSession::CqlSession(Engine* engine) : engine_(engine) {}

Status CqlSession::Write(std::string_view chunk) {
  written_ = true;
  pending_.append(chunk);
  bytes_scanned_ += pending_.size() - scanned_;
  const size_t end = ScanStatementEnds(std::string_view(pending_).substr(scanned_), &scan_state_);
  if (end != 0) terminated_ = scanned_ + end;
  scanned_ = pending_.size();
  if (terminated_ == 0) return Status::Ok();
  // The lexer has the last word on where statements end; the scan only
  // spares it the bytes that cannot end one.
  const std::string_view complete = std::string_view(pending_).substr(
      0, CqlParser::CompleteStatementsLength(std::string_view(pending_).substr(0, terminated_)));
  Status status = RunScript(engine_, complete, {pending_line_, pending_column_}, &current_keyspace_,
                            &transcript_, &touched_);
  Advance(complete, &pending_line_, &pending_column_);
  scanned_ -= complete.size();
  terminated_ = 0;
  pending_.erase(0, complete.size());
  return status;
}

Status CqlSession::WriteAt(uint64_t offset, std::string_view chunk) {
  const std::string_view whole = chunk;
  if (offset == failed_offset_ && !failed_bytes_.empty()) {
    const size_t resent = std::min(chunk.size(), failed_bytes_.size());
    if (chunk.substr(0, resent) == std::string_view(failed_bytes_).substr(0, resent)) {
      chunk.remove_prefix(resent);
      failed_bytes_.erase(0, resent);
      failed_offset_ += resent;
    } else {
      failed_bytes_.clear();
    }
  } else {
    failed_bytes_.clear();
  }
  if (chunk.empty()) return Status::Ok();
  Status status = Write(chunk);
  if (!status.ok()) {
    failed_offset_ = offset;
    failed_bytes_.assign(whole);
  }
  return status;
}

Status CqlSession::Finish() {
  // The parser skips a rest of only white space and comments.
  Status status = RunScript(engine_, pending_, {pending_line_, pending_column_}, &current_keyspace_,
                            &transcript_, &touched_);
  Advance(pending_, &pending_line_, &pending_column_);
  pending_.clear();
  scanned_ = 0;
  scan_state_ = kCode;
  terminated_ = 0;
  return status;
}

std::string CqlSession::DescribeSchema(const Engine& engine) {
  const std::shared_ptr<const Catalog> catalog = engine.catalog();
  std::string schema;
  for (const auto& [name, keyspace] : catalog->keyspaces()) {
    if (!schema.empty()) schema += "\n";
    schema += DescribeKeyspace(keyspace);
  }
  return schema;
}

}  // namespace cellfs::fs
