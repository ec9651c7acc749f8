// The interactive shell's pure parts (tools/cellfs/shell/): where a
// statement ends, which lines are shell commands, EXPAND ON records made
// from the table @cql sends, paging, completion candidates, the history
// file's encoding and error positions.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "engine/cql/literal.h"
#include "fs/cql/cqlsh_table.h"
#include "tools/cellfs/shell/completion.h"
#include "tools/cellfs/shell/cql_connection.h"
#include "tools/cellfs/shell/expanded_table.h"
#include "tools/cellfs/shell/history_file.h"
#include "tools/cellfs/shell/result_printer.h"
#include "tools/cellfs/shell/shell_command.h"
#include "tools/cellfs/shell/statement_splitter.h"

namespace cellfs::tools::shell {
namespace {

using Strings = std::vector<std::string>;

// ---- Statement splitting.

TEST_CASE("a statement is complete at a ';' outside strings and comments", "[shell]") {
  StatementSplitter splitter;
  SECTION("one line, two statements") {
    CHECK(splitter.Feed("USE ks; SELECT * FROM t;\n") == Strings{"USE ks;", " SELECT * FROM t;"});
    CHECK(splitter.AtStatementStart());
  }
  SECTION("over several lines, with a continuation in between") {
    CHECK(splitter.Feed("SELECT *\n").empty());
    CHECK_FALSE(splitter.AtStatementStart());
    CHECK(splitter.Feed("  FROM t;\n") == Strings{"SELECT *\n  FROM t;"});
    CHECK(splitter.AtStatementStart());
    CHECK(splitter.pending() == "\n");
  }
  SECTION("quotes: '' escapes, \"identifiers\", $$ strings") {
    CHECK(splitter.Feed("INSERT INTO t (\"a;b\") VALUES ('it''s; fine');\n") ==
          Strings{"INSERT INTO t (\"a;b\") VALUES ('it''s; fine');"});
    CHECK(splitter.Feed("CREATE FUNCTION f() AS $$ return 1; $$;\n") ==
          Strings{"\nCREATE FUNCTION f() AS $$ return 1; $$;"});
  }
  SECTION("a string left open continues on the next line") {
    CHECK(splitter.Feed("INSERT INTO t (v) VALUES ('a;\n").empty());
    CHECK_FALSE(splitter.AtStatementStart());
    CHECK(splitter.Feed("b');\n").size() == 1);
  }
  SECTION("comments: -- and // to the end of the line, /* */ anywhere") {
    CHECK(splitter.Feed("-- not; a statement\n").empty());
    CHECK(splitter.AtStatementStart());
    CHECK(splitter.Feed("// nor; this\n").empty());
    CHECK(splitter.AtStatementStart());
    CHECK(splitter.Feed("/* open;\n").empty());
    CHECK_FALSE(splitter.AtStatementStart());
    CHECK(splitter.Feed("still; */ SELECT 1 -- x;\n").empty());
    CHECK_FALSE(splitter.AtStatementStart());
    Strings done = splitter.Feed(";\n");
    REQUIRE(done.size() == 1);
    CHECK(done[0].ends_with("SELECT 1 -- x;\n;"));
  }
  SECTION("Clear drops the statement being typed and any open quote") {
    CHECK(splitter.Feed("SELECT 'open\n").empty());
    splitter.Clear();
    CHECK(splitter.AtStatementStart());
    CHECK(splitter.Feed("USE ks;\n") == Strings{"USE ks;"});
  }
}

// ---- Shell commands.

TEST_CASE("shell commands are recognised in any case, with or without ';'", "[shell]") {
  using Kind = ShellCommand::Kind;
  CHECK_FALSE(ParseShellCommand("SELECT * FROM t;"));
  CHECK_FALSE(ParseShellCommand("   "));
  CHECK_FALSE(ParseShellCommand("expanded"));

  auto expand = ParseShellCommand("expand on;");
  REQUIRE(expand);
  CHECK(expand->kind == Kind::kExpand);
  CHECK(expand->on == true);
  CHECK(ParseShellCommand(" EXPAND OFF ")->on == false);
  CHECK_FALSE(ParseShellCommand("EXPAND")->on.has_value());
  CHECK(ParseShellCommand("EXPAND maybe")->kind == Kind::kInvalid);
  CHECK(ParseShellCommand("EXPAND 20")->kind == Kind::kInvalid);

  auto paging = ParseShellCommand("Paging 50;");
  REQUIRE(paging);
  CHECK(paging->kind == Kind::kPaging);
  CHECK(paging->page_size == 50);
  CHECK(ParseShellCommand("PAGING off")->on == false);
  CHECK(ParseShellCommand("PAGING 0")->kind == Kind::kInvalid);

  auto source = ParseShellCommand("SOURCE 'my file''s.cql';");
  REQUIRE(source);
  CHECK(source->kind == Kind::kSource);
  CHECK(source->file == "my file's.cql");
  CHECK(ParseShellCommand("SOURCE file.cql")->kind == Kind::kInvalid);
  CHECK(ParseShellCommand("SOURCE 'open")->kind == Kind::kInvalid);

  CHECK(ParseShellCommand("help")->kind == Kind::kHelp);
  CHECK(ParseShellCommand("HELP SELECT")->kind == Kind::kHelp);
  CHECK(ParseShellCommand("exit")->kind == Kind::kExit);
  CHECK(ParseShellCommand("QUIT;")->kind == Kind::kExit);
  CHECK(ParseShellCommand("exit now")->kind == Kind::kInvalid);
}

TEST_CASE("COPY names a table, columns, a direction, a file and HEADER", "[shell]") {
  auto to = ParseShellCommand("COPY Demo.\"Logs\" (a, \"B\") TO '/tmp/x.csv' WITH HEADER = true;");
  REQUIRE(to);
  REQUIRE(to->kind == ShellCommand::Kind::kCopy);
  CHECK(to->keyspace == "demo");
  CHECK(to->table == "Logs");
  CHECK(to->columns == Strings{"a", "B"});
  CHECK(to->copy_to);
  CHECK(to->file == "/tmp/x.csv");
  CHECK(to->header);

  auto from = ParseShellCommand("copy t from 'in.csv'");
  REQUIRE(from);
  CHECK(from->kind == ShellCommand::Kind::kCopy);
  CHECK(from->keyspace.empty());
  CHECK(from->table == "t");
  CHECK_FALSE(from->copy_to);
  CHECK_FALSE(from->header);

  CHECK(ParseShellCommand("COPY t TO STDOUT")->kind == ShellCommand::Kind::kInvalid);
  CHECK(ParseShellCommand("COPY t TO 'f' WITH DELIMITER = '|'")->kind ==
        ShellCommand::Kind::kInvalid);
  CHECK(ParseShellCommand("COPY t INTO 'f'")->kind == ShellCommand::Kind::kInvalid);
}

TEST_CASE("COPY FROM takes MAXPARSEERRORS, MAXINSERTERRORS and ERRFILE", "[shell]") {
  auto from = ParseShellCommand(
      "COPY t FROM 'in.csv' WITH HEADER = true AND MAXPARSEERRORS = 10 AND ERRFILE = 'bad.csv'");
  REQUIRE(from);
  REQUIRE(from->kind == ShellCommand::Kind::kCopy);
  CHECK(from->header);
  CHECK(from->max_errors == 10);
  CHECK(from->errfile == "bad.csv");
  // One limit for both kinds of refusal: the smaller.
  auto both = ParseShellCommand("COPY t FROM 'f' WITH MAXINSERTERRORS = 3 AND MAXPARSEERRORS = 7");
  REQUIRE(both);
  CHECK(both->max_errors == 3);
  auto none = ParseShellCommand("COPY t FROM 'f' WITH MAXPARSEERRORS = -1");
  REQUIRE(none);
  CHECK(none->kind == ShellCommand::Kind::kCopy);
  CHECK(none->max_errors == -1);
  CHECK(ParseShellCommand("COPY t FROM 'f' WITH MAXPARSEERRORS = many")->kind ==
        ShellCommand::Kind::kInvalid);
  CHECK(ParseShellCommand("COPY t TO 'f' WITH ERRFILE = 'x'")->kind ==
        ShellCommand::Kind::kInvalid);
}

// ---- EXPAND ON from the table.

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

fs::CqlshRow Row(int k, std::string v, std::optional<std::string> w) {
  Result<std::string> key = ParseLiteral(*CqlType::Native(TypeKind::kInt), std::to_string(k));
  REQUIRE(key.ok());
  return {key.value(), std::move(v), std::move(w)};
}

std::vector<fs::CqlshColumn> Columns() {
  return {{"k", CqlType::Native(TypeKind::kInt)},
          {"value", CqlType::Native(TypeKind::kText)},
          {"w", CqlType::Native(TypeKind::kText)}};
}

// What the shell shows with EXPAND ON: the blocks @cql sends (batch-mode
// tables, the count in the last block, as fs/cql/select_executor does)
// through ExpandedTable.
std::string ConvertedFromTable(const std::vector<std::vector<fs::CqlshRow>>& pages) {
  fs::CqlshResultPrinter printer(Columns(), {});
  ExpandedTable expanded;
  std::string shown;
  for (size_t i = 0; i < pages.size(); ++i) {
    std::string block;
    if (!pages[i].empty()) printer.PrintPage(pages[i], &block);
    if (i + 1 == pages.size()) printer.Finish(&block);
    shown += expanded.Convert(Lines(block));
  }
  return shown;
}

// What cqlsh prints with EXPAND ON on a terminal, page by page.
std::string CqlshExpanded(const std::vector<std::vector<fs::CqlshRow>>& pages) {
  fs::CqlshResultPrinter printer(Columns(), {fs::CqlshLayout::kExpanded, /*tty=*/true});
  std::string out;
  for (const auto& page : pages) {
    if (!page.empty()) printer.PrintPage(page, &out);
  }
  printer.Finish(&out);
  return out;
}

TEST_CASE("EXPAND ON records made from @cql's table are cqlsh's", "[shell]") {
  SECTION("one page, exact text") {
    std::vector<std::vector<fs::CqlshRow>> pages = {
        {Row(1, "one", "x"), Row(22, "twenty two", std::nullopt)}};
    const std::string expected =
        "\n"
        "@ Row 1\n"
        "-------+------------\n"
        " k     | 1\n"
        " value | one\n"
        " w     | x\n"
        "\n"
        "@ Row 2\n"
        "-------+------------\n"
        " k     | 22\n"
        " value | twenty two\n"
        " w     | null\n"
        "\n"
        "(2 rows)\n";
    CHECK(CqlshExpanded(pages) == expected);
    CHECK(ConvertedFromTable(pages) == expected);
  }
  SECTION("an empty result shows its header") {
    std::vector<std::vector<fs::CqlshRow>> pages = {{}};
    CHECK(ConvertedFromTable(pages) == CqlshExpanded(pages));
    CHECK(ConvertedFromTable(pages) == "\n k | value | w\n---+-------+---\n\n(0 rows)\n");
  }
  SECTION("random pages: widths per page, wide characters, ' | ' inside values") {
    std::mt19937 random(15);
    const Strings words = {"a", "bb", "ccc dd", "x | y", "日本", "é", "", "null", "-+-"};
    for (int round = 0; round < 50; ++round) {
      std::vector<std::vector<fs::CqlshRow>> pages(1 + random() % 3);
      int k = 0;
      for (size_t p = 0; p < pages.size(); ++p) {
        const size_t rows = p + 1 == pages.size() ? random() % 100 : 100;
        for (size_t r = 0; r < rows; ++r) {
          std::string v = words[random() % words.size()] + words[random() % words.size()];
          if (v.starts_with(" ") || v.find(" | ") != std::string::npos) v = "v" + v;
          std::optional<std::string> w;
          if (random() % 4 != 0) w = words[random() % words.size()];
          pages[p].push_back(Row(k++ * static_cast<int>(random() % 1000), v, w));
        }
      }
      INFO("round " << round);
      CHECK(ConvertedFromTable(pages) == CqlshExpanded(pages));
    }
  }
}

// ---- Paging.

TEST_CASE("paging pauses before each page of rows after the first", "[shell]") {
  std::string block = "\n k\n---\n";
  for (int i = 0; i < 250; ++i) block += " " + std::to_string(i % 10) + "\n";
  block += "\n(250 rows)\n";
  std::string shown;
  std::vector<size_t> pauses_at;  // rows shown when each pause came
  auto run = [&](DisplaySettings settings, bool go_on) {
    shown.clear();
    pauses_at.clear();
    ResultPrinter printer(
        true, settings, [&](std::string_view text) { shown += text; },
        [&] {
          pauses_at.push_back(static_cast<size_t>(std::count(shown.begin(), shown.end(), '\n')));
          return go_on;
        });
    printer.Feed(Lines(block));
  };
  run({}, true);
  CHECK(shown == block);
  CHECK(pauses_at == std::vector<size_t>{103, 203});  // 3 lines before the rows
  run({false, true, 50}, true);
  CHECK(pauses_at.size() == 4);
  run({false, false, 100}, true);
  CHECK(pauses_at.empty());
  run({}, false);
  CHECK(pauses_at.size() == 1);
  CHECK(std::count(shown.begin(), shown.end(), '\n') == 103);
}

TEST_CASE("only a SELECT that prints a table is paged and expanded", "[shell]") {
  CHECK(IsTableSelect("SELECT * FROM t;"));
  CHECK(IsTableSelect("-- first\n /* then */ select k from t;"));
  CHECK_FALSE(IsTableSelect("SELECT JSON * FROM t;"));
  CHECK_FALSE(IsTableSelect("DESCRIBE TABLE t;"));
  CHECK_FALSE(IsTableSelect("INSERT INTO t (k) VALUES (1);"));
}

// ---- Completion.

class FakeNames : public NameSource {
 public:
  std::vector<std::string> Keyspaces() override { return {"demo", "ks"}; }
  std::vector<std::string> Tables(const std::string& keyspace) override {
    return keyspace == "ks" ? Strings{"events", "users"} : Strings{};
  }
  std::vector<std::string> Columns(const std::string& keyspace, const std::string& table) override {
    return keyspace == "ks" && table == "users" ? Strings{"id", "email", "emails_seen"} : Strings{};
  }
};

TEST_CASE("completion offers keywords, keyspaces, tables and columns", "[shell]") {
  FakeNames names;
  CHECK(CompletionCandidates("", "SEL", "", names) == Strings{"SELECT"});
  CHECK(CompletionCandidates("", "sel", "", names) == Strings{"select"});
  CHECK(CompletionCandidates("SELECT * FROM ", "ks.", "", names) ==
        Strings{"ks.events", "ks.users"});
  CHECK(CompletionCandidates("SELECT * FROM ", "ks.u", "", names) == Strings{"ks.users"});
  CHECK(CompletionCandidates("SELECT * FROM ", "de", "", names) ==
        Strings{"decimal", "delete", "demo", "desc", "describe"});
  CHECK(CompletionCandidates("SELECT * FROM ", "use", "ks", names) == Strings{"use", "users"});
  CHECK(CompletionCandidates("SELECT * FROM ", "use", "", names) == Strings{"use"});
  CHECK(CompletionCandidates("SELECT * FROM ks.users WHERE ", "email", "", names) ==
        Strings{"email", "emails_seen"});
  CHECK(CompletionCandidates("UPDATE users SET ", "i", "ks", names) ==
        Strings{"id", "if", "in", "index", "inet", "insert", "int", "into"});
  CHECK(CompletionCandidates("SELECT * FROM ks.users WHERE ", "", "ks", names) ==
        Strings{"demo", "email", "emails_seen", "events", "id", "ks", "users"});
  CHECK(CommonPrefix({"email", "emails_seen"}) == "email");
  CHECK(CommonPrefix({}).empty());
}

TEST_CASE("a table's columns come from its CREATE TABLE text", "[shell]") {
  CHECK(SchemaColumns("CREATE TABLE ks.t (\n"
                      "    k int,\n"
                      "    \"Odd \"\"name\" text static,\n"
                      "    m map<text, int>,\n"
                      "    PRIMARY KEY (k)\n"
                      ") WITH comment = '';\n") == Strings{"k", "Odd \"name", "m"});
  CHECK(SchemaColumns("not a table").empty());
}

// ---- History and errors.

TEST_CASE("history entries keep their line breaks through the file", "[shell]") {
  const std::string entry = "SELECT *\nFROM t -- a \\ comment\nWHERE k = 1;";
  const std::string line = EncodeHistoryEntry(entry);
  CHECK(line.find('\n') == std::string::npos);
  CHECK(DecodeHistoryEntry(line) == entry);
  CHECK(EncodeHistoryEntry("USE ks;") == "USE ks;");
}

TEST_CASE("an error's line counts from the statement's first line", "[shell]") {
  CHECK(RelativeErrorLine("ERROR line 7:3: no viable input", 5) ==
        "ERROR line 3:3: no viable input");
  CHECK(RelativeErrorLine("ERROR line 2:1: x", 5) == "ERROR line 2:1: x");
  CHECK(RelativeErrorLine("ERROR keyspace ks does not exist", 5) ==
        "ERROR keyspace ks does not exist");
}

}  // namespace
}  // namespace cellfs::tools::shell
