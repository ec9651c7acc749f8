// The RADOS backend for the storage contract test: a fresh RADOS namespace
// of the test cluster's pool `cellfs` per store (CEPH_CONF names the
// cluster: CTest's `ceph` fixture).
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <string>

#include "engine/engine_options.h"
#include "engine/store/storage/rados/rados_storage.h"
#include "tests/storage/test_backend.h"

namespace cellfs::storage::test {
namespace {

std::string FreshNamespace() {
  static std::atomic<int> made{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "contract-" + std::to_string(getpid()) + "-" + std::to_string(now) + "-" +
         std::to_string(made++);
}

class RadosTestBackend final : public TestBackend {
 public:
  RadosTestBackend() {
    const char* conf = std::getenv("CEPH_CONF");
    REQUIRE(conf != nullptr);
    location_.kind = StoreLocation::Kind::kRados;
    location_.pool = "cellfs";
    location_.conf = conf;
    location_.ns = FreshNamespace();
  }

  std::unique_ptr<Storage> Open() override {
    auto opened = RadosStorage::Open(location_, EngineOptions{});
    REQUIRE(opened.ok());
    return std::move(opened).value();
  }
  bool shared() const override { return true; }

 private:
  StoreLocation location_;
};

}  // namespace

std::unique_ptr<TestBackend> NewTestBackend() { return std::make_unique<RadosTestBackend>(); }

}  // namespace cellfs::storage::test
