// What stat shows for a node and what the kernel is handed with it (an
// entry), and the mount's options that shape both (owner, read-only, cache
// bounds). The vocabulary of fs/ops/filesystem.h, defined here so that the
// tree, which fills them, needs nothing above it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>

namespace cellfs::fs {

struct FilesystemOptions {
  // Upper bounds for the kernel's entry and attribute caching, in seconds;
  // each entry's timeouts are further bounded by its remaining TTL.
  double entry_timeout = 60.0;
  double attr_timeout = 60.0;
  uid_t uid = 0;  // owner shown on every node (the mounting user)
  gid_t gid = 0;
  bool read_only = false;  // every write answers EROFS
  // Receives the line of each refusal MOUNT/@errors records (the daemon's
  // log); may be empty. Called on the refused request's thread.
  std::function<void(const std::string& line)> refusal_sink;
  // What MOUNT/@status tells of the daemon beyond the tree, filled by
  // `cellfs mount` (left empty where a Filesystem is built without one).
  struct Daemon {
    std::string data_dir;
    std::string commit;                     // the commit mode: periodic, group or batch
    int commit_interval_ms = 0;             // the sync period or the group window; 0 for batch
    std::function<uint64_t()> store_bytes;  // the data directory's size now; may be empty
  } daemon;
};

// What stat shows. Sizes are exact: a file's size is what read returns.
struct NodeAttr {
  uint64_t inode = 0;
  mode_t mode = 0;  // S_IFDIR | 0755, S_IFREG | 0644 (0444 read-only files, 0200 @insert)
  nlink_t nlink = 1;
  uint64_t size = 0;
  int64_t mtime_micros = 0;  // a cell's write time; directories: newest known, or mount time
  uid_t uid = 0;
  gid_t gid = 0;
};

// A reply that hands an entry to the kernel (lookup, mkdir, create,
// readdirplus). Each such reply has raised the inode's lookup count by one.
struct Entry {
  NodeAttr attr;
  double entry_timeout = 0;
  double attr_timeout = 0;
};

}  // namespace cellfs::fs
