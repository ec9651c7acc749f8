// mount.cellfs: the mount(8) helper, so that `mount -t cellfs DATADIR MNT`
// and /etc/fstab entries (`DATADIR MNT cellfs defaults 0 0`) work. It runs
// `cellfs mount` (found beside this program, else where `cmake --install`
// put it, else on PATH) with the options that concern cellfs. DATADIR may
// be a pool's spelling (`rados:POOL?conf=FILE MNT cellfs _netdev 0 0`),
// passed on as it is: `cellfs mount` checks it.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/cellfs/mount_helper_args.h"

namespace {

// The `cellfs` to run: the one in the directory of this executable (a
// build tree), else where `cmake --install` put it (mount(8) runs helpers
// with no PATH, and installs the helper in /sbin, away from PREFIX/bin),
// else whichever PATH finds.
std::string CellfsToRun() {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    std::string path(self, static_cast<size_t>(n));
    std::string beside = path.substr(0, path.rfind('/') + 1) + "cellfs";
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  if (access(CELLFS_INSTALLED_PATH, X_OK) == 0) return CELLFS_INSTALLED_PATH;
  return "cellfs";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto parsed = cellfs::tools::ParseMountHelperArgs(args);
  if (!parsed.ok()) {
    std::fprintf(stderr,
                 "mount.cellfs: %s\nusage: mount.cellfs DATADIR MOUNTPOINT [-sfnv] [-o OPTIONS]\n",
                 parsed.status().message().c_str());
    return 1;
  }
  const cellfs::tools::MountHelperArgs& helper = parsed.value();
  std::string cellfs = CellfsToRun();
  std::vector<std::string> command = {cellfs, "mount"};
  if (!helper.cellfs_options.empty()) {
    command.push_back("-o");
    command.push_back(helper.cellfs_options);
  }
  command.push_back(helper.data_dir);
  command.push_back(helper.mount_point);
  if (helper.verbose || helper.fake) {
    std::string line;
    for (const std::string& part : command) line += (line.empty() ? "" : " ") + part;
    std::fprintf(stderr, "mount.cellfs: %s%s\n", helper.fake ? "would run " : "", line.c_str());
  }
  if (helper.fake) return 0;
  std::vector<char*> exec_args;
  for (std::string& part : command) exec_args.push_back(part.data());
  exec_args.push_back(nullptr);
  execvp(exec_args[0], exec_args.data());
  std::fprintf(stderr, "mount.cellfs: cannot run %s: %s\n", cellfs.c_str(), std::strerror(errno));
  return 1;
}
