// FsDriver: drives fs::Filesystem by slash paths the way the kernel would
// (lookups from the root inode, open / write / flush / release, readdir in
// chunks), over a TestEngine, so fs tests read like shell sessions.
#pragma once

#include <fcntl.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "fs/files/notifier.h"
#include "fs/ops/filesystem.h"
#include "tests/engine/engine_test_util.h"

namespace cellfs::testing {

// A Notifier that records every call, for tests that check what the fs
// tells the kernel. Thread-safe.
class RecordingNotifier final : public fs::Notifier {
 public:
  struct Event {
    bool entry = false;  // InvalidateEntry (else InvalidateInode)
    uint64_t inode = 0;  // the parent for an entry, the inode otherwise
    std::string name;    // entries only
  };

  void InvalidateEntry(uint64_t parent, std::string name) override;
  void InvalidateInode(uint64_t inode) override;

  std::vector<Event> events() const;
  bool SawInode(uint64_t inode) const;
  bool SawEntry(uint64_t parent, std::string_view name) const;
  void Clear();

 private:
  mutable std::mutex mutex_;  // guards events_
  std::vector<Event> events_;
};

// How List reads a directory.
struct ListOptions {
  bool plus = false;  // readdirplus
  // Entries the sink takes per ReadDir call before it reports a full buffer.
  size_t chunk = std::numeric_limits<size_t>::max();
  bool include_dots = false;  // keep "." and ".." in the result
  // Runs after each ReadDir call that returned entries (writes meanwhile).
  std::function<void()> between_chunks;
};

// One listed entry, with the offset the fs gave to continue after it.
struct Listed {
  std::string name;
  uint64_t next_offset = 0;
  uint64_t inode = 0;
  mode_t mode = 0;
  uint64_t size = 0;         // readdirplus only
  int64_t mtime_micros = 0;  // readdirplus only
};

// Paths are relative to the mount root, '/'-separated ("" is the root);
// each component is handed to the fs as is (escapes included). Every entry
// reply the fs gives (lookup, mkdir, create, readdirplus) is held like a
// kernel dentry until DropCaches, which forgets them all; the destructor
// does so too. Operations may be called from several threads at once (as
// the kernel sends requests); the conveniences that REQUIRE, DropCaches and
// last_step() are for the test's main thread.
class FsDriver {
 public:
  static constexpr int kWriteFlags = O_WRONLY | O_CREAT | O_TRUNC;
  static constexpr int kAppendFlags = O_WRONLY | O_CREAT | O_APPEND;

  // A driver over an engine of its own.
  explicit FsDriver(const fs::FilesystemOptions& options = {});
  // A second filesystem over `engine` (e.g. a read-only one), which must
  // outlive the driver.
  FsDriver(TestEngine* engine, const fs::FilesystemOptions& options);
  ~FsDriver();
  FsDriver(const FsDriver&) = delete;
  FsDriver& operator=(const FsDriver&) = delete;

  fs::Filesystem& fs() { return *fs_; }
  TestEngine& test_engine() { return *engine_; }
  Engine& engine() { return *engine_->engine; }
  ManualClock& clock() { return engine_->clock; }
  RecordingNotifier& notifier() { return notifier_; }

  // ---- Operations: 0 or a positive errno.
  // The inode of `path`, looked up component by component.
  int Resolve(std::string_view path, uint64_t* inode, fs::NodeAttr* attr = nullptr);
  int Stat(std::string_view path, fs::NodeAttr* attr);
  int Mkdir(std::string_view path);
  // rmdir(2), unlink(2): the name is looked up first, as the VFS does.
  int Rmdir(std::string_view path);
  int Rm(std::string_view path);
  // open(2) with `flags` (create(2) when O_CREAT and the name is absent),
  // write(2) of `data` in pieces of `chunk` bytes, close(2). last_step()
  // says which request failed: "lookup", "open", "write" or "flush".
  int Write(std::string_view path, std::string_view data, int flags = kWriteFlags,
            size_t chunk = std::numeric_limits<size_t>::max());
  int Append(std::string_view path, std::string_view data) {
    return Write(path, data, kAppendFlags);
  }
  // open(2) read-only and read(2) to the end, `chunk` bytes at a time.
  int Read(std::string_view path, std::string* out, size_t chunk = 4096);
  int List(std::string_view path, std::vector<Listed>* out, const ListOptions& options = {});
  int GetXattr(std::string_view path, std::string_view name, std::string* value);
  int SetXattr(std::string_view path, std::string_view name, std::string_view value);
  int ListXattr(std::string_view path, std::vector<std::string>* names);
  // Writes `cql` to @cql and reads the transcript back on the same open
  // file; returns the write's or flush's error (the transcript is read
  // either way).
  int Cql(std::string_view cql, std::string* transcript);

  // ---- Conveniences that REQUIRE success.
  std::string Cat(std::string_view path);
  std::vector<std::string> Ls(std::string_view path, bool plus = false);
  void Ddl(std::string_view cql);      // every statement must answer OK
  bool Exists(std::string_view path);  // lookup succeeds

  std::string last_step() const {
    std::lock_guard lock(mutex_);
    return last_step_;
  }

  // The kernel lets go of every entry it holds (echo 2 > drop_caches).
  void DropCaches();
  // Lookups held, summed over inodes.
  uint64_t held_lookups() const;

 private:
  void Hold(uint64_t inode);
  void SetStep(const char* step);
  // Splits `path` into its parent's inode and its last component.
  int ResolveParent(std::string_view path, uint64_t* parent, std::string* name);
  // The lookup the kernel's VFS makes of a name before unlink or rmdir.
  int LookupChild(uint64_t parent, const std::string& name);

  std::unique_ptr<TestEngine> owned_engine_;
  TestEngine* engine_;
  RecordingNotifier notifier_;
  std::unique_ptr<fs::Filesystem> fs_;
  mutable std::mutex mutex_;           // guards held_ and last_step_
  std::map<uint64_t, uint64_t> held_;  // inode -> lookups the "kernel" holds
  std::string last_step_;
};

}  // namespace cellfs::testing
