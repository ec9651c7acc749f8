// RequestGuard (fs/fuse/request_guard.h): a handler body that throws gets one
// error reply, never two, and the daemon goes on.
#include "fs/fuse/request_guard.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace cellfs::fs {
namespace {

std::vector<std::string>& Logged() {
  static std::vector<std::string> lines;
  return lines;
}
void Record(const std::string& message) { Logged().push_back(message); }

// A request: the replies it got, through the guard's mark as the binding does.
struct FakeRequest {
  std::vector<int> replies;  // 0 for a data reply, else the errno
  void ReplyData() {
    RequestGuard::MarkReplied();
    replies.push_back(0);
  }
  void ReplyError(int err) { replies.push_back(err); }
};

void Run(FakeRequest* request, const std::function<void()>& body) {
  RequestGuard::Run("test", body, [request](int err) { request->ReplyError(err); });
}

TEST_CASE("the request guard turns an escaped exception into exactly one error reply",
          "[request_guard]") {
  RequestGuard::SetLog(Record);
  Logged().clear();
  const uint64_t before = RequestGuard::escaped();
  FakeRequest request;
  SECTION("a body that replies and does not throw: its reply only") {
    Run(&request, [&] { request.ReplyData(); });
    CHECK(request.replies == std::vector<int>{0});
    CHECK(RequestGuard::escaped() == before);
  }
  SECTION("std::bad_alloc before the reply: ENOMEM") {
    Run(&request, [] { throw std::bad_alloc(); });
    CHECK(request.replies == std::vector<int>{ENOMEM});
  }
  SECTION("any other exception before the reply: EIO") {
    Run(&request, [] { throw std::runtime_error("boom"); });
    CHECK(request.replies == std::vector<int>{EIO});
    Run(&request, [] { throw 42; });
    CHECK(request.replies == std::vector<int>{EIO, EIO});
  }
  SECTION("an exception after the reply: no second reply") {
    Run(&request, [&] {
      request.ReplyData();
      throw std::runtime_error("late");
    });
    CHECK(request.replies == std::vector<int>{0});
    CHECK(RequestGuard::escaped() == before + 1);
  }
  SECTION("a reply mark does not leak into the next request on the thread") {
    Run(&request, [&] {
      request.ReplyData();
      throw std::runtime_error("late");
    });
    FakeRequest next;
    Run(&next, [] { throw std::runtime_error("early"); });
    CHECK(next.replies == std::vector<int>{EIO});
  }
  SECTION("the first escape is logged with its operation and reason; repeats are counted") {
    const size_t logged_before = Logged().size();
    for (int i = 0; i < 8; ++i) Run(&request, [] { throw std::runtime_error("boom"); });
    CHECK(request.replies.size() == 8);
    CHECK(RequestGuard::escaped() == before + 8);
    // Logged at the escapes numbered by powers of two, never per request.
    CHECK(Logged().size() - logged_before <= 4);
    REQUIRE(Logged().size() > logged_before);
    CHECK(Logged()[logged_before].find("exception in test") != std::string::npos);
    CHECK(Logged()[logged_before].find("boom") != std::string::npos);
  }
  SECTION("a reply callback that throws is swallowed, not propagated") {
    CHECK_NOTHROW(RequestGuard::Run(
        "test", [] { throw std::runtime_error("x"); },
        [](int) { throw std::runtime_error("reply failed"); }));
  }
  RequestGuard::SetLog(nullptr);
}

}  // namespace
}  // namespace cellfs::fs
