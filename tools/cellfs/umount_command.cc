// `cellfs umount`: fusermount3, the FUSE connection's abort switch, and a
// wait for the daemon to let go of its data directory.
#include "tools/cellfs/umount_command.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "engine/store/storage/store_location.h"
#include "tools/cellfs/mount_table.h"

namespace cellfs::tools {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

// Runs fusermount3 with `args`; false (after a message) when it fails.
bool RunFusermount(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string program = "fusermount3";
  argv.push_back(program.data());
  std::vector<std::string> owned = args;
  for (std::string& arg : owned) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "cellfs: cannot fork: %s\n", ErrnoText(errno).c_str());
    return false;
  }
  if (pid == 0) {
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "cellfs: cannot run fusermount3: %s\n", ErrnoText(errno).c_str());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
    std::string command = "fusermount3";
    for (const std::string& arg : args) command += " " + arg;
    std::fprintf(stderr, "cellfs: %s failed\n", command.c_str());
  }
  return false;
}

constexpr char kFuseControl[] = "/sys/fs/fuse/connections";

// Makes the kernel fail every request of the connection, so nothing waits
// on a daemon that no longer answers. The control filesystem is usually
// mounted at boot; where it is not (containers), root mounts it.
void AbortConnection(unsigned connection) {
  std::string path = kFuseControl + ("/" + std::to_string(connection)) + "/abort";
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT && mount("fusectl", kFuseControl, "fusectl", 0, nullptr) == 0) {
    fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  }
  if (fd < 0 || write(fd, "1", 1) != 1) {
    std::fprintf(stderr, "cellfs: warning: cannot abort the FUSE connection (%s: %s)\n",
                 path.c_str(), ErrnoText(errno).c_str());
  }
  if (fd >= 0) close(fd);
}

// Waits while a process holds LevelDB's lock on `data_dir`/LOCK: the
// daemon is still closing its engine.
void AwaitDataDirRelease(const std::string& data_dir, std::chrono::milliseconds limit) {
  int fd = open((data_dir + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;  // not ours to read, or no engine there
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_GETLK, &lock) != 0 || lock.l_type == F_UNLCK) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      std::fprintf(stderr, "cellfs: warning: the daemon of %s (pid %d) is still running\n",
                   data_dir.c_str(), static_cast<int>(lock.l_pid));
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  close(fd);
}

}  // namespace

int RunUmount(const UmountArgs& args) {
  std::string mount_point = AbsolutePathOfMountPoint(args.mount_point);
  if (mount_point.empty()) {
    std::fprintf(stderr, "cellfs: %s: %s\n", args.mount_point.c_str(), ErrnoText(ENOENT).c_str());
    return 1;
  }
  std::optional<MountEntry> entry = FindMount(mount_point);
  if (args.force) {
    if (!entry || !entry->fs_type.starts_with("fuse")) {
      std::fprintf(stderr, "cellfs: %s is not a FUSE mount\n", args.mount_point.c_str());
      return 1;
    }
    AbortConnection(entry->minor);
    if (!RunFusermount({"-u", "-z", mount_point})) return 1;
  } else if (!RunFusermount({"-u", mount_point})) {
    if (entry) {
      std::fprintf(stderr, "cellfs: `cellfs umount --force %s` detaches it regardless\n",
                   args.mount_point.c_str());
    }
    return 1;
  }
  if (entry && IsMounted(*entry)) {
    std::fprintf(stderr, "cellfs: %s is still mounted\n", args.mount_point.c_str());
    return 1;
  }
  // A pool has no LOCK file to wait on (and other mounts may share it).
  if (entry && entry->fs_type == "fuse.cellfs" && !storage::IsRadosSpelling(entry->source)) {
    using std::chrono::milliseconds;
    AwaitDataDirRelease(entry->source, args.force ? milliseconds(5000) : milliseconds(60000));
  }
  return 0;
}

}  // namespace cellfs::tools
