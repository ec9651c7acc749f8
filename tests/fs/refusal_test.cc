// MOUNT/@errors and the refusal log: every refused request a user would ask
// about is recorded with its path, errno and reason, bounded, newest last;
// probing answers (a name that does not exist, mkdir -p of a parent) are not.
#include <fcntl.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <mutex>
#include <string>
#include <vector>

#include "fs/tree/refusal_log.h"
#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

using fs::Refusal;
using fs::RefusalLog;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  CHECK(start == text.size());  // every line ends with '\n'
  return lines;
}

// A line without its time stamp (the first field).
std::string Untimed(const std::string& line) { return line.substr(line.find(' ') + 1); }

TEST_CASE("a refusal's line: time, request, path, errno name and text, reason", "[refusal]") {
  Refusal refusal;
  refusal.time_micros = 1'700'000'000'123'456;
  refusal.operation = "write";
  refusal.path = "ks/t/1/v";
  refusal.err = EINVAL;
  refusal.reason = "column v: bad";
  CHECK(RefusalLog::FormatLine(refusal) ==
        "2023-11-14T22:13:20.123Z write ks/t/1/v: EINVAL (Invalid argument): column v: bad");
  refusal.reason.clear();
  refusal.err = EACCES;
  refusal.path = "a\nb";  // a text key may hold a newline: the line stays one line
  CHECK(RefusalLog::FormatLine(refusal) ==
        "2023-11-14T22:13:20.123Z write a?b: EACCES (Permission denied)");
}

TEST_CASE("the log keeps the newest refusals, cut to their bounds", "[refusal]") {
  std::vector<std::string> sunk;
  RefusalLog log(3, [&](const std::string& line) { sunk.push_back(line); });
  CHECK(log.Render().empty());
  for (int i = 0; i < 5; ++i) {
    Refusal refusal;
    refusal.operation = "mkdir";
    refusal.path = "p" + std::to_string(i);
    refusal.err = EINVAL;
    refusal.reason = i == 4 ? std::string(5000, 'x') : "r";
    log.Record(refusal);
  }
  std::vector<std::string> lines = Lines(log.Render());
  REQUIRE(lines.size() == 3);
  CHECK(Untimed(lines[0]) == "mkdir p2: EINVAL (Invalid argument): r");
  CHECK(Untimed(lines[1]) == "mkdir p3: EINVAL (Invalid argument): r");
  CHECK(Untimed(lines[2]) == "mkdir p4: EINVAL (Invalid argument): " +
                                 std::string(RefusalLog::kMaxReasonBytes, 'x') + "...");
  REQUIRE(sunk.size() == 5);  // the sink sees every one, as recorded
  CHECK(sunk[0] == lines[0].substr(0, lines[0].find(" mkdir")) +
                       " mkdir p0: EINVAL (Invalid "
                       "argument): r");
}

TEST_CASE("probing answers are not refusals; refused changes are", "[refusal]") {
  CHECK_FALSE(RefusalLog::Worth("lookup", ENOENT));
  CHECK_FALSE(RefusalLog::Worth("getattr", ENOENT));
  CHECK_FALSE(RefusalLog::Worth("getxattr", ENODATA));
  CHECK_FALSE(RefusalLog::Worth("getxattr", EOPNOTSUPP));
  CHECK_FALSE(RefusalLog::Worth("listxattr", ERANGE));
  CHECK_FALSE(RefusalLog::Worth("mkdir", EEXIST));  // mkdir -p
  CHECK_FALSE(RefusalLog::Worth("write", EINTR));
  CHECK(RefusalLog::Worth("lookup", EINVAL));  // a key that does not parse
  CHECK(RefusalLog::Worth("lookup", ENAMETOOLONG));
  CHECK(RefusalLog::Worth("open", EACCES));
  CHECK(RefusalLog::Worth("unlink", ENOENT));
  CHECK(RefusalLog::Worth("create", EEXIST));  // O_EXCL
  CHECK(RefusalLog::Worth("setxattr(user.cellfs.ttl)", EOPNOTSUPP));
  CHECK(RefusalLog::Worth("setxattr(user.other)", EOPNOTSUPP));
  CHECK_FALSE(RefusalLog::Worth("setxattr(system.posix_acl_access)", EOPNOTSUPP));  // cp -a
  CHECK_FALSE(RefusalLog::Worth("setxattr(security.selinux)", EOPNOTSUPP));
  CHECK(RefusalLog::Worth("setxattr(system.posix_acl_access)", EACCES));
  CHECK(RefusalLog::Worth("close", ENOSPC));
}

TEST_CASE("a noted reason explains only its own errno, once", "[refusal]") {
  fs::NoteRefusalReason(EINVAL, "why");
  CHECK(fs::TakeRefusalReason(EACCES).empty());  // noted for another errno
  CHECK(fs::TakeRefusalReason(EINVAL).empty());  // and taking forgot it
  fs::NoteRefusalReason(EINVAL, "why");
  CHECK(fs::Refuse(EPERM, "other") == EPERM);  // the latest note wins
  CHECK(fs::TakeRefusalReason(EPERM) == "other");
  fs::NoteRefusalReason(EINVAL, "stale");
  fs::ClearRefusalReason();
  CHECK(fs::TakeRefusalReason(EINVAL).empty());
}

constexpr const char* kTable =
    "CREATE TABLE ks.t (k text, c int, u uuid, n int, a ascii, PRIMARY KEY (k, c));";

TEST_CASE("MOUNT/@errors shows each refused request with its path and reason", "[refusal]") {
  std::mutex sunk_mutex;
  std::vector<std::string> sunk;
  fs::FilesystemOptions options;
  options.refusal_sink = [&](const std::string& line) {
    std::lock_guard lock(sunk_mutex);
    sunk.push_back(line);
  };
  FsDriver d(options);
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTable);
  REQUIRE(d.Mkdir("ks/t/p") == 0);
  REQUIRE(d.Mkdir("ks/t/p/1") == 0);
  CHECK(d.Cat("@errors").empty());

  // Answers to probes and mkdir -p are not refusals.
  CHECK_FALSE(d.Exists("ks/t/nosuch"));
  CHECK(d.Mkdir("ks") == EEXIST);
  std::string value;
  CHECK(d.GetXattr("ks/t/p/1", "user.cellfs.ttl", &value) != 0);
  CHECK(d.Cat("@errors").empty());

  CHECK(d.Write("ks/t/p/1/u", "notauuid\n") == EINVAL);
  CHECK(d.Write("ks/t/p/1/nosuchcol", "1\n") == EINVAL);
  CHECK(d.Write("ks/t/p/1/a", "caf\xc3\xa9\n") == EINVAL);
  CHECK(d.Mkdir("ks/t/p/x") == EINVAL);
  CHECK(d.Write("ks/@schema", "x") == EACCES);
  CHECK(d.SetXattr("ks/t/p/1", "user.cellfs.ttl", "60") == EOPNOTSUPP);

  std::vector<std::string> lines = Lines(d.Cat("@errors"));
  std::vector<std::string> untimed;
  for (const std::string& line : lines) untimed.push_back(Untimed(line));
  const std::vector<std::string> want = {
      "write ks/t/p/1/u: EINVAL (Invalid argument): column u: invalid uuid value 'notauuid': "
      "invalid uuid 'notauuid': expected 8-4-4-4-12 hex digits",
      "create ks/t/p/1/nosuchcol: EINVAL (Invalid argument): Undefined column name nosuchcol in "
      "table ks.t",
      "write ks/t/p/1/a: EINVAL (Invalid argument): column a: the value is not ASCII",
      "mkdir ks/t/p/x: EINVAL (Invalid argument): key component 1 of 1 (int): 'x' is not a "
      "valid int: expected an optional sign and decimal digits",
      "open ks/@schema: EACCES (Permission denied): a read-only file",
  };
  REQUIRE(untimed.size() == want.size() + 1);
  for (size_t i = 0; i < want.size(); ++i) CHECK(untimed[i] == want[i]);
  CHECK(untimed.back().starts_with(
      "setxattr(user.cellfs.ttl) ks/t/p/1: EOPNOTSUPP (Operation not supported)"));
  {
    std::lock_guard lock(sunk_mutex);
    CHECK(sunk == lines);  // the log got the same lines
  }
  fs::NodeAttr attr;
  REQUIRE(d.Stat("@errors", &attr) == 0);
  CHECK(attr.size == d.Cat("@errors").size());  // stat tells the truth
  CHECK((attr.mode & 0777) == 0444);
  CHECK(d.Write("@errors", "x") == EACCES);
}

TEST_CASE("@errors holds the latest 256 refusals, oldest dropped first", "[refusal]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl(kTable);
  for (int i = 0; i < 300; ++i) {
    REQUIRE(d.Write("ks/t/key" + std::to_string(i), "1") == EISDIR);  // a partition's name
  }
  std::vector<std::string> lines = Lines(d.Cat("@errors"));
  REQUIRE(lines.size() == RefusalLog::kDefaultCapacity);
  CHECK(lines.back().find("ks/t/key299: EISDIR") != std::string::npos);
  CHECK(d.Cat("@errors").find("ks/t/key0:") == std::string::npos);
}

}  // namespace
}  // namespace cellfs::testing
