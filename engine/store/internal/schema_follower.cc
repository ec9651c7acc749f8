// DdlLease and SchemaFollower (engine/store/internal/schema_follower.h).
#include "engine/store/internal/schema_follower.h"

#include <chrono>
#include <string>

#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {
namespace {

constexpr std::string_view kDdlLeaseName = "ddl";

}  // namespace

DdlLease::DdlLease(Storage* storage) : storage_(storage) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
  while (!storage_->lease().Acquire(kDdlLeaseName, kHoldMs)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      status_ = Status::IOError(
          "another mount has been changing the schema for 30 s (its `ddl` lease is held)");
      storage_ = nullptr;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

DdlLease::~DdlLease() {
  if (storage_ != nullptr) storage_->lease().Release(kDdlLeaseName);
}

SchemaFollower::SchemaFollower(Storage* storage, std::function<void()> reload)
    : storage_(storage), reload_(std::move(reload)), thread_([this] { Run(); }) {
  watch_ = storage_->Watch(std::string(1, kCatalogTag), [this](std::string_view) {
    {
      std::lock_guard lock(mutex_);
      pending_ = true;
    }
    wake_.notify_one();
  });
}

SchemaFollower::~SchemaFollower() {
  storage_->Unwatch(watch_);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void SchemaFollower::Run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || pending_; });
    if (stopping_) return;
    pending_ = false;
    lock.unlock();
    reload_();
    lock.lock();
  }
}

}  // namespace cellfs::storage
