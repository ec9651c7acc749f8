// StatementSplitter: cuts typed CQL text into complete statements, each
// ended by a ';' outside strings and comments, as the daemon's session does
// (fs/formats/cql_session.h), so the shell knows when to send and when to
// show its continuation prompt.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// Lexical states: '...' strings ('' is a quote inside), "..." identifiers
// ("" likewise), $$...$$ strings, -- and // comments to the end of the
// line, /* */ comments (not nested, as in Cassandra).
// Thread-compatible.
class StatementSplitter {
 public:
  // Appends `text` (usually a line with its '\n') and returns the statements
  // it completed, in order, each as typed up to and including its ';'
  // (whatever came before it since the last one: blank lines, comments).
  std::vector<std::string> Feed(std::string_view text);

  // True when what is pending holds no statement text: only blanks and
  // comments, and no string or comment is open. Then the shell shows its
  // first prompt rather than the continuation prompt.
  bool AtStatementStart() const;

  // The text fed since the last complete statement.
  const std::string& pending() const { return pending_; }

  // Drops the pending text and the lexical state (Ctrl-C).
  void Clear();

 private:
  enum class State { kCode, kSingle, kDouble, kDollar, kLineComment, kBlockComment };
  std::string pending_;
  State state_ = State::kCode;
  bool has_code_ = false;  // pending_ holds something other than blanks and comments
};

}  // namespace cellfs::tools::shell
