// Parses mount(8)'s call of mount.cellfs (tools/cellfs/mount_helper_args.h).
#include "tools/cellfs/mount_helper_args.h"

#include <array>
#include <string_view>

#include "tools/cellfs/mount_options.h"

namespace cellfs::tools {
namespace {

// mount(8)'s generic options: handled by mount(8) itself, or meaningless
// for a FUSE daemon (which is always nosuid,nodev).
bool IsGenericOption(std::string_view option) {
  static constexpr std::array<std::string_view, 28> kGeneric = {
      "defaults",   "auto",     "noauto", "user",    "users",    "nouser",     "owner",
      "group",      "_netdev",  "nofail", "suid",    "nosuid",   "dev",        "nodev",
      "exec",       "noexec",   "atime",  "noatime", "relatime", "norelatime", "strictatime",
      "nodiratime", "diratime", "sync",   "async",   "rw",       "lazytime",   "nolazytime"};
  for (std::string_view generic : kGeneric) {
    if (option == generic) return true;
  }
  return option == "silent" || option == "loud" || option.starts_with("x-") ||
         option.starts_with("comment=");
}

void AppendOption(std::string_view option, std::string* out) {
  if (!out->empty()) out->push_back(',');
  out->append(option);
}

// Keeps the options of `text` that cellfs should see.
void FilterOptions(std::string_view text, bool sloppy, std::string* out) {
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view option = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (option.empty() || IsGenericOption(option)) continue;
    if (sloppy && !IsCellfsOption(option)) continue;
    AppendOption(option, out);
  }
}

}  // namespace

Result<MountHelperArgs> ParseMountHelperArgs(const std::vector<std::string>& args) {
  MountHelperArgs out;
  std::vector<std::string> positional;
  std::vector<std::string> option_texts;
  bool sloppy = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    if (arg == "-o" || arg == "-N" || arg == "-t") {
      if (i + 1 == args.size()) return Status::InvalidArgument(arg + " needs a value");
      if (arg == "-o") option_texts.push_back(args[i + 1]);
      ++i;
      continue;
    }
    for (char flag : std::string_view(arg).substr(1)) {
      switch (flag) {
        case 's':
          sloppy = true;
          break;
        case 'f':
          out.fake = true;
          break;
        case 'v':
          out.verbose = true;
          break;
        case 'n':
          break;  // no /etc/mtab: there is none to write
        default:
          return Status::InvalidArgument(std::string("unknown flag -") + flag);
      }
    }
  }
  if (positional.size() != 2) {
    return Status::InvalidArgument("expected DATADIR and MOUNTPOINT, got " +
                                   std::to_string(positional.size()) + " arguments");
  }
  out.data_dir = positional[0];
  out.mount_point = positional[1];
  for (const std::string& text : option_texts) FilterOptions(text, sloppy, &out.cellfs_options);
  return out;
}

}  // namespace cellfs::tools
