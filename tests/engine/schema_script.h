// Test support: run a CQL script against a Catalog, stopping at the first
// error, and read test data files.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "engine/cql/catalog.h"
#include "engine/cql/cql_parser.h"

namespace cellfs::testing {

// Parses and applies every statement of `script`; returns the first error.
inline Status RunScript(Catalog& catalog, const std::string& script,
                        std::string* keyspace = nullptr) {
  std::string session_keyspace;
  std::string& current = keyspace != nullptr ? *keyspace : session_keyspace;
  CqlParser parser(script);
  while (true) {
    Statement statement;
    bool done = false;
    CELLFS_RETURN_IF_ERROR(parser.Next(&statement, &done));
    if (done) return Status::Ok();
    CELLFS_RETURN_IF_ERROR(catalog.Apply(statement, &current));
  }
}

inline std::string ReadTestFile(const std::string& relative) {
  std::ifstream in(std::string(CELLFS_TEST_DATA_DIR) + "/" + relative, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace cellfs::testing
