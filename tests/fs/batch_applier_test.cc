// BatchApplier: batches are applied in the order started, each Wait returns
// its batch's status, the applier keeps one thread for all its batches, and
// its destructor lets the batch in flight land.
#include "fs/formats/batch_applier.h"

#include <dirent.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "tests/engine/engine_test_util.h"

namespace cellfs::fs {
namespace {

using testing::IntOf;
using testing::IntValue;
using testing::TestEngine;

// Threads of this process that are appliers' threads (by their name in
// /proc/self/task/TID/comm).
size_t ApplierThreads() {
  DIR* dir = opendir("/proc/self/task");
  REQUIRE(dir != nullptr);
  size_t count = 0;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + entry->d_name + "/comm");
    std::string name;
    if (std::getline(comm, name) && name == BatchApplier::kThreadName) ++count;
  }
  closedir(dir);
  return count;
}

// A joined thread's /proc entry goes when the kernel reaps it, which can be
// just after pthread_join returns: waits (bounded) for no applier thread.
bool ApplierThreadsGone() {
  for (int i = 0; i < 500; ++i) {
    if (ApplierThreads() == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

struct Fixture {
  Fixture() {
    t.Ddl(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1};"
        "CREATE TABLE ks.t (p int PRIMARY KEY, v int);");
    table = t.Table("ks", "t");
  }
  // A batch setting v = `value` in partition 1.
  Mutation Batch(int32_t value) {
    Mutation m = t.engine->NewMutation();
    ColumnValue cell{1, IntValue(value)};
    const std::vector<std::string> pk{IntValue(1)};
    REQUIRE(m.Update(table, pk, {}, std::span<const ColumnValue>(&cell, 1)).ok());
    return m;
  }
  int32_t Stored() {
    const std::vector<std::string> pk{IntValue(1)};
    auto row = t.engine->NewReadView().GetRow(table, pk, {});
    REQUIRE(row.ok());
    REQUIRE(row.value());
    return IntOf(row.value()->cells.at(0).cell.value);
  }
  TestEngine t;
  TableHandle table;
};

TEST_CASE("batches land in the order started, on one thread for the applier's life",
          "[batch_applier]") {
  Fixture f;
  REQUIRE(ApplierThreadsGone());  // none left by an earlier case
  BatchApplier applier(f.t.engine.get());
  CHECK_FALSE(applier.busy());
  CHECK(applier.Wait().ok());    // nothing in flight
  CHECK(ApplierThreads() == 0);  // no thread before the first batch
  for (int32_t i = 1; i <= 200; ++i) {
    applier.Start(f.Batch(i));
    CHECK(applier.busy());
    REQUIRE(applier.Wait().ok());
    CHECK_FALSE(applier.busy());
    REQUIRE(f.Stored() == i);  // waited for: stored
    // The applier's thread outlives each batch: not one thread per batch.
    REQUIRE(ApplierThreads() == 1);
  }
}

TEST_CASE("Wait returns the status of the batch's Apply", "[batch_applier]") {
  Fixture f;
  BatchApplier applier(f.t.engine.get());
  Mutation stale = f.Batch(5);
  f.t.Ddl("DROP TABLE ks.t; CREATE TABLE ks.t (p int PRIMARY KEY, v int);");
  applier.Start(std::move(stale));  // its table was dropped since it was built
  const Status refused = applier.Wait();
  CHECK_FALSE(refused.ok());
  f.table = f.t.Table("ks", "t");
  applier.Start(f.Batch(6));
  CHECK(applier.Wait().ok());  // the error was the last batch's, not carried on
  CHECK(f.Stored() == 6);
}

TEST_CASE("an applier destroyed with a batch in flight lets it land", "[batch_applier]") {
  Fixture f;
  REQUIRE(ApplierThreadsGone());
  {
    BatchApplier applier(f.t.engine.get());
    applier.Start(f.Batch(42));
  }
  CHECK(f.Stored() == 42);
  CHECK(ApplierThreadsGone());  // its thread was joined
}

}  // namespace
}  // namespace cellfs::fs
