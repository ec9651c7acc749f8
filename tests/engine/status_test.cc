// Status and Result: codes, messages, context and the early-return macro.
#include "engine/status.h"

#include <catch2/catch.hpp>

namespace cellfs {
namespace {

Status FailsWhen(bool fail) {
  CELLFS_RETURN_IF_ERROR(fail ? Status::NotFound("no such table t") : Status::Ok());
  return Status::InvalidArgument("reached the end");
}

TEST_CASE("an ok status has no message and renders as OK", "[status]") {
  Status s;
  CHECK(s.ok());
  CHECK(s.code() == StatusCode::kOk);
  CHECK(s.ToString() == "OK");
}

TEST_CASE("an error status renders its code and message", "[status]") {
  CHECK(Status::InvalidArgument("bad int").ToString() == "InvalidArgument: bad int");
  CHECK(Status::NameTooLong("x").ToString() == "NameTooLong: x");
  CHECK(Status::NotSupported("x").code() == StatusCode::kNotSupported);
  CHECK(Status::Corruption("x").ToString() == "Corruption: x");
}

TEST_CASE("context is prefixed to errors and ignored for ok", "[status]") {
  CHECK(Status::NotFound("table t").WithContext("line 1:1").message() == "line 1:1: table t");
  CHECK(Status::Ok().WithContext("x").ok());
}

TEST_CASE("CELLFS_RETURN_IF_ERROR returns the first error", "[status]") {
  CHECK(FailsWhen(true).code() == StatusCode::kNotFound);
  CHECK(FailsWhen(false).message() == "reached the end");
}

TEST_CASE("a result holds a value or an error", "[status]") {
  Result<int> good(42);
  REQUIRE(good.ok());
  CHECK(*good == 42);
  Result<int> bad(Status::IOError("disk"));
  CHECK_FALSE(bad.ok());
  CHECK(bad.status().message() == "disk");
}

}  // namespace
}  // namespace cellfs
