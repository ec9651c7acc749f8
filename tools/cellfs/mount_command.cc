// `cellfs mount`: checks the paths, daemonises, then runs engine, filesystem
// and FUSE session, and takes them down in reverse order on unmount.
#include "tools/cellfs/mount_command.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "engine/engine.h"
#include "fs/fuse/fuse_binding.h"
#include "fs/ops/filesystem.h"
#include "tools/cellfs/daemon.h"
#include "tools/cellfs/data_dir_trust.h"
#include "tools/cellfs/mount_options.h"
#include "tools/cellfs/new_store_cleanup.h"
#include "tools/cellfs/store_argument.h"
#include "tools/cellfs/unique_fd.h"

namespace cellfs::tools {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

Result<std::string> RealPath(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) {
    int err = errno;
    std::string hint = err == ENOTCONN ? " (a dead mount: run cellfs umount --force)" : "";
    return Status::IOError(path + ": " + ErrnoText(err) + hint);
  }
  std::string out(resolved);
  std::free(resolved);
  return out;
}

struct MountPaths {
  std::string mount_point;  // absolute
  // The store: a pool's spelling, or the judged data directory (absolute),
  // which the engine is reached through.
  StoreArgument store;
};

Result<MountPaths> PreparePaths(const MountArgs& args, bool read_only) {
  MountPaths paths;
  Result<std::string> mount_point = RealPath(args.mount_point);
  if (!mount_point.ok()) return Status::IOError("mount point " + mount_point.status().message());
  paths.mount_point = *mount_point;
  StoreArgumentOptions store_options;
  store_options.create = !read_only;  // a read-only mount creates nothing
  store_options.mount_point = paths.mount_point;
  Result<StoreArgument> store = OpenStoreArgument(args.data_dir, store_options);
  if (!store.ok()) return store.status();
  paths.store = std::move(*store);
  return paths;
}

// Keeps SIGINT/SIGTERM/SIGHUP away from the threads the engine and the
// filesystem start: libfuse's handler stops the session only when it runs
// on the session loop's thread (libfuse blocks them in its own workers).
class TerminationSignalsBlocked {
 public:
  TerminationSignalsBlocked() {
    sigset_t blocked;
    sigemptyset(&blocked);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&blocked, sig);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous_);
  }
  ~TerminationSignalsBlocked() { Restore(); }
  TerminationSignalsBlocked(const TerminationSignalsBlocked&) = delete;
  TerminationSignalsBlocked& operator=(const TerminationSignalsBlocked&) = delete;

  void Restore() {
    if (restored_) return;
    restored_ = true;
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  sigset_t previous_;
  bool restored_ = false;
};

fs::FilesystemOptions FilesystemOptionsFor(const MountOptions& options, bool shared_store) {
  fs::FilesystemOptions out;
  out.entry_timeout = options.entry_timeout;
  out.attr_timeout = options.attr_timeout;
  if (shared_store && !options.entry_timeout_given) {
    out.entry_timeout = std::min(out.entry_timeout, kSharedStoreTimeout);
  }
  if (shared_store && !options.attr_timeout_given) {
    out.attr_timeout = std::min(out.attr_timeout, kSharedStoreTimeout);
  }
  out.uid = getuid();
  out.gid = getgid();
  out.read_only = options.read_only;
  return out;
}

// The bytes of the files in directory `dir_fd` and below: the store's size.
uint64_t DirectoryBytes(int dir_fd) {
  int copy = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (copy < 0) return 0;
  DIR* dir = fdopendir(copy);
  if (dir == nullptr) {
    close(copy);
    return 0;
  }
  uint64_t bytes = 0;
  while (dirent* entry = readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      bytes += static_cast<uint64_t>(st.st_size);
    } else if (S_ISDIR(st.st_mode)) {
      UniqueFd below(
          openat(dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (below.valid()) bytes += DirectoryBytes(below.get());
    }
  }
  closedir(dir);
  return bytes;
}

const char* CommitModeName(CommitMode mode) {
  switch (mode) {
    case CommitMode::kPeriodic:
      return "periodic";
    case CommitMode::kGroup:
      return "group";
    case CommitMode::kBatch:
      return "batch";
  }
  return "?";
}

// What MOUNT/@status tells of this daemon.
fs::FilesystemOptions::Daemon DaemonFactsFor(const MountPaths& paths, const EngineOptions& engine) {
  fs::FilesystemOptions::Daemon facts;
  facts.data_dir = paths.store.path;
  facts.commit = CommitModeName(engine.commit_mode);
  facts.commit_interval_ms = engine.commit_mode == CommitMode::kPeriodic ? engine.commit_period_ms
                             : engine.commit_mode == CommitMode::kGroup  ? engine.group_window_ms
                                                                         : 0;
  if (!paths.store.rados) {                       // a pool's size is the cluster's to tell
    const int dir_fd = paths.store.dir_fd.get();  // held for the daemon's life
    facts.store_bytes = [dir_fd] { return DirectoryBytes(dir_fd); };
  }
  return facts;
}

fs::SessionOptions SessionOptionsFor(const MountPaths& paths, const MountOptions& options) {
  fs::SessionOptions out;
  out.mount_point = paths.mount_point;
  // The source mount(8) shows: the directory, or a pool's spelling
  // (SessionArgs escapes its ',' and '\' for libfuse's option parser).
  out.fs_name = paths.store.path;
  out.debug = options.debug;
  out.allow_other = options.allow_other;
  out.xattr = options.xattr;
  out.read_only = options.read_only;
  out.fuse_options = options.fuse_options;
  return out;
}

// Runs the filesystem over an open engine until unmounted. *mounted tells
// whether the mount was made (the failure came after it served).
Status ServeEngine(Daemon& daemon, Engine* engine, const MountPaths& paths,
                   const MountOptions& options, TerminationSignalsBlocked* signals, bool* mounted) {
  fs::FuseSession session(SessionOptionsFor(paths, options));
  fs::FilesystemOptions fs_options = FilesystemOptionsFor(options, paths.store.rados);
  fs_options.daemon = DaemonFactsFor(paths, EngineOptionsFor(options));
  // Every refusal MOUNT/@errors records, also in the log (stderr with -f).
  fs_options.refusal_sink = [&daemon](const std::string& line) {
    daemon.Log(LOG_WARNING, "refused: " + line);
  };
  fs::Filesystem filesystem(engine, session.notifier(), fs_options);
  signals->Restore();
  std::string where = paths.store.path + " at " + paths.mount_point;
  CELLFS_RETURN_IF_ERROR(session.Serve(&filesystem, [&] {
    *mounted = true;
    daemon.ReportReady();
    daemon.Log(LOG_INFO, "mounted " + where);
  }));
  daemon.Log(LOG_INFO, "unmounted " + where);
  return Status::Ok();
}

int Serve(Daemon& daemon, const MountArgs& args, MountPaths& paths, const MountOptions& options) {
  TerminationSignalsBlocked signals;
  umask(kStoreUmask);
  // A mount that fails before it serves takes away the store it created,
  // before its error reaches the caller. A pool is left as it is: other
  // mounts may share it.
  std::optional<NewStoreCleanup> cleanup;
  if (!paths.store.rados) cleanup.emplace(paths.store.dir_fd.get(), std::move(paths.store.made));
  auto fail = [&](const std::string& message) {
    if (Status undone = cleanup ? cleanup->Undo() : Status::Ok(); !undone.ok()) {
      daemon.Log(LOG_ERR,
                 "could not remove the new store after the failed mount: " + undone.message());
    }
    daemon.ReportError(message);
    return 1;
  };
  EngineOptions engine_options = EngineOptionsFor(options);
  // No second walk of a directory's path; -1 (and no env) for a pool.
  engine_options.data_dir_fd = paths.store.dir_fd.get();
  engine_options.on_write_failure = [&daemon](const Status& failure) {
    daemon.Log(LOG_ERR, failure.ToString());  // the one line an operator needs
  };
  Result<std::unique_ptr<Engine>> engine = Engine::Open(paths.store.path, engine_options);
  if (!engine.ok()) return fail(args.data_dir + ": " + engine.status().message());
  if (cleanup) cleanup->Opened();
  bool mounted = false;
  Status served = ServeEngine(daemon, engine->get(), paths, options, &signals, &mounted);
  engine->reset();  // a clean close: the sweeper stops and the log is synced
  if (served.ok()) return 0;
  if (mounted) {
    daemon.ReportError(served.message());
    return 1;
  }
  return fail(served.message());
}

std::string JoinOptions(const std::vector<std::string>& options) {
  std::string joined;
  for (const std::string& option : options) joined += (joined.empty() ? "" : ",") + option;
  return joined;
}

}  // namespace

int RunMount(const MountArgs& args) {
  Result<MountOptions> options = ParseMountOptions(JoinOptions(args.options));
  if (!options.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", options.status().message().c_str());
    return 2;
  }
  // Before the data directory is made: a refused option creates nothing.
  if (Status taken = fs::CheckFuseOptions(options->fuse_options); !taken.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", taken.message().c_str());
    return 2;
  }
  // The mount point's usual faults, also before anything is created.
  if (Result<std::string> at = RealPath(args.mount_point); at.ok()) {
    if (Status usable = fs::CheckMountPoint(*at); !usable.ok()) {
      std::fprintf(stderr, "cellfs: %s\n", usable.message().c_str());
      return 1;
    }
  }
  Result<MountPaths> paths = PreparePaths(args, options->read_only);
  if (!paths.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", paths.status().message().c_str());
    return 1;
  }
  bool foreground = args.foreground || options->debug;
  Result<Daemon> daemon =
      foreground ? Daemon::Foreground()
                 : Daemon::Background({paths->store.dir_fd.get(), paths->store.made.parent.get()});
  if (!daemon.ok()) {
    std::fprintf(stderr, "cellfs: %s\n", daemon.status().message().c_str());
    return 1;
  }
  return Serve(*daemon, args, *paths, *options);
}

}  // namespace cellfs::tools
