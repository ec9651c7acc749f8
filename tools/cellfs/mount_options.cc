// Parses `cellfs mount -o` text into MountOptions.
#include "tools/cellfs/mount_options.h"

#include <charconv>
#include <cmath>
#include <string>

namespace cellfs::tools {
namespace {

Status BadValue(std::string_view key, std::string_view value, std::string_view expected) {
  return Status::InvalidArgument("bad value '" + std::string(value) + "' for mount option " +
                                 std::string(key) + " (expected " + std::string(expected) + ")");
}

Status ParseSeconds(std::string_view key, std::string_view value, double* out) {
  double seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
      !std::isfinite(seconds) || seconds < 0) {
    return BadValue(key, value, "a number of seconds, 0 or more");
  }
  *out = seconds;
  return Status::Ok();
}

Status ParseMillis(std::string_view key, std::string_view value, int* out) {
  int millis = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), millis);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || millis <= 0) {
    return BadValue(key, value, "a whole number of milliseconds, 1 or more");
  }
  *out = millis;
  return Status::Ok();
}

Status ParseCommitMode(std::string_view value, CommitMode* out) {
  if (value == "periodic") {
    *out = CommitMode::kPeriodic;
  } else if (value == "group") {
    *out = CommitMode::kGroup;
  } else if (value == "batch") {
    *out = CommitMode::kBatch;
  } else {
    return BadValue("commit", value, "periodic, group or batch");
  }
  return Status::Ok();
}

bool IsAtimeOption(std::string_view key) {
  for (std::string_view atime :
       {"atime", "noatime", "relatime", "norelatime", "strictatime", "nostrictatime", "lazytime",
        "nolazytime", "diratime", "nodiratime"}) {
    if (key == atime) return true;
  }
  return false;
}

Status ApplyOption(std::string_view option, MountOptions* out) {
  size_t equals = option.find('=');
  std::string_view key = option.substr(0, equals);
  bool has_value = equals != std::string_view::npos;
  std::string_view value = has_value ? option.substr(equals + 1) : std::string_view();
  if (!has_value) {
    if (key == "debug") {
      out->debug = true;
    } else if (key == "ro") {
      out->read_only = true;
    } else if (key == "rw") {
      out->read_only = false;
    } else if (key == "allow_other") {
      out->allow_other = true;
    } else if (key == "xattr") {
      out->xattr = true;
    } else if (key == "noxattr") {
      out->xattr = false;
    } else if (key == "suid" || key == "dev") {
      // libfuse would take them and drop its nosuid,nodev (as root).
      return Status::InvalidArgument("mount option '" + std::string(option) +
                                     "' is refused: cellfs always mounts nosuid,nodev");
    } else if (IsAtimeOption(key)) {
      // cellfs keeps no access times (an mtime is a write time): fstab's
      // noatime, lazytime... are taken and change nothing.
    } else {
      out->fuse_options.emplace_back(option);  // libfuse's to judge
    }
    return Status::Ok();
  }
  if (key == "entry_timeout") {
    out->entry_timeout_given = true;
    return ParseSeconds(key, value, &out->entry_timeout);
  }
  if (key == "attr_timeout") {
    out->attr_timeout_given = true;
    return ParseSeconds(key, value, &out->attr_timeout);
  }
  if (key == "commit") return ParseCommitMode(value, &out->commit_mode);
  if (key == "commit_interval_ms") return ParseMillis(key, value, &out->commit_interval_ms);
  out->fuse_options.emplace_back(option);
  return Status::Ok();
}

}  // namespace

const char kMountOptionsHelp[] =
    "Mount options (-o, comma-separated, may repeat):\n"
    "  debug                   log every FUSE request to stderr (implies -f)\n"
    "  ro                      read-only: every write fails with EROFS\n"
    "  allow_other             let other users in (needs user_allow_other in\n"
    "                          /etc/fuse.conf unless run as root)\n"
    "  noxattr                 no extended attributes (user.cellfs.ttl, writetime,\n"
    "                          token): ls -l asks the daemon 3x less; the values\n"
    "                          stay readable through @cql (TTL(), WRITETIME(),\n"
    "                          token())\n"
    "  entry_timeout=SECONDS   how long the kernel may cache names (default 60; 1 on rados:)\n"
    "  attr_timeout=SECONDS    how long the kernel may cache attributes (default 60; 1 on rados:)\n"
    "  commit=MODE             when an acknowledged write is durable, as in\n"
    "                          Cassandra's commitlog_sync: periodic (default),\n"
    "                          group or batch\n"
    "  commit_interval_ms=N    periodic: the sync period (default 10000);\n"
    "                          group: the group window (default 15)\n"
    "  noatime, lazytime, relatime, ... taken; cellfs keeps no access times\n"
    "Any other option goes to libfuse, which takes FUSE file systems' usual\n"
    "ones (allow_root, auto_unmount, default_permissions, max_read=; fsname=\n"
    "and subtype= are taken but cellfs's own stay, for its tools) and mount(8)'s\n"
    "flags (noatime, lazytime, nosuid, nodev, noexec, sync, dirsync...); one\n"
    "it does not know is refused before anything is created.\n";

bool IsCellfsOption(std::string_view option) {
  MountOptions parsed;
  return ApplyOption(option, &parsed).ok() && parsed.fuse_options.empty();
}

Result<MountOptions> ParseMountOptions(std::string_view text) {
  MountOptions options;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view option = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (option.empty()) continue;  // "a,,b" and a trailing comma are harmless
    CELLFS_RETURN_IF_ERROR(ApplyOption(option, &options));
  }
  for (const std::string& option : options.fuse_options) {
    // libfuse unescapes "\x" and "\NNN" (and a trailing backslash escapes
    // the comma after it), so an escaped spelling would slip past the checks
    // above (s\uid) or swallow cellfs's own options.
    if (option.find('\\') != std::string::npos) {
      return Status::InvalidArgument("mount option '" + option +
                                     "': a backslash is not taken in options for libfuse");
    }
    // libfuse's allow_root is the kernel's allow_other plus its own check of
    // each request's uid; the kernel answers cached entries and attributes
    // without asking, so under allow_root nothing is cached.
    if (option == "allow_root") options.entry_timeout = options.attr_timeout = 0;
  }
  if (options.commit_mode == CommitMode::kBatch && options.commit_interval_ms != 0) {
    return Status::InvalidArgument(
        "mount option commit_interval_ms does not apply to commit=batch (every write syncs)");
  }
  return options;
}

EngineOptions EngineOptionsFor(const MountOptions& options) {
  EngineOptions engine;
  engine.create_if_missing = true;
  engine.read_only = options.read_only;
  engine.background_sweeper = true;
  engine.commit_mode = options.commit_mode;
  if (options.commit_interval_ms != 0) {
    if (options.commit_mode == CommitMode::kPeriodic) {
      engine.commit_period_ms = options.commit_interval_ms;
    } else {
      engine.group_window_ms = options.commit_interval_ms;
    }
  }
  return engine;
}

}  // namespace cellfs::tools
