// CQL identifier quoting, with Cassandra's reserved keyword list.
#include "engine/cql/cql_identifier.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace cellfs {
namespace {

// Cassandra's reserved keywords (ReservedKeywords.java), lower-case, sorted.
constexpr std::array<std::string_view, 61> kReserved = {
    "add",    "allow",       "alter",  "and",          "apply",    "asc",      "authorize",
    "batch",  "begin",       "by",     "columnfamily", "create",   "default",  "delete",
    "desc",   "describe",    "drop",   "entries",      "execute",  "from",     "full",
    "grant",  "if",          "in",     "index",        "infinity", "insert",   "into",
    "is",     "keyspace",    "limit",  "materialized", "mbean",    "mbeans",   "modify",
    "nan",    "norecursive", "not",    "null",         "of",       "on",       "or",
    "order",  "primary",     "rename", "replace",      "revoke",   "schema",   "select",
    "set",    "table",       "to",     "token",        "truncate", "unlogged", "unset",
    "update", "use",         "using",  "view",         "where",
};

}  // namespace

bool IsReservedKeyword(std::string_view word) {
  std::string lower(word);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::binary_search(kReserved.begin(), kReserved.end(), lower);
}

std::string QuoteIdentifier(std::string_view name) {
  bool bare = !name.empty() && name[0] >= 'a' && name[0] <= 'z';
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) bare = false;
  }
  if (bare && !IsReservedKeyword(name)) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace cellfs
