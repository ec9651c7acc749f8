// Parses /proc/self/mountinfo (proc(5)): "ID PARENT MAJ:MIN ROOT MOUNT_POINT
// OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS", octal-escaped.
#include "tools/cellfs/mount_table.h"

#include <climits>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace cellfs::tools {
namespace {

// The kernel writes space, tab, newline and backslash as \ooo.
std::string Unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      std::string_view digits = field.substr(i + 1, 3);
      if (digits.find_first_not_of("01234567") == std::string_view::npos) {
        out +=
            static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0'));
        i += 3;
        continue;
      }
    }
    out += field[i];
  }
  return out;
}

std::vector<std::string_view> SplitSpaces(std::string_view line) {
  std::vector<std::string_view> fields;
  while (!line.empty()) {
    size_t space = line.find(' ');
    if (space != 0) fields.push_back(line.substr(0, space));
    if (space == std::string_view::npos) break;
    line.remove_prefix(space + 1);
  }
  return fields;
}

template <typename Visit>
void ForEachMount(Visit visit) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (std::optional<MountEntry> entry = ParseMountInfoLine(line)) visit(*entry);
  }
}

}  // namespace

std::optional<MountEntry> ParseMountInfoLine(std::string_view line) {
  std::vector<std::string_view> fields = SplitSpaces(line);
  size_t dash = 6;
  while (dash < fields.size() && fields[dash] != "-") ++dash;
  if (fields.size() < 6 || dash + 2 >= fields.size()) return std::nullopt;
  MountEntry entry;
  std::string id(fields[0]);
  std::string device(fields[2]);
  size_t colon = device.find(':');
  if (colon == std::string::npos) return std::nullopt;
  char* end = nullptr;
  long mount_id = std::strtol(id.c_str(), &end, 10);
  if (*end != '\0' || mount_id < 0 || mount_id > INT_MAX) return std::nullopt;
  unsigned long minor = std::strtoul(device.c_str() + colon + 1, &end, 10);
  if (*end != '\0' || minor > UINT_MAX) return std::nullopt;
  entry.mount_id = static_cast<int>(mount_id);
  entry.minor = static_cast<unsigned>(minor);
  entry.mount_point = Unescape(fields[4]);
  entry.fs_type = Unescape(fields[dash + 1]);
  entry.source = Unescape(fields[dash + 2]);
  return entry;
}

std::vector<MountEntry> ListMounts(std::string_view fs_type) {
  std::vector<MountEntry> mounts;
  ForEachMount([&](const MountEntry& entry) {
    if (entry.fs_type == fs_type) mounts.push_back(entry);
  });
  return mounts;
}

std::optional<MountEntry> FindMount(const std::string& path) {
  std::optional<MountEntry> found;
  ForEachMount([&](const MountEntry& entry) {
    if (entry.mount_point == path) found = entry;  // later lines are mounted on top
  });
  return found;
}

bool IsMounted(const MountEntry& mount) {
  bool mounted = false;
  ForEachMount([&](const MountEntry& entry) {
    mounted =
        mounted || (entry.mount_id == mount.mount_id && entry.mount_point == mount.mount_point &&
                    entry.source == mount.source && entry.minor == mount.minor);
  });
  return mounted;
}

std::string AbsolutePathOfMountPoint(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  size_t slash = path.rfind('/');
  std::string parent = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty()) return "/";
  char* resolved = realpath(parent.c_str(), nullptr);
  if (resolved == nullptr) return "";
  std::string dir(resolved);
  std::free(resolved);
  if (name == ".") return dir;
  if (name == "..") {
    size_t last = dir.rfind('/');
    return last == 0 ? "/" : dir.substr(0, last);
  }
  return (dir == "/" ? "" : dir) + "/" + name;
}

}  // namespace cellfs::tools
