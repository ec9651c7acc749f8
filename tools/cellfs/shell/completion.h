// Tab completion for the shell: CQL keywords, keyspace names (the mount's
// directories), table names (a keyspace's directories) and column names
// (from a table's @schema). The choice of candidates is pure; where names
// come from is a NameSource.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// Where completion finds names. Every call may fail quietly (an empty list).
class NameSource {
 public:
  virtual ~NameSource() = default;
  virtual std::vector<std::string> Keyspaces() = 0;
  virtual std::vector<std::string> Tables(const std::string& keyspace) = 0;
  virtual std::vector<std::string> Columns(const std::string& keyspace,
                                           const std::string& table) = 0;
};

// The names completion offers for `word`, the text just before the cursor
// (back to a blank or one of "(),;="), given `before`, the statement typed
// before that word, and the keyspace in use (may be empty):
//  - "ks.pre": the tables of ks that start with "pre", as "ks.table";
//  - otherwise keywords (upper case, or lower case when `word` starts with a
//    lower-case letter), keyspaces, the tables of the keyspace in use, and
//    the columns of every table the statement names after FROM, INTO,
//    UPDATE, TABLE or COPY — those starting with `word` (keywords without
//    regard to case; none for an empty word), sorted, each once.
std::vector<std::string> CompletionCandidates(std::string_view before, std::string_view word,
                                              const std::string& keyspace, NameSource& names);

// The longest prefix all `candidates` share ("" for none).
std::string CommonPrefix(const std::vector<std::string>& candidates);

// The column names of a table's @schema text (a CREATE TABLE statement as
// DESCRIBE prints it: one "    name type[ static]," line per column), in
// order, without quotes. Empty when the text is not of that shape.
std::vector<std::string> SchemaColumns(std::string_view create_table);

}  // namespace cellfs::tools::shell
