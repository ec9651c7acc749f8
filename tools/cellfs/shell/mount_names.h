// MountNames: the NameSource over a live mount — keyspaces and tables are
// its directories, columns come from MOUNT/ks/table/@schema.
#pragma once

#include <string>
#include <vector>

#include "tools/cellfs/shell/completion.h"

namespace cellfs::tools::shell {

// Reads the mount on every call (completion is rare and the kernel caches
// listings). Thread-compatible.
class MountNames : public NameSource {
 public:
  explicit MountNames(std::string mount_point) : mount_point_(std::move(mount_point)) {}

  std::vector<std::string> Keyspaces() override;
  std::vector<std::string> Tables(const std::string& keyspace) override;
  std::vector<std::string> Columns(const std::string& keyspace, const std::string& table) override;

 private:
  std::string mount_point_;
};

// The subdirectories of `dir` (not "." or ".."), in listing order; empty
// when it cannot be read.
std::vector<std::string> ListDirectories(const std::string& dir);

}  // namespace cellfs::tools::shell
