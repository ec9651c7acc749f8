// WriteFence: a failed write closes it for good on a backend that may tear
// its log (LevelDB); on one that leaves nothing torn (RADOS), failures are
// returned and later writes go on.
#include "engine/store/internal/write_fence.h"

#include <catch2/catch.hpp>
#include <string>

namespace cellfs::storage {
namespace {

TEST_CASE("a latching fence refuses every write after the first failure", "[write_fence]") {
  WriteFence fence;
  int told = 0;
  fence.SetListener([&](const Status&) { ++told; });
  CHECK(fence.Record(Status::Ok()).ok());
  CHECK(fence.Check().ok());
  CHECK(fence.Record(Status::IOError("disk gone")).code() == StatusCode::kIOError);
  CHECK(fence.Check().code() == StatusCode::kIOError);
  CHECK(fence.Check().message().find("disk gone") != std::string::npos);
  CHECK(fence.Record(Status::NoSpace("full")).code() == StatusCode::kNoSpace);
  CHECK(fence.Check().message().find("disk gone") != std::string::npos);  // the first failure
  CHECK(told == 1);
}

TEST_CASE("a fence that does not latch returns failures and lets later writes go on",
          "[write_fence]") {
  WriteFence fence;
  int told = 0;
  fence.SetListener([&](const Status&) { ++told; });
  fence.SetLatching(false);
  CHECK(fence.Record(Status::IOError("cluster timed out")).code() == StatusCode::kIOError);
  CHECK(fence.Check().ok());
  CHECK(fence.Record(Status::Ok()).ok());
  CHECK(told == 0);
}

}  // namespace
}  // namespace cellfs::storage
