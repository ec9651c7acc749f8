// The statement-end scan: one pass over each new character, the lexical
// state carried between calls.
#include "tools/cellfs/shell/statement_splitter.h"

namespace cellfs::tools::shell {

std::vector<std::string> StatementSplitter::Feed(std::string_view text) {
  std::vector<std::string> done;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    pending_ += c;
    switch (state_) {
      case State::kCode:
        if (c == ';') {
          done.push_back(std::move(pending_));
          pending_.clear();
          has_code_ = false;
        } else if (c == '\'') {
          state_ = State::kSingle;
        } else if (c == '"') {
          state_ = State::kDouble;
        } else if (c == '$' && next == '$') {
          state_ = State::kDollar;
          pending_ += text[++i];
        } else if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
          state_ = State::kLineComment;
          pending_ += text[++i];
        } else if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          pending_ += text[++i];
        }
        if (state_ == State::kSingle || state_ == State::kDouble || state_ == State::kDollar ||
            (state_ == State::kCode && c != ';' && c != ' ' && c != '\t' && c != '\r' &&
             c != '\n')) {
          has_code_ = true;
        }
        break;
      case State::kSingle:
        // A '' inside a string is a quote: the second ' reopens the string.
        if (c == '\'') state_ = State::kCode;
        break;
      case State::kDouble:
        if (c == '"') state_ = State::kCode;
        break;
      case State::kDollar:
        if (c == '$' && next == '$') {
          pending_ += text[++i];
          state_ = State::kCode;
        }
        break;
      case State::kLineComment:
        if (c == '\n') state_ = State::kCode;
        break;
      case State::kBlockComment:
        if (c == '*' && next == '/') {
          pending_ += text[++i];
          state_ = State::kCode;
        }
        break;
    }
  }
  return done;
}

bool StatementSplitter::AtStatementStart() const {
  return !has_code_ && (state_ == State::kCode || state_ == State::kLineComment);
}

void StatementSplitter::Clear() {
  pending_.clear();
  state_ = State::kCode;
  has_code_ = false;
}

}  // namespace cellfs::tools::shell
