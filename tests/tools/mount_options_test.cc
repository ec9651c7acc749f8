// `cellfs mount -o` option text and /proc/self/mountinfo lines.
#include "tools/cellfs/mount_options.h"

#include <catch2/catch.hpp>

#include "tools/cellfs/mount_helper_args.h"
#include "tools/cellfs/mount_table.h"

namespace cellfs::tools {
namespace {

TEST_CASE("mount options parse into the engine's and the session's settings", "[mount_options]") {
  auto parsed = ParseMountOptions(
      "ro,allow_other,entry_timeout=5,attr_timeout=0.5,commit=group,"
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

TEST_CASE("xattr and noxattr are cellfs's own, the last one winning", "[mount_options]") {
  auto off = ParseMountOptions("noxattr");
  REQUIRE(off.ok());
  CHECK_FALSE(off.value().xattr);
  CHECK(off.value().fuse_options.empty());
  auto on = ParseMountOptions("noxattr,xattr");
  REQUIRE(on.ok());
  CHECK(on.value().xattr);
  CHECK(IsCellfsOption("noxattr"));
}

TEST_CASE("empty option text keeps the defaults", "[mount_options]") {
  auto parsed = ParseMountOptions("");
  REQUIRE(parsed.ok());
  CHECK(parsed.value().xattr);
  CHECK_FALSE(parsed.value().read_only);
  CHECK(parsed.value().commit_mode == CommitMode::kPeriodic);
  CHECK(parsed.value().entry_timeout == 60.0);
}

TEST_CASE("other options are libfuse's to judge, in order", "[mount_options]") {
  auto parsed = ParseMountOptions("noatime,ro,allow_root,nosuid,fsname=x,bogus=1,lazytime");
  REQUIRE(parsed.ok());
  CHECK(parsed.value().read_only);
  // The access-time flags are cellfs's (it keeps no atimes): taken, no-ops.
  CHECK(parsed.value().fuse_options ==
        std::vector<std::string>{"allow_root", "nosuid", "fsname=x", "bogus=1"});
  CHECK(IsCellfsOption("noatime"));
  CHECK(IsCellfsOption("commit=batch"));
  CHECK_FALSE(IsCellfsOption("commit=sometimes"));
  CHECK_FALSE(IsCellfsOption("allow_root"));
}

TEST_CASE("suid and dev are refused: libfuse would drop nosuid,nodev for them", "[mount_options]") {
  for (const char* text : {"suid", "dev", "ro,dev"}) {
    INFO(text);
    auto parsed = ParseMountOptions(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find("always mounts nosuid,nodev") != std::string::npos);
  }
  CHECK(ParseMountOptions("nosuid,nodev").ok());
}

TEST_CASE("options for libfuse with a backslash are refused: its escapes would hide them",
          "[mount_options]") {
  for (const char* text : {"s\\uid", "d\\145v", "fsname=x\\", "allow\\_root"}) {
    INFO(text);
    auto parsed = ParseMountOptions(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message().find("backslash") != std::string::npos);
  }
}

TEST_CASE("allow_root turns the kernel's caching off", "[mount_options]") {
  auto parsed = ParseMountOptions("entry_timeout=30,allow_root,attr_timeout=20");
  REQUIRE(parsed.ok());
  CHECK(parsed->entry_timeout == 0);
  CHECK(parsed->attr_timeout == 0);
  CHECK(ParseMountOptions("entry_timeout=30")->entry_timeout == 30);
}

TEST_CASE("bad values of cellfs's options are refused naming the option", "[mount_options]") {
  for (const char* text : {"commit=sometimes", "entry_timeout=-1", "entry_timeout=x",
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
  // A pool's spelling as the source: the kernel escapes only space, tab,
  // newline and backslash, so '?', '&', '=' and ',' come through as they are.
  auto pool = ParseMountInfoLine(
      "82 29 0:53 / /mnt/c rw,nosuid,nodev,relatime shared:41 - fuse.cellfs "
      "rados:cellfs?conf=/etc/ceph/a,b\\040c.conf&id=fs rw,user_id=0,group_id=0");
  REQUIRE(pool);
  CHECK(pool->source == "rados:cellfs?conf=/etc/ceph/a,b c.conf&id=fs");
  CHECK_FALSE(ParseMountInfoLine("garbage"));
  CHECK_FALSE(ParseMountInfoLine(""));
}

}  // namespace
}  // namespace cellfs::tools

namespace cellfs::tools {
namespace {

TEST_CASE("mount.cellfs keeps cellfs's options and drops mount(8)'s own", "[mount_helper]") {
  auto parsed = ParseMountHelperArgs(
      {"/data", "/mnt", "-o",
       "rw,noauto,user,_netdev,x-systemd.automount,nosuid,ro,entry_timeout=5"});
  REQUIRE(parsed.ok());
  CHECK(parsed.value().data_dir == "/data");
  CHECK(parsed.value().mount_point == "/mnt");
  CHECK(parsed.value().cellfs_options == "ro,entry_timeout=5");
  CHECK_FALSE(parsed.value().fake);
}

TEST_CASE("mount.cellfs passes a rados source on as it is", "[mount_helper]") {
  // An fstab line: rados:cellfs?conf=/etc/ceph/ceph.conf&id=fs /mnt cellfs _netdev 0 0
  auto parsed = ParseMountHelperArgs(
      {"rados:cellfs?conf=/etc/ceph/a,b.conf&id=fs", "/mnt", "-o", "rw,_netdev,commit=batch"});
  REQUIRE(parsed.ok());
  CHECK(parsed.value().data_dir == "rados:cellfs?conf=/etc/ceph/a,b.conf&id=fs");
  CHECK(parsed.value().cellfs_options == "commit=batch");
}

TEST_CASE("mount.cellfs passes unknown options on unless sloppy", "[mount_helper]") {
  auto strict = ParseMountHelperArgs({"-o", "defaults,bogus", "/d", "/m"});
  REQUIRE(strict.ok());
  CHECK(strict.value().cellfs_options == "bogus");  // cellfs mount names it in its error
  auto sloppy = ParseMountHelperArgs({"/d", "/m", "-s", "-o", "bogus,commit=batch"});
  REQUIRE(sloppy.ok());
  CHECK(sloppy.value().cellfs_options == "commit=batch");
}

TEST_CASE("mount.cellfs flags and errors", "[mount_helper]") {
  auto flags = ParseMountHelperArgs({"/d", "/m", "-fnv", "-t", "cellfs"});
  REQUIRE(flags.ok());
  CHECK(flags.value().fake);
  CHECK(flags.value().verbose);
  CHECK(flags.value().cellfs_options.empty());
  CHECK_FALSE(ParseMountHelperArgs({"/d"}).ok());
  CHECK_FALSE(ParseMountHelperArgs({"/d", "/m", "/x"}).ok());
  CHECK_FALSE(ParseMountHelperArgs({"/d", "/m", "-o"}).ok());
  CHECK_FALSE(ParseMountHelperArgs({"/d", "/m", "-q"}).ok());
}

}  // namespace
}  // namespace cellfs::tools
