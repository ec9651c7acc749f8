// The LevelDB backend for the storage contract test: a store in memory.
#include <leveldb/env.h>
#include <leveldb/helpers/memenv.h>

#include <catch2/catch.hpp>

#include "engine/engine_options.h"
#include "engine/store/storage/leveldb/leveldb_storage.h"
#include "tests/storage/test_backend.h"

namespace cellfs::storage::test {
namespace {

class LevelDbTestBackend final : public TestBackend {
 public:
  LevelDbTestBackend() : env_(leveldb::NewMemEnv(leveldb::Env::Default())) {}

  std::unique_ptr<Storage> Open() override {
    EngineOptions options;
    options.env = env_.get();
    auto opened = LevelDbStorage::Open("/contract", options);
    REQUIRE(opened.ok());
    return std::move(opened).value();
  }
  bool shared() const override { return false; }

 private:
  std::unique_ptr<leveldb::Env> env_;
};

}  // namespace

std::unique_ptr<TestBackend> NewTestBackend() { return std::make_unique<LevelDbTestBackend>(); }

}  // namespace cellfs::storage::test
