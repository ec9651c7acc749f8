// Db: a store with the data-statement tests' schema, running scripts
// through the @cql session and showing what they stored. Shared by
// dml_executor_test.cc and dml_conditions_test.cc.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "fs/formats/cql_session.h"
#include "fs/formats/table_export.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::fs::testing {

using cellfs::testing::FormatPartition;
using cellfs::testing::IntValue;
using cellfs::testing::TestEngine;

inline constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TYPE addr (street text, city text);\n"
    "CREATE TABLE t (p int, c text, v text, n int, s set<text>, l list<int>, "
    "m map<text, int>, a addr, st text static, PRIMARY KEY (p, c));\n"
    "CREATE TABLE c (p int, c int, hits counter, PRIMARY KEY (p, c));\n"
    "CREATE TABLE r (p int, c1 int, c2 int, v int, PRIMARY KEY (p, c1, c2));\n";

class Db {
 public:
  Db() {
    CqlSession schema(db_.engine.get());
    (void)schema.Write(kSchema);
    REQUIRE(schema.transcript().find("ERROR") == std::string::npos);
  }

  // Runs `script` (finished, as a close does) in a new session after
  // "USE ks;\n", and returns its transcript lines but USE's, with error
  // lines counted from the script's first line.
  std::string Run(const std::string& script) {
    CqlSession session(db_.engine.get());
    (void)session.Write("USE ks;\n" + script);
    (void)session.Finish();
    std::string out = session.transcript();
    REQUIRE(out.starts_with("OK USE ks\n"));
    out.erase(0, 10);
    const std::string kError = "ERROR line ";
    for (size_t at = out.find(kError); at != std::string::npos; at = out.find(kError, at + 1)) {
      const size_t digits = at + kError.size();
      const size_t colon = out.find(':', digits);
      const int line = std::stoi(out.substr(digits, colon - digits)) - 1;
      out.replace(digits, colon - digits, std::to_string(line));
    }
    return out;
  }

  // The table as JSON Lines (what @json shows: SELECT JSON's shape).
  std::string Json(const std::string& table) {
    std::string out;
    REQUIRE(ExportTable(*db_.engine, "ks", table, false, [&](std::string_view piece) {
              out += piece;
              return true;
            }).ok());
    return out;
  }

  // Partition p=`p` of `table` with write times, markers and TTLs.
  std::string Stored(const std::string& table, int p) {
    return FormatPartition(db_.engine->NewReadView(), db_.Table("ks", table), {IntValue(p)});
  }

  TestEngine& test() { return db_; }

 private:
  TestEngine db_;
};

}  // namespace cellfs::fs::testing
