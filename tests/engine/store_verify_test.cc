// Engine::Verify (`cellfs verify`): a store written through the engine is
// sound, with every kind of entry counted; bytes written behind the
// engine's back (a key or value that does not decode, data of an unknown
// table, an expiry entry naming no table) are each a fault.
#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using testing::TestEngine;
using testing::Value;

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "USE ks;\n"
    "CREATE TABLE t (id int, at int, v text, PRIMARY KEY (id, at));\n"
    "CREATE INDEX ON t (v);\n"
    "CREATE MATERIALIZED VIEW by_v AS SELECT v, id, at FROM t "
    "WHERE v IS NOT NULL AND id IS NOT NULL AND at IS NOT NULL PRIMARY KEY (v, id, at);\n";

std::string U32(uint32_t v) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
  return out;
}

void Write(TestEngine& db, int id, int at, const std::string& v, uint32_t ttl) {
  TableHandle t = db.Table("ks", "t");
  const size_t column = testing::ColumnIndexOf(*t, "v");
  WriteAttributes attributes;
  if (ttl != 0) attributes.ttl = ttl;
  Mutation m = db.engine->NewMutation();
  REQUIRE(m.Insert(t, std::vector{testing::IntValue(id)}, std::vector{testing::IntValue(at)},
                   std::vector<ColumnValue>{{column, Value(*t->column(column).type, v)}},
                   attributes)
              .ok());
  REQUIRE(db.engine->Apply(std::move(m)).ok());
}

TEST_CASE("verify finds a store written by the engine sound, and each foreign entry a fault",
          "[verify]") {
  TestEngine db;
  db.Ddl(kSchema);
  for (int id = 0; id < 20; ++id) Write(db, id, 1, "v" + std::to_string(id % 4), id % 2 ? 60 : 0);

  VerifyReport report;
  REQUIRE(db.engine->Verify(&report).ok());
  CHECK(report.sound());
  CHECK(report.data_entries == 20);
  CHECK(report.index_entries == 20);
  CHECK(report.view_entries == 20);
  CHECK(report.expiry_entries >= 10);  // the TTL'd rows' due seconds
  CHECK(report.fault_lines.empty());

  // Entries written behind the engine's back.
  const uint32_t table_id = db.Table("ks", "t")->id;
  db.Close();
  {
    leveldb::Options options;
    options.env = db.env();
    leveldb::DB* raw = nullptr;
    REQUIRE(leveldb::DB::Open(options, "/db", &raw).ok());
    std::unique_ptr<leveldb::DB> store(raw);
    std::string some_key;
    {
      std::unique_ptr<leveldb::Iterator> it(store->NewIterator(leveldb::ReadOptions()));
      it->Seek("D" + U32(table_id));
      REQUIRE(it->Valid());
      some_key = it->key().ToString();
    }
    leveldb::WriteBatch batch;
    batch.Put("D" + U32(table_id) + "\x01", "");  // a key that does not decode
    std::string bad_value = some_key;
    bad_value.back() = static_cast<char>(bad_value.back() + 1);  // another sequence
    batch.Put(bad_value, "\xff\xff\xff");                        // a value that does not
    batch.Put("D" + U32(9999) + std::string(12, 'x'), "");       // an unknown table
    batch.Put("X" + std::string(8, '\x80') + "D" + U32(9999) + std::string(12, 'x'), "");
    REQUIRE(store->Write(leveldb::WriteOptions(), &batch).ok());
  }
  db.Reopen();
  REQUIRE(db.engine->Verify(&report).ok());
  CHECK_FALSE(report.sound());
  CHECK(report.faults == 4);
  REQUIRE(report.fault_lines.size() == 4);
  std::string all;
  for (const std::string& line : report.fault_lines) all += line + "\n";
  INFO(all);
  CHECK(all.find("id 9999 is neither in the schema nor dropped") != std::string::npos);
  CHECK(all.find("names table id 9999, which does not exist") != std::string::npos);
  CHECK(all.find("value: ") != std::string::npos);

  // A dropped table's data is kept by its snapshot and still decoded
  // against the table as it was: its two bad entries stay faults. The
  // index's and the view's entries are the sweeper's.
  db.Ddl("DROP MATERIALIZED VIEW by_v; DROP TABLE t;");
  REQUIRE(db.engine->Verify(&report).ok());
  CHECK(report.faults == 4);
  CHECK(report.snapshot_entries == 22);
  CHECK(report.dropped_entries == 40);
  // Cleared, the snapshot's data is the sweeper's, not faults.
  std::vector<SnapshotInfo> kept;
  REQUIRE(db.engine->Snapshots(&kept).ok());
  REQUIRE(kept.size() == 1);
  REQUIRE(db.engine->ClearSnapshot(kept[0].name).ok());
  REQUIRE(db.engine->Verify(&report).ok());
  CHECK(report.faults == 2);  // the unknown table's data and expiry entry stay faults
  CHECK(report.snapshot_entries == 0);
  CHECK(report.dropped_entries == 62);
}

}  // namespace
}  // namespace cellfs
