// DdlLease and SchemaFollower (engine/store/internal/schema_follower.h).
#include "engine/store/internal/schema_follower.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "engine/store/internal/storage_keys.h"

namespace cellfs::storage {
namespace {

constexpr std::string_view kDdlLeaseName = "ddl";

}  // namespace

DdlLease::DdlLease(Storage* storage, std::mutex* holders) : holder_(*holders), storage_(storage) {
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
  renewer_ = std::thread([this] {
    std::unique_lock lock(renew_mutex_);
    while (!renew_wake_.wait_for(lock, std::chrono::milliseconds(kRenewMs),
                                 [this] { return stop_; })) {
      if (!storage_->lease().Acquire(kDdlLeaseName, kHoldMs)) {
        std::fprintf(stderr, "cellfs: the `ddl` lease lapsed during a schema change\n");
      }
    }
  });
}

void DdlLease::StopRenewing() {
  {
    std::lock_guard lock(renew_mutex_);
    stop_ = true;
  }
  renew_wake_.notify_all();
  if (renewer_.joinable()) renewer_.join();
}

void DdlLease::KeepUntilLapsed() {
  StopRenewing();
  storage_ = nullptr;
}

DdlLease::~DdlLease() {
  StopRenewing();
  if (storage_ != nullptr) storage_->lease().Release(kDdlLeaseName);
}

SchemaFollower::SchemaFollower(Storage* storage, std::function<void()> reload)
    : storage_(storage), reload_(std::move(reload)) {
  watch_ = storage_->Watch(std::string(1, kCatalogTag),
                           [this](std::string_view, bool from_other_process) {
                             if (from_other_process) reload_();
                           });
}

SchemaFollower::~SchemaFollower() { storage_->Unwatch(watch_); }

}  // namespace cellfs::storage
