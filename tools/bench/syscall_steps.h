// The checked system-call steps the mounted-filesystem benchmarks share
// (fs_bench, path_bench): any failure ends the run with the step, the path
// and the error, so a benchmark never times an operation that failed.
#pragma once

#include <dirent.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cellfs::bench {

// Prints "PROGRAM: WHAT PATH: strerror(err)" and exits 1. `program` names
// the benchmark (set by its main).
inline const char* program = "bench";

[[noreturn]] inline void Fail(const char* what, const std::string& path, int err) {
  std::fprintf(stderr, "%s: %s %s: %s\n", program, what, path.c_str(), std::strerror(err));
  std::exit(1);
}

// opendir, readdir to the end, closedir, as `ls -U` does: the entries
// listed, "." and ".." not counted.
inline size_t ListEntries(const std::string& path) {
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) Fail("opendir", path, errno);
  size_t count = 0;
  errno = 0;
  while (const dirent* entry = readdir(dir)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) ++count;
  }
  if (errno != 0) Fail("readdir", path, errno);
  if (closedir(dir) != 0) Fail("closedir", path, errno);
  return count;
}

}  // namespace cellfs::bench
