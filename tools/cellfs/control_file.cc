// Reads a control file's report back (tools/cellfs/control_file.h).
#include "tools/cellfs/control_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cellfs::tools {

bool ReadWholeFile(int fd, const std::string& path, std::string* out) {
  char buf[64 * 1024];
  off_t offset = 0;
  while (true) {
    ssize_t n = pread(fd, buf, sizeof(buf), offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      std::fprintf(stderr, "cellfs: reading %s: %s\n", path.c_str(), std::strerror(errno));
      return false;
    }
    if (n == 0) return true;
    out->append(buf, static_cast<size_t>(n));
    offset += n;
  }
}

}  // namespace cellfs::tools
