// SELECT results printed as cqlsh prints them (fs/cql/cqlsh_table.h): the
// aligned table, EXPAND ON records, pages, and JSON Lines. Expected texts
// follow cqlsh's print_result (bin/cqlsh.py) and the outputs of Cassandra's
// cqlsh tests and dtests.
#include "fs/cql/cqlsh_table.h"

#include <catch2/catch.hpp>
#include <random>
#include <sstream>

#include "engine/cql/literal.h"
#include "fs/cql/cqlsh_width.h"

namespace cellfs::fs {
namespace {

TypePtr Native(TypeKind kind) { return CqlType::Native(kind); }

std::optional<std::string> Value(TypeKind kind, const std::string& literal) {
  Result<std::string> bytes = ParseLiteral(*Native(kind), literal);
  REQUIRE(bytes.ok());
  return bytes.value();
}

std::optional<std::string> Int(int v) { return Value(TypeKind::kInt, std::to_string(v)); }
std::optional<std::string> Text(const std::string& v) { return v; }

std::vector<CqlshColumn> IntText() {
  return {{"k", Native(TypeKind::kInt)}, {"v", Native(TypeKind::kText)}};
}

// Everything printed for `pages`, in order, then Finish.
std::string Print(std::vector<CqlshColumn> columns, CqlshPrintOptions options,
                  const std::vector<std::vector<CqlshRow>>& pages) {
  CqlshResultPrinter printer(std::move(columns), options);
  std::string out;
  for (const auto& page : pages) printer.PrintPage(page, &out);
  printer.Finish(&out);
  return out;
}

const CqlshPrintOptions kBatch{CqlshLayout::kTable, false};
const CqlshPrintOptions kTty{CqlshLayout::kTable, true};
const CqlshPrintOptions kExpand{CqlshLayout::kExpanded, false};

TEST_CASE("a result prints as header, rule, right-justified rows and a count", "[cqlsh_table]") {
  CHECK(Print(IntText(), kBatch, {{{Int(1), Text("a")}, {Int(22), Text("bb")}}}) ==
        "\n"
        " k  | v\n"
        "----+----\n"
        "  1 |  a\n"
        " 22 | bb\n"
        "\n"
        "(2 rows)\n");
}

TEST_CASE("one row is counted as (1 rows)", "[cqlsh_table]") {
  CHECK(Print(IntText(), kBatch, {{{Int(1), Text("a")}}}) ==
        "\n k | v\n---+---\n 1 | a\n\n(1 rows)\n");
}

TEST_CASE("names are left-justified and the header loses its trailing blanks", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"num", Native(TypeKind::kInt)},
                                            {"b", Native(TypeKind::kText)}};
  CHECK(Print(columns, kBatch, {{{Int(0), Text("0x000102030405fffefd")}}}) ==
        "\n"
        " num | b\n"
        "-----+----------------------\n"
        "   0 | 0x000102030405fffefd\n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("null shows as null and empty values as blanks", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"k", Native(TypeKind::kText)},
                                            {"notthere", Native(TypeKind::kInt)},
                                            {"e", Native(TypeKind::kInt)}};
  CHECK(Print(columns, kBatch, {{{Text("k1"), std::nullopt, std::string()}}}) ==
        "\n"
        " k  | notthere | e\n"
        "----+----------+---\n"
        " k1 |     null |  \n"
        "\n"
        "(1 rows)\n");
}

TEST_CASE("an empty result prints the header alone", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"lonelykey", Native(TypeKind::kText)},
                                            {"lonelycol", Native(TypeKind::kText)}};
  SECTION("batch mode: one more empty line before the count") {
    CHECK(Print(columns, kBatch, {{}}) ==
          "\n lonelykey | lonelycol\n-----------+-----------\n\n\n(0 rows)\n");
    CHECK(Print(columns, kBatch, {}) ==
          "\n lonelykey | lonelycol\n-----------+-----------\n\n\n(0 rows)\n");
  }
  SECTION("tty mode") {
    CHECK(Print(columns, kTty, {{}}) ==
          "\n lonelykey | lonelycol\n-----------+-----------\n\n(0 rows)\n");
  }
  SECTION("EXPAND ON prints it as a table too") {
    CHECK(Print(columns, kExpand, {}) ==
          "\n lonelykey | lonelycol\n-----------+-----------\n\n\n(0 rows)\n");
  }
}

TEST_CASE("widths count East Asian wide characters as two columns", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"key", Native(TypeKind::kInt)},
                                            {"modern", Native(TypeKind::kText)},
                                            {"kana", Native(TypeKind::kText)}};
  CHECK(Print(columns, kBatch,
              {{{Int(1), Text("色は匂へど"), Text("いろはにほへと")},
                {Int(4), Text("常ならん"), Text("つねならむ")}}}) ==
        "\n"
        " key | modern     | kana\n"
        "-----+------------+----------------\n"
        "   1 | 色は匂へど | いろはにほへと\n"
        "   4 |   常ならん |     つねならむ\n"
        "\n"
        "(2 rows)\n");
}

TEST_CASE("a wide column name is padded by its display width", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"名前", Native(TypeKind::kText)},
                                            {"n", Native(TypeKind::kInt)}};
  CHECK(Print(columns, kBatch, {{{Text("a"), Int(1)}}}) ==
        "\n 名前 | n\n------+---\n    a | 1\n\n(1 rows)\n");
}

TEST_CASE("batch mode prints later pages without a header, each with its own widths",
          "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"k", Native(TypeKind::kInt)}};
  CHECK(Print(columns, kBatch, {{{Int(1)}, {Int(2)}}, {{Int(100)}}}) ==
        "\n"
        " k\n"
        "---\n"
        " 1\n"
        " 2\n"
        " 100\n"
        "\n"
        "(3 rows)\n");
}

TEST_CASE("tty mode prints each page as a table of its own", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"k", Native(TypeKind::kInt)}};
  CHECK(Print(columns, kTty, {{{Int(1)}}, {{Int(100)}}}) ==
        "\n"
        " k\n"
        "---\n"
        " 1\n"
        "\n"
        " k\n"
        "-----\n"
        " 100\n"
        "\n"
        "(2 rows)\n");
}

TEST_CASE("an empty page after the first prints nothing", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"k", Native(TypeKind::kInt)}};
  CHECK(Print(columns, kBatch, {{{Int(1)}}, {}, {{Int(2)}}}) == "\n k\n---\n 1\n 2\n\n(2 rows)\n");
}

TEST_CASE("a full page of 100 rows and a second page", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"k", Native(TypeKind::kInt)}};
  std::vector<CqlshRow> first;
  std::string expected = "\n k\n----\n";
  for (int i = 0; i < static_cast<int>(kCqlshPageSize); ++i) {
    first.push_back({Int(i)});
    expected += i < 10 ? "  " + std::to_string(i) + "\n" : " " + std::to_string(i) + "\n";
  }
  expected += " 100\n\n(101 rows)\n";
  CqlshResultPrinter printer(columns, kBatch);
  std::string out;
  printer.PrintPage(first, &out);
  printer.PrintPage({{Int(100)}}, &out);
  printer.Finish(&out);
  CHECK(out == expected);
  CHECK(printer.row_count() == 101);
}

TEST_CASE("EXPAND ON prints one record per row, numbered across pages", "[cqlsh_table]") {
  CHECK(Print(IntText(), kExpand, {{{Int(1), Text("abc")}}, {{Int(2), std::nullopt}}}) ==
        "\n"
        "@ Row 1\n"
        "---+-----\n"
        " k | 1\n"
        " v | abc\n"
        "\n"
        "@ Row 2\n"
        "---+------\n"
        " k | 2\n"
        " v | null\n"
        "\n"
        "\n"
        "(2 rows)\n");
}

TEST_CASE("EXPAND ON left-justifies names to the widest one", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"key", Native(TypeKind::kInt)},
                                            {"v", Native(TypeKind::kText)}};
  CqlshPrintOptions options{CqlshLayout::kExpanded, true};
  CHECK(Print(columns, options, {{{Int(7), Text("龍")}}}) ==
        "\n@ Row 1\n-----+----\n key | 7\n v   | 龍\n\n(1 rows)\n");
}

TEST_CASE("every line of a page is as wide as its rule", "[cqlsh_table]") {
  // The rule runs one column past the rows (its closing "-"). Holds whenever
  // cqlsh's widths are the true ones (no empty collections).
  const char* const kPieces[] = {"a", "bb", "龍", "い", "\n", "e\u0301", "\\", "x y"};
  std::mt19937 random(42);
  for (int round = 0; round < 200; ++round) {
    std::vector<CqlshRow> page;
    const int rows = 1 + static_cast<int>(random() % 5);
    for (int r = 0; r < rows; ++r) {
      std::string text;
      for (auto n = random() % 6; n > 0; --n) text += kPieces[random() % 8];
      page.push_back({Int(static_cast<int>(random() % 100000) - 50000), Text(text)});
    }
    std::istringstream lines(Print(IntText(), kTty, {page}));
    std::string line;
    std::getline(lines, line);  // the empty line before the table
    std::getline(lines, line);  // the header, whose trailing blanks are cut
    std::string rule;
    std::getline(lines, rule);
    for (int r = 0; r < rows; ++r) {
      REQUIRE(std::getline(lines, line));
      CHECK(CqlshTextWidth(line) == static_cast<int>(rule.size()) - 1);
    }
  }
}

TEST_CASE("SELECT JSON prints as JSON Lines", "[cqlsh_table]") {
  const std::vector<CqlshColumn> columns = {{"[json]", Native(TypeKind::kText)}};
  CqlshPrintOptions options{CqlshLayout::kJsonLines, false};
  CHECK(Print(columns, options,
              {{{Text("{\"k\": 1, \"v\": \"a\\nb\"}")}}, {{Text("{\"k\": 2, \"v\": null}")}}}) ==
        "{\"k\": 1, \"v\": \"a\\nb\"}\n{\"k\": 2, \"v\": null}\n");
  CHECK(Print(columns, options, {}).empty());
}

}  // namespace
}  // namespace cellfs::fs
