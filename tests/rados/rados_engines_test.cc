// Two engines over one RADOS store, as two mounts on two hosts would be
// (the test cluster of CTest's `ceph` fixture): a schema change on one is
// in the other's schema when the change returns, the other's listener is
// told what changed, tables made on both at once all exist afterwards with
// distinct ids, a write through one reads back through the other, and a
// the write fence of a shared store does not latch.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs {
namespace {

using Key = std::vector<std::string>;

const std::string kKeyspace =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

std::string FreshStore() {
  static int made = 0;
  return std::string("rados:cellfs?conf=") + std::getenv("CEPH_CONF") + "&ns=engines-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
         std::to_string(made++);
}

std::unique_ptr<Engine> OpenEngine(const std::string& store) {
  EngineOptions options;
  options.background_sweeper = false;
  auto opened = Engine::Open(store, options);
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  return std::move(opened).value();
}

TEST_CASE("a schema change on one engine is in the other's when it returns", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  CHECK(!a->views_are_snapshots());
  std::vector<SchemaReload> told;
  std::mutex told_mutex;
  b->SetSchemaListener([&](const SchemaReload& reload) {
    std::lock_guard lock(told_mutex);
    told.push_back(reload);
  });
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace + "CREATE TABLE ks.t (k int PRIMARY KEY, v text);", &keyspace);
  // No waiting: the change returned once b had reloaded.
  REQUIRE(b->FindTable("ks", "t").ok());
  {
    std::lock_guard lock(told_mutex);
    REQUIRE(told.size() == 2);  // the keyspace, then the table
    CHECK(told[1].before->FindTable("ks", "t") == nullptr);
    CHECK(told[1].after->FindTable("ks", "t") != nullptr);
  }
  const uint32_t id = a->FindTable("ks", "t").value()->id;
  CHECK(b->FindTable("ks", "t").value()->id == id);

  testing::RunDdl(b.get(), "DROP TABLE ks.t; CREATE TABLE ks.t (k int PRIMARY KEY, w int);",
                  &keyspace);
  auto remade = a->FindTable("ks", "t");
  REQUIRE(remade.ok());
  CHECK(remade.value()->id != id);  // a new table, a new id, seen by both
  CHECK(remade.value()->id == b->FindTable("ks", "t").value()->id);
  b->SetSchemaListener(nullptr);
}

TEST_CASE("tables made on two engines at once all exist, with distinct ids", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace, &keyspace);
  constexpr int kEach = 6;
  auto make = [&](Engine* engine, const char* prefix) {
    for (int i = 0; i < kEach; ++i) {
      const Status made =
          testing::RunCql(engine, "CREATE TABLE ks." + std::string(prefix) + std::to_string(i) +
                                      " (k int PRIMARY KEY, v text);");
      CHECK(made.ok());
    }
  };
  // Two threads on each engine: the threads of one mount share its client,
  // and so its hold on the cluster's ddl lock.
  std::thread on_a(make, a.get(), "a");
  std::thread on_b(make, b.get(), "b");
  std::thread on_a2(make, a.get(), "c");
  std::thread on_b2(make, b.get(), "d");
  on_a.join();
  on_b.join();
  on_a2.join();
  on_b2.join();
  for (Engine* engine : {a.get(), b.get()}) {
    std::set<uint32_t> ids;
    for (const char* prefix : {"a", "b", "c", "d"}) {
      for (int i = 0; i < kEach; ++i) {
        auto table = engine->FindTable("ks", prefix + std::to_string(i));
        INFO(prefix << i);
        REQUIRE(table.ok());
        ids.insert(table.value()->id);
      }
    }
    CHECK(ids.size() == 4 * kEach);
  }
  // And a third engine, opened afresh, loads the same.
  auto c = OpenEngine(store);
  CHECK(c->catalog()->FindKeyspace("ks")->tables.size() == 4 * kEach);
}

// Key values of `table` from its column `first` on, from CQL literals.
Key Values(const TableHandle& table, size_t first, const std::vector<std::string>& literals) {
  Key key;
  for (size_t i = 0; i < literals.size(); ++i) {
    key.push_back(testing::Value(*table->column(first + i).type, literals[i]));
  }
  return key;
}

// The clustering keys of the partition's live rows, comma-joined.
std::string RowsOf(const ReadView& view, const TableHandle& table, const Key& pk) {
  auto made = view.NewRowIterator(table, pk);
  REQUIRE(made.ok());
  std::string rows;
  for (RowIterator& it = **made; it.Valid(); it.Next()) {
    std::vector<std::string> clustering;
    REQUIRE(it.DecodeClustering(&clustering).ok());
    rows += testing::FormatKey(*table, table->partition_key_count(), clustering) + " ";
  }
  REQUIRE((*made)->status().ok());
  return rows;
}

TEST_CASE("one engine keeps writing while the other changes the schema", "[rados_engines]") {
  // The writer holds its schema lock across each commit while the other
  // engine's DDL makes this one reload (which takes that lock exclusively):
  // neither may wait on the other (a hang here fails by the test's timeout).
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(), kKeyspace + "CREATE TABLE ks.w (k int, c int, PRIMARY KEY (k, c));",
                  &keyspace);
  const TableHandle table = a->FindTable("ks", "w").value();
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int c = 0; c < 300; ++c) {
      Mutation m = a->NewMutation();
      if (!m.Insert(table, Values(table, 0, {"1"}), Values(table, 1, {std::to_string(c)}), {})
               .ok()) {
        return;
      }
      if (a->Apply(std::move(m)).ok()) ++written;
    }
  });
  for (int i = 0; i < 10; ++i) {
    CHECK(testing::RunCql(b.get(),
                          "CREATE TABLE ks.t" + std::to_string(i) + " (k int PRIMARY KEY, v text);")
              .ok());
  }
  writer.join();
  CHECK(written == 300);
  CHECK(a->FindTable("ks", "t9").ok());
}

TEST_CASE("a write through one engine reads back through the other", "[rados_engines]") {
  const std::string store = FreshStore();
  auto a = OpenEngine(store);
  auto b = OpenEngine(store);
  std::string keyspace;
  testing::RunDdl(a.get(),
                  kKeyspace +
                      "CREATE TABLE ks.t (k int, c int, v int, "
                      "PRIMARY KEY (k, c));",
                  &keyspace);
  const TableHandle on_a = a->FindTable("ks", "t").value();
  const TableHandle on_b = b->FindTable("ks", "t").value();
  for (int c = 0; c < 5; ++c) {
    Mutation m = a->NewMutation();
    REQUIRE(m.Insert(on_a, Values(on_a, 0, {"1"}), Values(on_a, 1, {std::to_string(c)}), {}).ok());
    REQUIRE(a->Apply(std::move(m)).ok());
  }
  Mutation m = b->NewMutation();
  REQUIRE(m.DeleteRow(on_b, Values(on_b, 0, {"1"}), Values(on_b, 1, {"2"})).ok());
  REQUIRE(b->Apply(std::move(m)).ok());
  CHECK(RowsOf(a->NewReadView(), on_a, Values(on_a, 0, {"1"})) == "0 1 3 4 ");
  CHECK(RowsOf(b->NewReadView(), on_b, Values(on_b, 0, {"1"})) == "0 1 3 4 ");
}

}  // namespace
}  // namespace cellfs
