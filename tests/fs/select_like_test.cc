// SELECT ... WHERE col LIKE 'pattern' through SASI indexes (fs/cql/select_like.h),
// checked against an independent model of Cassandra's rules: the pattern's
// one leading and one trailing % are wildcards (a prefix, a suffix, a
// substring, or with neither the whole value), any other % is itself; values
// compare byte for byte; a null never matches. Rows come as a scan gives
// them (token order, then clustering order). Then the refusals, in
// Cassandra's words.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fs/formats/cql_session.h"
#include "tests/engine/engine_test_util.h"
#include "tests/fs/printed_table.h"

namespace cellfs::fs {
namespace {

using testing::ParseTable;
using testing::Printed;
using testing::Row;

struct LikeDb {
  testing::TestEngine db;
  CqlSession session{db.engine.get()};

  Printed Run(const std::string& query) {
    CqlSession select(db.engine.get());
    (void)select.Write(query);
    return ParseTable(select.transcript());
  }
  void Write(const std::string& cql) {
    (void)session.Write(cql);
    INFO(session.transcript());
    REQUIRE(session.transcript().find("ERROR") == std::string::npos);
  }
};

// The model's reading of a pattern: does `value` match it?
bool ModelMatches(const std::string& pattern, const std::string& value) {
  const bool lead = pattern.front() == '%';
  const bool trail = pattern.size() > 1 && pattern.back() == '%';
  std::string term = pattern.substr(lead ? 1 : 0);
  if (trail || (!lead && pattern.back() == '%')) term.pop_back();
  if (lead && trail) return value.find(term) != std::string::npos;
  if (lead) return value.size() >= term.size() && value.ends_with(term);
  if (pattern.back() == '%') return value.starts_with(term);
  return value == term;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "CREATE TABLE ks.people (id int, at int, name text, bio text, PRIMARY KEY (id, at));\n"
    "CREATE CUSTOM INDEX name_idx ON ks.people (name) "
    "USING 'org.apache.cassandra.index.sasi.SASIIndex';\n"
    "CREATE CUSTOM INDEX bio_idx ON ks.people (bio) "
    "USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'};\n";

TEST_CASE("LIKE through SASI indexes answers what the model does, in a scan's order",
          "[select][like]") {
  // With prefixes whose last character ends in byte 0xBF (Cyrillic pe,
  // U+00BF) or is the last code point: the index slice's upper end is the
  // next code point, never invalid UTF-8.
  const std::vector<std::string> words = {"ab",
                                          "abc",
                                          "abd",
                                          "b",
                                          "ba%x",
                                          "a%",
                                          "",
                                          "x",
                                          "xab",
                                          "abab",
                                          "\xc3\xa9t\xc3\xa9",
                                          "\xc3\xa9",
                                          "zz",
                                          "a b",
                                          "\xd0\xbf",
                                          "\xd0\xbf\xd0\xb0",
                                          "\xc2\xbf",
                                          "\xc2\xbf"
                                          "a",
                                          "\xf4\x8f\xbf\xbf",
                                          "a\xf4\x8f\xbf\xbf"};
  std::mt19937 rng(Catch::rngSeed());
  LikeDb f;
  f.Write(kSchema);
  // The model: (id, at) -> {name, bio}, absent values as nullopt.
  std::map<std::pair<int, int>, std::pair<std::optional<std::string>, std::optional<std::string>>>
      model;
  auto pick = [&] { return words[rng() % words.size()]; };
  for (int step = 0; step < 400; ++step) {
    const int id = static_cast<int>(rng() % 15);
    const int at = static_cast<int>(rng() % 4);
    const std::string where =
        " WHERE id = " + std::to_string(id) + " AND at = " + std::to_string(at) + ";";
    switch (rng() % 6) {
      case 0:
        f.Write("DELETE FROM ks.people" + where);
        model.erase({id, at});
        break;
      case 1:
        f.Write("DELETE name FROM ks.people" + where);
        if (model.count({id, at})) model[{id, at}].first.reset();
        break;
      default: {
        const std::string name = pick();
        const std::string bio = pick() + pick();
        f.Write("INSERT INTO ks.people (id, at, name, bio) VALUES (" + std::to_string(id) + ", " +
                std::to_string(at) + ", " + Quote(name) + ", " + Quote(bio) + ");");
        model[{id, at}] = {name, bio};
      }
    }
  }
  // The scan's order of every row: token order, then clustering order.
  const Printed all = f.Run("SELECT id, at FROM ks.people;");
  REQUIRE(all.error.empty());
  REQUIRE(all.rows.size() == model.size());

  std::vector<std::pair<std::string, std::string>> queries;  // column, pattern
  for (const std::string& word : words) {
    if (word.empty()) continue;
    queries.push_back({"name", word + "%"});
    queries.push_back({"name", word});
    queries.push_back({"bio", word + "%"});
    queries.push_back({"bio", "%" + word});
    queries.push_back({"bio", "%" + word + "%"});
    queries.push_back({"bio", word + word});
  }
  queries.push_back({"name", "ba%%"});  // a prefix: the term is "ba%"
  queries.push_back({"bio", "%%%"});    // a substring: "%"
  size_t matched = 0;
  for (const auto& [column, pattern] : queries) {
    INFO(column << " LIKE " << pattern);
    const Printed got =
        f.Run("SELECT id, at FROM ks.people WHERE " + column + " LIKE " + Quote(pattern) + ";");
    REQUIRE(got.error.empty());
    std::vector<Row> expected;
    for (const Row& row : all.rows) {
      const auto& cells = model.at({std::stoi(row[0]), std::stoi(row[1])});
      const std::optional<std::string>& value = column == "name" ? cells.first : cells.second;
      if (value && ModelMatches(pattern, *value)) expected.push_back(row);
    }
    CHECK(got.rows == expected);
    matched += expected.size();
  }
  CHECK(matched > 100);  // the patterns do match rows

  // Beside the partition key, and beside another LIKE with ALLOW FILTERING.
  const Printed one = f.Run("SELECT id, at FROM ks.people WHERE id = 3 AND name LIKE 'a%';");
  REQUIRE(one.error.empty());
  for (const Row& row : one.rows) {
    CHECK(row[0] == "3");
    CHECK(model.at({3, std::stoi(row[1])}).first->starts_with("a"));
  }
  const Printed both = f.Run(
      "SELECT id, at FROM ks.people WHERE name LIKE 'ab%' AND bio LIKE '%b%' ALLOW FILTERING;");
  REQUIRE(both.error.empty());
  size_t expected_both = 0;
  for (const auto& [key, cells] : model) {
    expected_both += cells.first && cells.first->starts_with("ab") &&
                     cells.second->find('b') != std::string::npos;
  }
  CHECK(both.rows.size() == expected_both);
}

TEST_CASE("LIKE refusals are Cassandra's", "[select][like]") {
  LikeDb f;
  f.Write(kSchema);
  f.Write(
      "CREATE CUSTOM INDEX ON ks.people (at) USING 'org.apache.cassandra.index.sasi.SASIIndex';");
  auto error = [&](const std::string& query) { return f.Run(query + ";").error; };
  // A PREFIX-mode index answers prefixes and whole values only.
  CHECK_THAT(
      error("SELECT * FROM ks.people WHERE name LIKE '%ab'"),
      Catch::Contains("name LIKE '%<term>' ab is only supported on properly indexed columns"));
  CHECK_THAT(error("SELECT * FROM ks.people WHERE name LIKE '%ab%'"),
             Catch::Contains("name LIKE '%<term>%' ab is only supported on properly indexed "
                             "columns"));
  CHECK(error("SELECT * FROM ks.people WHERE name LIKE 'ab'").empty());
  CHECK(error("SELECT * FROM ks.people WHERE bio LIKE 'ab'").empty());
  for (const char* empty : {"''", "'%'", "'%%'"}) {
    CHECK_THAT(error(std::string("SELECT * FROM ks.people WHERE name LIKE ") + empty),
               Catch::Contains("LIKE value can't be empty."));
  }
  CHECK_THAT(error("SELECT * FROM ks.people WHERE name LIKE 5"),
             Catch::Contains("Invalid INTEGER constant (5) for \"name\" of type text"));
  CHECK_THAT(error("SELECT * FROM ks.people WHERE name LIKE null"),
             Catch::Contains("Invalid null value in condition for column name"));
  CHECK_THAT(error("SELECT * FROM ks.people WHERE at LIKE 'ab%'"),
             Catch::Contains("Index on column at does not support LIKE restrictions."));
}

// The ids a query printed, sorted.
std::vector<std::string> Ids(const Printed& printed) {
  std::vector<std::string> ids;
  for (const Row& row : printed.rows) ids.push_back(row[0]);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// The ids `SELECT id FROM ks.users WHERE <where>` returns; CHECKs that it
// is not refused.
std::vector<std::string> IdsWhere(LikeDb& f, const std::string& where) {
  const Printed printed = f.Run("SELECT id FROM ks.users WHERE " + where + ";");
  INFO(where << ": " << printed.error);
  CHECK(printed.error.empty());
  return Ids(printed);
}

TEST_CASE("a SASI index with NonTokenizingAnalyzer compares analysed values, as Cassandra",
          "[select][like]") {
  LikeDb f;
  f.Write(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TABLE ks.users (id int PRIMARY KEY, first text, last text, code text, tag text,\n"
      "  raw text);\n"
      // The KillrVideo sample's index: case-insensitive.
      "CREATE CUSTOM INDEX ON ks.users (first) USING 'org.apache.cassandra.index.sasi.SASIIndex' "
      "WITH OPTIONS = {'analyzer_class': "
      "'org.apache.cassandra.index.sasi.analyzer.NonTokenizingAnalyzer', 'case_sensitive': "
      "'false'};\n"
      "CREATE CUSTOM INDEX ON ks.users (last) USING 'org.apache.cassandra.index.sasi.SASIIndex' "
      "WITH OPTIONS = {'mode': 'CONTAINS', 'analyzer_class': "
      "'org.apache.cassandra.index.sasi.analyzer.NonTokenizingAnalyzer', "
      "'normalize_uppercase': 'true'};\n"
      // Case-sensitive: only NFC.
      "CREATE CUSTOM INDEX ON ks.users (code) USING 'org.apache.cassandra.index.sasi.SASIIndex' "
      "WITH OPTIONS = {'analyzer_class': "
      "'org.apache.cassandra.index.sasi.analyzer.NonTokenizingAnalyzer'};\n"
      "CREATE CUSTOM INDEX ON ks.users (tag) USING 'org.apache.cassandra.index.sasi.SASIIndex' "
      "WITH OPTIONS = {'analyzer_class': "
      "'org.apache.cassandra.index.sasi.analyzer.StandardAnalyzer'};\n"
      // Not literal: only the query's value is analysed.
      "CREATE CUSTOM INDEX ON ks.users (raw) USING 'org.apache.cassandra.index.sasi.SASIIndex' "
      "WITH OPTIONS = {'analyzer_class': "
      "'org.apache.cassandra.index.sasi.analyzer.NonTokenizingAnalyzer', 'case_sensitive': "
      "'false', 'is_literal': 'false'};\n");
  // 5: É precomposed; 6: E + combining acute (the same text after NFC).
  const char* rows[][3] = {{"1", "Bob", "Smith"},         {"2", "bob", "smithers"},
                           {"3", "BOB", "Blacksmith"},    {"4", "Bobby", "Jones"},
                           {"5", "\xc3\x89mile", "Zola"}, {"6", "E\xcc\x81mile", "zola"},
                           {"7", "Robert", "SMITH"}};
  for (const auto& row : rows) {
    f.Write(std::string("INSERT INTO ks.users (id, first, last, code, tag, raw) VALUES (") +
            row[0] + ", '" + row[1] + "', '" + row[2] + "', '" + row[1] + "', '" + row[2] + "', '" +
            row[1] + "');");
  }
  auto ids = [&](const std::string& where) { return IdsWhere(f, where); };
  using V = std::vector<std::string>;
  CHECK(ids("first = 'bob'") == V{"1", "2", "3"});
  CHECK(ids("first = 'BoB'") == V{"1", "2", "3"});
  CHECK(ids("first LIKE 'bo%'") == V{"1", "2", "3", "4"});
  CHECK(ids("first = '\xc3\xa9mile'") == V{"5", "6"});  // lower case, precomposed
  CHECK(ids("first = 'e\xcc\x81MILE'") == V{"5", "6"});
  CHECK(ids("id = 3 AND first = 'bob'") == V{"3"});
  CHECK(ids("first IN ('bob')") == V{"1", "2", "3"});  // one value: an =
  // Not literal: 'BOB' analysed to 'bob', compared with the raw values.
  CHECK(ids("raw = 'BOB'") == V{"2"});
  // Upper-cased values: a substring in any case.
  CHECK(ids("last LIKE '%smith%'") == V{"1", "2", "3", "7"});
  CHECK(ids("last LIKE '%ZOLA'") == V{"5", "6"});
  // Case-sensitive, NFC only.
  CHECK(ids("code = 'bob'") == V{"2"});
  CHECK(ids("code = '\xc3\x89mile'") == V{"5", "6"});
  // A tokenizing analyser answers no equality (ALLOW FILTERING compares
  // exactly), and cellfs does not split text into tokens for LIKE.
  CHECK_THAT(f.Run("SELECT id FROM ks.users WHERE tag = 'Smith';").error,
             Catch::Contains("Column 'tag' has an index but does not support the operators"));
  CHECK(ids("tag = 'Smith' ALLOW FILTERING") == V{"1"});
  CHECK_THAT(f.Run("SELECT id FROM ks.users WHERE tag LIKE 'Smi%';").error,
             Catch::Contains("whose analyzer splits values into tokens, is not supported"));
}

TEST_CASE("an SAI index with case_sensitive or normalize compares analysed values, as Cassandra",
          "[select][sai]") {
  LikeDb f;
  f.Write(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TABLE ks.users (id int PRIMARY KEY, folded text, nfc text, both text, exact text,\n"
      "  score int);\n"
      "CREATE INDEX ON ks.users (folded) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'};\n"
      "CREATE CUSTOM INDEX ON ks.users (nfc) USING 'StorageAttachedIndex' "
      "WITH OPTIONS = {'normalize': 'TRUE'};\n"
      "CREATE INDEX ON ks.users (both) USING 'sai' "
      "WITH OPTIONS = {'case_sensitive': 'false', 'normalize': 'true'};\n"
      // Default values: no analysis.
      "CREATE INDEX ON ks.users (exact) USING 'sai' "
      "WITH OPTIONS = {'case_sensitive': 'true', 'normalize': 'false', 'ascii': 'false'};\n"
      "CREATE INDEX ON ks.users (score) USING 'sai';\n");
  // 5: É precomposed; 6: E + combining acute (the same text after NFC).
  const char* values[] = {"Bob", "bob", "BOB", "Bobby", "\xc3\x89mile", "E\xcc\x81mile"};
  for (int i = 0; i < 6; ++i) {
    const std::string v = values[i];
    f.Write("INSERT INTO ks.users (id, folded, nfc, both, exact, score) VALUES (" +
            std::to_string(i + 1) + ", '" + v + "', '" + v + "', '" + v + "', '" + v + "', " +
            std::to_string(i % 2) + ");");
  }
  auto ids = [&](const std::string& where) { return IdsWhere(f, where); };
  using V = std::vector<std::string>;
  // Lower case without NFC: the two spellings of Émile stay apart.
  CHECK(ids("folded = 'BOB'") == V{"1", "2", "3"});
  CHECK(ids("folded = '\xc3\xa9MILE'") == V{"5"});
  CHECK(ids("folded = 'e\xcc\x81mile'") == V{"6"});
  // NFC, case kept.
  CHECK(ids("nfc = 'bob'") == V{"2"});
  CHECK(ids("nfc = 'E\xcc\x81mile'") == V{"5", "6"});
  // Both.
  CHECK(ids("both = '\xc3\xa9MILE'") == V{"5", "6"});
  CHECK(ids("both = 'bOb'") == V{"1", "2", "3"});
  // Options at their defaults analyse nothing.
  CHECK(ids("exact = 'bob'") == V{"2"});
  CHECK(ids("exact = '\xc3\x89mile'") == V{"5"});
  // With another index's restriction (two indexes: 4.x's rule asks for
  // ALLOW FILTERING) the analysed comparison still holds.
  CHECK(ids("score = 0 AND folded = 'bob' ALLOW FILTERING") == V{"1", "3"});
  // SAI's text indexes answer no ranges or LIKE.
  CHECK_THAT(f.Run("SELECT id FROM ks.users WHERE folded > 'a';").error,
             Catch::Contains("Column 'folded' has an index but does not support the operators"));
  CHECK_THAT(f.Run("SELECT id FROM ks.users WHERE folded LIKE 'b%';").error,
             Catch::Contains("Index on column folded does not support LIKE restrictions."));
}

TEST_CASE("m[key] = value answers what the model does, through an ENTRIES index or filtering",
          "[select][map_entry]") {
  LikeDb f;
  f.Write(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TABLE ks.t (id int, at int, m map<text, int>, PRIMARY KEY (id, at));\n"
      "CREATE TABLE ks.u (id int, at int, m map<text, int>, PRIMARY KEY (id, at));\n"
      "CREATE INDEX ON ks.t (entries(m));\n");
  std::mt19937 rng(Catch::rngSeed());
  const char* keys[] = {"a", "b", "c"};
  std::map<std::pair<int, int>, std::map<std::string, int>> model;
  for (int step = 0; step < 300; ++step) {
    const int id = static_cast<int>(rng() % 10);
    const int at = static_cast<int>(rng() % 3);
    const std::string key = keys[rng() % 3];
    const int value = static_cast<int>(rng() % 3);
    const std::string where =
        " WHERE id = " + std::to_string(id) + " AND at = " + std::to_string(at) + ";";
    std::string statement;
    switch (rng() % 4) {
      case 0:
        statement = "DELETE m['" + key + "'] FROM %T" + where;
        if (model.count({id, at})) model[{id, at}].erase(key);
        break;
      case 1:
        statement = "DELETE FROM %T" + where;
        model.erase({id, at});
        break;
      default:
        statement = "UPDATE %T SET m['" + key + "'] = " + std::to_string(value) + where;
        model[{id, at}][key] = value;
    }
    for (const char* table : {"ks.t", "ks.u"}) {
      std::string cql = statement;
      cql.replace(cql.find("%T"), 2, table);
      f.Write(cql);
    }
  }
  // A row whose map lost every element is gone (no row marker).
  for (auto it = model.begin(); it != model.end();) {
    it = it->second.empty() ? model.erase(it) : std::next(it);
  }
  const Printed all = f.Run("SELECT id, at FROM ks.t;");
  REQUIRE(all.error.empty());
  REQUIRE(all.rows.size() == model.size());
  for (const char* key : keys) {
    for (int value = 0; value < 3; ++value) {
      const std::string where = " WHERE m['" + std::string(key) + "'] = " + std::to_string(value);
      INFO(where);
      std::vector<Row> expected;
      for (const Row& row : all.rows) {
        const auto& map = model.at({std::stoi(row[0]), std::stoi(row[1])});
        auto found = map.find(key);
        if (found != map.end() && found->second == value) expected.push_back(row);
      }
      const Printed indexed = f.Run("SELECT id, at FROM ks.t" + where + ";");
      REQUIRE(indexed.error.empty());
      CHECK(indexed.rows == expected);
      const Printed filtered = f.Run("SELECT id, at FROM ks.t" + where + " ALLOW FILTERING;");
      CHECK(filtered.rows == expected);
      // The table without the index, read in its own token order: the same rows.
      const Printed plain = f.Run("SELECT id, at FROM ks.u" + where + " ALLOW FILTERING;");
      CHECK(Ids(plain) == Ids(indexed));
    }
  }
  auto error = [&](const std::string& query) { return f.Run(query + ";").error; };
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m[null] = 1"),
             Catch::Contains("Unsupported null map key for column m"));
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m['a'] = null"),
             Catch::Contains("Unsupported null map value for column m"));
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m[1] = 1"),
             Catch::Contains("Invalid INTEGER constant (1) for \"key(m)\" of type text"));
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m['a'] = 'x'"),
             Catch::Contains("Invalid STRING constant (x) for \"value(m)\" of type int"));
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m CONTAINS 'x' ALLOW FILTERING"),
             Catch::Contains("Invalid STRING constant (x) for \"value(m)\" of type int"));
  CHECK_THAT(error("SELECT * FROM ks.t WHERE m CONTAINS KEY 1 ALLOW FILTERING"),
             Catch::Contains("Invalid INTEGER constant (1) for \"key(m)\" of type text"));
}

}  // namespace
}  // namespace cellfs::fs
