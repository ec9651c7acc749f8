// Parsing the shell's own commands: a small tokenizer (words, 'strings',
// "identifiers", punctuation) and one function per command.
#include "tools/cellfs/shell/shell_command.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "tools/cellfs/shell/text_case.h"

namespace cellfs::tools::shell {
namespace {

struct Token {
  enum class Kind { kWord, kString, kQuotedName, kPunct };
  Kind kind;
  std::string text;  // a word as typed; a string or name without its quotes
};

// False when a quote is left open.
bool Tokenize(std::string_view line, std::vector<Token>* tokens) {
  size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      std::string text;
      size_t j = i + 1;
      for (;; ++j) {
        if (j >= line.size()) return false;
        if (line[j] != c) {
          text += line[j];
        } else if (j + 1 < line.size() && line[j + 1] == c) {
          text += c;  // '' or "" inside: one quote
          ++j;
        } else {
          break;
        }
      }
      tokens->push_back({c == '\'' ? Token::Kind::kString : Token::Kind::kQuotedName, text});
      i = j + 1;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '/' ||
               c == '~') {
      size_t j = i;
      while (j < line.size() &&
             (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_' ||
              line[j] == '-' || line[j] == '/' || line[j] == '~')) {
        ++j;
      }
      tokens->push_back({Token::Kind::kWord, std::string(line.substr(i, j - i))});
      i = j;
    } else {
      tokens->push_back({Token::Kind::kPunct, std::string(1, c)});
      ++i;
    }
  }
  return true;
}

bool IsWord(const std::vector<Token>& t, size_t i, std::string_view upper) {
  return i < t.size() && t[i].kind == Token::Kind::kWord && Upper(t[i].text) == upper;
}

bool IsPunct(const std::vector<Token>& t, size_t i, char c) {
  return i < t.size() && t[i].kind == Token::Kind::kPunct && t[i].text[0] == c;
}

// A CQL name: unquoted ones fold to lower case, as CQL folds them.
bool TakeName(const std::vector<Token>& t, size_t* i, std::string* name) {
  if (*i >= t.size()) return false;
  if (t[*i].kind == Token::Kind::kQuotedName) {
    *name = t[*i].text;
  } else if (t[*i].kind == Token::Kind::kWord) {
    *name = Lower(t[*i].text);
  } else {
    return false;
  }
  ++*i;
  return true;
}

ShellCommand Invalid(std::string error) {
  ShellCommand command;
  command.error = std::move(error);
  return command;
}

ShellCommand ParseSwitch(ShellCommand::Kind kind, const std::vector<Token>& t) {
  const bool paging = kind == ShellCommand::Kind::kPaging;
  const std::string usage = paging ? "usage: PAGING [ON | OFF | N]" : "usage: EXPAND [ON | OFF]";
  ShellCommand command;
  command.kind = kind;
  if (t.size() == 1) return command;
  if (t.size() != 2 || t[1].kind != Token::Kind::kWord) return Invalid(usage);
  const std::string word = Upper(t[1].text);
  if (word == "ON" || word == "OFF") {
    command.on = word == "ON";
    return command;
  }
  size_t size = 0;
  const char* end = t[1].text.data() + t[1].text.size();
  auto [ptr, ec] = std::from_chars(t[1].text.data(), end, size);
  if (!paging || ec != std::errc() || ptr != end || size == 0) return Invalid(usage);
  command.on = true;
  command.page_size = size;
  return command;
}

ShellCommand ParseSource(const std::vector<Token>& t) {
  if (t.size() != 2 || t[1].kind != Token::Kind::kString) {
    return Invalid("usage: SOURCE 'file'");
  }
  ShellCommand command;
  command.kind = ShellCommand::Kind::kSource;
  command.file = t[1].text;
  return command;
}

ShellCommand ParseCopy(const std::vector<Token>& t) {
  const std::string usage =
      "usage: COPY [keyspace.]table [(column, ...)] TO|FROM 'file' [WITH HEADER = true|false]";
  ShellCommand command;
  command.kind = ShellCommand::Kind::kCopy;
  size_t i = 1;
  if (!TakeName(t, &i, &command.table)) return Invalid(usage);
  if (IsPunct(t, i, '.')) {
    ++i;
    command.keyspace = command.table;
    if (!TakeName(t, &i, &command.table)) return Invalid(usage);
  }
  if (IsPunct(t, i, '(')) {
    ++i;
    for (;;) {
      std::string column;
      if (!TakeName(t, &i, &column)) return Invalid(usage);
      command.columns.push_back(column);
      if (IsPunct(t, i, ')')) break;
      if (!IsPunct(t, i, ',')) return Invalid(usage);
      ++i;
    }
    ++i;
  }
  if (IsWord(t, i, "TO")) {
    command.copy_to = true;
  } else if (!IsWord(t, i, "FROM")) {
    return Invalid(usage);
  }
  ++i;
  if (i >= t.size() || t[i].kind != Token::Kind::kString) {
    return Invalid("COPY takes a 'quoted' file name (cellfs has no STDIN/STDOUT form)");
  }
  command.file = t[i++].text;
  if (i == t.size()) return command;
  if (!IsWord(t, i, "WITH")) return Invalid(usage);
  ++i;
  for (;;) {
    const bool header = IsWord(t, i, "HEADER");
    const bool limit = IsWord(t, i, "MAXPARSEERRORS") || IsWord(t, i, "MAXINSERTERRORS");
    const bool errfile = IsWord(t, i, "ERRFILE");
    if (!header && !limit && !errfile) {
      return Invalid(
          "COPY in cellfs takes HEADER = true|false, and with FROM MAXPARSEERRORS, "
          "MAXINSERTERRORS and ERRFILE");
    }
    if ((limit || errfile) && command.copy_to) {
      return Invalid(t[i].text + " is an option of COPY FROM");
    }
    if (!IsPunct(t, i + 1, '=')) return Invalid(usage);
    const std::string option = t[i].text;
    i += 2;
    if (i >= t.size()) return Invalid(usage);
    const std::string value = t[i].text;
    if (header && Lower(value) == "true") {
      command.header = true;
    } else if (header && Lower(value) == "false") {
      command.header = false;
    } else if (header) {
      return Invalid("HEADER takes true or false");
    } else if (errfile) {
      command.errfile = value;
    } else {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || n < -1) {
        return Invalid(option + " takes a number of records, or -1 for no limit");
      }
      if (n >= 0 && (command.max_errors < 0 || n < command.max_errors)) command.max_errors = n;
    }
    ++i;
    if (i == t.size()) return command;
    if (!IsWord(t, i, "AND")) return Invalid(usage);
    ++i;
  }
}

}  // namespace

std::optional<ShellCommand> ParseShellCommand(std::string_view line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) {
    line.remove_suffix(1);
  }
  if (!line.empty() && line.back() == ';') line.remove_suffix(1);
  std::vector<Token> tokens;
  const bool closed = Tokenize(line, &tokens);
  if (tokens.empty() || tokens[0].kind != Token::Kind::kWord) return std::nullopt;
  const std::string first = Upper(tokens[0].text);
  using Kind = ShellCommand::Kind;
  const bool known = first == "EXPAND" || first == "PAGING" || first == "SOURCE" ||
                     first == "COPY" || first == "HELP" || first == "EXIT" || first == "QUIT";
  if (!known) return std::nullopt;
  if (!closed) return Invalid("a quote is left open");
  if (first == "EXPAND") return ParseSwitch(Kind::kExpand, tokens);
  if (first == "PAGING") return ParseSwitch(Kind::kPaging, tokens);
  if (first == "SOURCE") return ParseSource(tokens);
  if (first == "COPY") return ParseCopy(tokens);
  ShellCommand command;
  // HELP takes a topic in cqlsh; here every topic shows the one list.
  command.kind = first == "HELP" ? Kind::kHelp : Kind::kExit;
  if (command.kind == Kind::kExit && tokens.size() != 1) return Invalid("usage: " + first);
  return command;
}

std::string ShellHelpText() {
  return "CQL statements end with ';' (DDL, INSERT, UPDATE, DELETE, BATCH, SELECT, USE,\n"
         "DESCRIBE, TRUNCATE: see docs/CQL.md). Shell commands (';' optional):\n"
         "  EXPAND [ON | OFF]          print each row as a record\n"
         "  PAGING [ON | OFF | N]      pause at ---MORE--- every N rows (100)\n"
         "  SOURCE 'file'              run the statements in a file\n"
         "  COPY [ks.]t TO 'file'      export the table as CSV (with a header)\n"
         "  COPY [ks.]t [(cols)] FROM 'file' [WITH HEADER = true]   import CSV\n"
         "      (and MAXPARSEERRORS = n, ERRFILE = 'file': refused rows kept)\n"
         "  HELP                       this list\n"
         "  EXIT, QUIT, Ctrl-D         leave; Ctrl-C drops the statement being typed\n";
}

}  // namespace cellfs::tools::shell
