// Listing a mount's keyspace and table directories and reading @schema.
#include "tools/cellfs/shell/mount_names.h"

#include <dirent.h>

#include <fstream>
#include <iterator>
#include <memory>

namespace cellfs::tools::shell {

std::vector<std::string> ListDirectories(const std::string& dir) {
  std::vector<std::string> names;
  std::unique_ptr<DIR, int (*)(DIR*)> stream(opendir(dir.c_str()), closedir);
  if (stream == nullptr) return names;
  while (const dirent* entry = readdir(stream.get())) {
    const std::string name = entry->d_name;
    if (name == "." || name == ".." || (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN)) {
      continue;
    }
    names.push_back(name);
  }
  return names;
}

std::vector<std::string> MountNames::Keyspaces() { return ListDirectories(mount_point_); }

std::vector<std::string> MountNames::Tables(const std::string& keyspace) {
  if (keyspace.empty() || keyspace.find('/') != std::string::npos) return {};
  return ListDirectories(mount_point_ + "/" + keyspace);
}

std::vector<std::string> MountNames::Columns(const std::string& keyspace,
                                             const std::string& table) {
  if (keyspace.find('/') != std::string::npos || table.find('/') != std::string::npos) return {};
  std::ifstream in(mount_point_ + "/" + keyspace + "/" + table + "/@schema");
  if (!in) return {};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return SchemaColumns(text);
}

}  // namespace cellfs::tools::shell
