// Test support for the text codecs that parse into serialized bytes
// (Status Parse*(text, &out)): parse-or-fail wrappers.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::testing {

using TextParser = Status (*)(std::string_view, std::string*);

// The bytes of text that must parse.
inline std::string MustParse(TextParser parse, std::string_view text) {
  std::string out;
  Status status = parse(text, &out);
  INFO("'" << text << "': " << status.ToString());
  REQUIRE(status.ok());
  return out;
}

// The error of text that must not parse; checks the output is untouched.
inline Status MustFail(TextParser parse, std::string_view text) {
  std::string out = "untouched";
  Status status = parse(text, &out);
  INFO("'" << text << "'");
  CHECK(status.code() == StatusCode::kInvalidArgument);
  CHECK(out == "untouched");
  return status;
}

}  // namespace cellfs::testing
