// The storage seam's LevelDB backend, where it differs from every backend:
// the bytes it stores are space || shard || key, docs/FORMAT.md's layout, so
// a store written before the seam opens unchanged. What every backend
// promises is tests/storage/storage_contract_test.cc's, run on LevelDB as
// storage_contract_leveldb_test.
#include <leveldb/db.h>
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "engine/store/storage/leveldb/leveldb_storage.h"

namespace cellfs::storage {
namespace {

TEST_CASE("the stored key is space || shard || key, byte for byte", "[storage_seam]") {
  auto env = std::unique_ptr<leveldb::Env>(leveldb::NewMemEnv(leveldb::Env::Default()));
  leveldb::Options options;
  options.env = env.get();
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  REQUIRE(leveldb::DB::Open(options, "/raw", &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  auto storage = LevelDbStorage::Wrap(db.get());
  auto batch = storage->NewBatch();
  const std::string_view space("D\0\0\0\x07", 5);
  batch->Put({space, "tok", "\x03k"}, "v");
  REQUIRE(storage->Commit(batch.get(), Durability::kSynced).ok());
  std::string value;
  REQUIRE(
      db->Get(leveldb::ReadOptions(), std::string("D\x00\x00\x00\x07tok\x03k", 10), &value).ok());
  CHECK(value == "v");
}

}  // namespace
}  // namespace cellfs::storage
