// KernelNotifierThread (fs/fuse/kernel_notifier.h): queued entry
// invalidations go before queued inode invalidations, each kind in the
// order asked, and AwaitSent waits for everything asked before it, also
// for what names overtook.
#include "fs/fuse/kernel_notifier.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cellfs::fs {
namespace {

// A sender that records what it sends and holds every send until let go.
class HeldSender {
 public:
  void Send(uint64_t inode, const std::string& name) {
    std::unique_lock lock(mutex_);
    arrived_.notify_all();
    ++waiting_;
    released_.wait(lock, [this] { return open_; });
    --waiting_;
    sent_.push_back(name.empty() ? "inode " + std::to_string(inode) : "entry " + name);
  }
  // Returns once a send is waiting to be let go.
  void AwaitWaiting() {
    std::unique_lock lock(mutex_);
    arrived_.wait(lock, [this] { return waiting_ > 0; });
  }
  void Open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    released_.notify_all();
  }
  std::vector<std::string> sent() {
    std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::condition_variable released_;
  int waiting_ = 0;
  bool open_ = false;
  std::vector<std::string> sent_;
};

TEST_CASE("names are sent before the inode invalidations queued ahead of them",
          "[kernel_notifier]") {
  HeldSender sender;
  KernelNotifierThread notifier;
  notifier.Start([&sender](uint64_t inode, const std::string& name) { sender.Send(inode, name); });
  notifier.InvalidateInode(1);  // taken at once: it is being sent while the rest queue
  sender.AwaitWaiting();
  notifier.InvalidateInode(2);
  notifier.InvalidateInode(3);
  notifier.InvalidateEntry(10, "v");
  notifier.InvalidateEntry(10, "w");
  notifier.InvalidateInode(4);
  sender.Open();
  notifier.AwaitSent(10000);
  CHECK(sender.sent() ==
        std::vector<std::string>{"inode 1", "entry v", "entry w", "inode 2", "inode 3", "inode 4"});
  notifier.Stop();
}

TEST_CASE("AwaitSent waits for what was asked before it, though a name overtakes it",
          "[kernel_notifier]") {
  HeldSender sender;
  KernelNotifierThread notifier;
  notifier.Start([&sender](uint64_t inode, const std::string& name) { sender.Send(inode, name); });
  notifier.InvalidateInode(1);
  sender.AwaitWaiting();
  notifier.InvalidateInode(2);
  std::vector<std::string> seen;
  std::thread waiter([&] {
    notifier.AwaitSent(10000);
    seen = sender.sent();
  });
  // Asked after the wait began, sent before inode 2: the wait must not end
  // when as many items were sent as had been asked.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  notifier.InvalidateEntry(10, "v");
  sender.Open();
  waiter.join();
  REQUIRE(seen.size() >= 2);
  CHECK(seen.back() == "inode 2");
  notifier.Stop();
}

TEST_CASE("a stopped notifier drops what it is asked", "[kernel_notifier]") {
  KernelNotifierThread notifier;
  notifier.InvalidateInode(1);
  notifier.AwaitSent(0);  // returns at once: nothing is queued
  std::vector<std::string> sent;
  notifier.Start([&sent](uint64_t, const std::string& name) { sent.push_back(name); });
  notifier.InvalidateEntry(1, "a");
  notifier.AwaitSent(10000);
  notifier.Stop();
  notifier.InvalidateEntry(1, "b");
  CHECK(sent == std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace cellfs::fs
