// Choosing completions: the keyword list, the names a statement mentions,
// and the column lines of a CREATE TABLE.
#include "tools/cellfs/shell/completion.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "tools/cellfs/shell/text_case.h"

namespace cellfs::tools::shell {
namespace {

// CQL's words (Cassandra 4.x statements and clauses) and the shell's own.
constexpr std::string_view kKeywords[] = {
    "ADD", "AGGREGATE", "ALL", "ALLOW", "ALTER", "AND", "APPLY", "AS", "ASC", "BATCH", "BEGIN",
    "BY", "CLUSTERING", "COMPACT", "CONTAINS", "COPY", "COUNT", "CREATE", "DELETE", "DESC",
    "DESCRIBE", "DISTINCT", "DROP", "DURABLE_WRITES", "ENTRIES", "EXISTS", "EXIT", "EXPAND",
    "FILTERING", "FROM", "FULL", "FUNCTION", "HEADER", "HELP", "IF", "IN", "INDEX", "INSERT",
    "INTO", "JSON", "KEY", "KEYS", "KEYSPACE", "KEYSPACES", "LIMIT", "LIST", "MAP", "NOT", "NULL",
    "OFF", "ON", "OR", "ORDER", "PAGING", "PARTITION", "PER", "PRIMARY", "QUIT", "RENAME",
    "REPLICATION", "SCHEMA", "SELECT", "SET", "SOURCE", "STATIC", "TABLE", "TABLES", "TIMESTAMP",
    "TO", "TOKEN", "TRUNCATE", "TTL", "TUPLE", "TYPE", "TYPES", "UNLOGGED", "UPDATE", "USE",
    "USING", "VALUES", "WHERE", "WITH", "WRITETIME",
    // types
    "ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double", "duration",
    "float", "frozen", "inet", "int", "list", "set", "smallint", "text", "time", "timestamp",
    "timeuuid", "tinyint", "uuid", "varchar", "varint"};

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The words of `text` split at blanks and punctuation other than '.', '_'
// and '"'.
std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '"') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::string Unquote(std::string_view name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    return std::string(name.substr(1, name.size() - 2));
  }
  return Lower(name);
}

// Adds the columns of each table named after FROM, INTO, UPDATE, TABLE or COPY.
void AddMentionedColumns(std::string_view before, const std::string& keyspace, NameSource& names,
                         std::vector<std::string>* out) {
  const std::vector<std::string> words = Words(before);
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string keyword = Upper(words[i]);
    if (keyword != "FROM" && keyword != "INTO" && keyword != "UPDATE" && keyword != "TABLE" &&
        keyword != "COPY") {
      continue;
    }
    const std::string& name = words[i + 1];
    const size_t dot = name.find('.');
    const std::string ks = dot == std::string::npos ? keyspace : Unquote(name.substr(0, dot));
    const std::string table = Unquote(
        dot == std::string::npos ? std::string_view(name) : std::string_view(name).substr(dot + 1));
    if (ks.empty() || table.empty()) continue;
    for (std::string& column : names.Columns(ks, table)) out->push_back(std::move(column));
  }
}

}  // namespace

std::vector<std::string> CompletionCandidates(std::string_view before, std::string_view word,
                                              const std::string& keyspace, NameSource& names) {
  std::set<std::string> found;
  const size_t dot = word.find('.');
  if (dot != std::string_view::npos) {
    const std::string ks = Unquote(word.substr(0, dot));
    const std::string_view prefix = word.substr(dot + 1);
    for (const std::string& table : names.Tables(ks)) {
      if (StartsWith(table, prefix)) found.insert(std::string(word.substr(0, dot + 1)) + table);
    }
    return {found.begin(), found.end()};
  }
  const bool lower = !word.empty() && std::islower(static_cast<unsigned char>(word[0]));
  for (std::string_view keyword : kKeywords) {
    // Every keyword for an empty word would bury the names it is after.
    if (word.empty() || !StartsWith(Upper(keyword), Upper(word))) continue;
    found.insert(lower ? Lower(keyword) : std::string(keyword));
  }
  std::vector<std::string> named = names.Keyspaces();
  if (!keyspace.empty()) {
    for (std::string& table : names.Tables(keyspace)) named.push_back(std::move(table));
  }
  AddMentionedColumns(before, keyspace, names, &named);
  for (const std::string& name : named) {
    if (StartsWith(name, word)) found.insert(name);
  }
  return {found.begin(), found.end()};
}

std::string CommonPrefix(const std::vector<std::string>& candidates) {
  if (candidates.empty()) return "";
  std::string prefix = candidates.front();
  for (const std::string& candidate : candidates) {
    size_t n = 0;
    while (n < prefix.size() && n < candidate.size() && prefix[n] == candidate[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

std::vector<std::string> SchemaColumns(std::string_view create_table) {
  std::vector<std::string> columns;
  size_t start = create_table.find("(\n");
  if (!StartsWith(create_table, "CREATE TABLE ") || start == std::string_view::npos) return {};
  start += 2;
  while (start < create_table.size()) {
    size_t end = create_table.find('\n', start);
    if (end == std::string_view::npos) end = create_table.size();
    std::string_view line = create_table.substr(start, end - start);
    start = end + 1;
    if (!StartsWith(line, "    ") || StartsWith(line, "    PRIMARY KEY")) break;
    line.remove_prefix(4);
    if (!line.empty() && line.front() == '"') {
      // "a ""quoted"" name": up to the quote not doubled.
      std::string name;
      size_t i = 1;
      for (; i < line.size(); ++i) {
        if (line[i] != '"') {
          name += line[i];
        } else if (i + 1 < line.size() && line[i + 1] == '"') {
          name += '"';
          ++i;
        } else {
          break;
        }
      }
      columns.push_back(name);
    } else {
      columns.emplace_back(line.substr(0, line.find(' ')));
    }
  }
  return columns;
}

}  // namespace cellfs::tools::shell
