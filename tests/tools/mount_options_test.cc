// `cellfs mount -o` option text and /proc/self/mountinfo lines.
#include <catch2/catch.hpp>

#include "tools/cellfs/mount_options.h"
#include "tools/cellfs/mount_table.h"

namespace cellfs::tools {
namespace {

TEST_CASE("mount options parse into the engine's and the session's settings", "[mount_options]") {
  auto parsed = ParseMountOptions("ro,allow_other,entry_timeout=5,attr_timeout=0.5,commit=group,"
                                  "commit_interval_ms=20,debug");
  REQUIRE(parsed.ok());
  const MountOptions& options = parsed.value();
  CHECK(options.read_only);
  CHECK(options.allow_other);
  CHECK(options.debug);
  CHECK(options.entry_timeout == 5.0);
  CHECK(options.attr_timeout == 0.5);
  CHECK(options.commit_mode == CommitMode::kGroup);
  CHECK(options.commit_interval_ms == 20);
  EngineOptions engine = EngineOptionsFor(options);
  CHECK(engine.read_only);
  CHECK(engine.commit_mode == CommitMode::kGroup);
  CHECK(engine.background_sweeper);
}

TEST_CASE("empty option text keeps the defaults", "[mount_options]") {
  auto parsed = ParseMountOptions("");
  REQUIRE(parsed.ok());
  CHECK_FALSE(parsed.value().read_only);
  CHECK(parsed.value().commit_mode == CommitMode::kPeriodic);
  CHECK(parsed.value().entry_timeout == 60.0);
}

TEST_CASE("bad mount options are refused naming the option", "[mount_options]") {
  for (const char* text : {"bogus", "commit=sometimes", "entry_timeout=-1", "entry_timeout=x",
                           "commit=batch,commit_interval_ms=10", "commit_interval_ms=abc"}) {
    INFO(text);
    auto parsed = ParseMountOptions(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == StatusCode::kInvalidArgument);
    std::string name = std::string(text).substr(0, std::string(text).find_first_of("=,"));
    CHECK(parsed.status().message().find(name.substr(0, 6)) != std::string::npos);
  }
}

TEST_CASE("mountinfo lines give the mount point, type, source and connection", "[mount_table]") {
  auto entry = ParseMountInfoLine(
      "81 29 0:52 / /tmp/a\\040b rw,nosuid,nodev,relatime shared:40 - fuse.cellfs /data/d\\040x "
      "rw,user_id=0,group_id=0,default_permissions");
  REQUIRE(entry);
  CHECK(entry->mount_id == 81);
  CHECK(entry->minor == 52);
  CHECK(entry->mount_point == "/tmp/a b");
  CHECK(entry->fs_type == "fuse.cellfs");
  CHECK(entry->source == "/data/d x");
  CHECK_FALSE(ParseMountInfoLine("garbage"));
  CHECK_FALSE(ParseMountInfoLine(""));
}

}  // namespace
}  // namespace cellfs::tools
