// The ownership and mode walk over a data directory and its ancestors
// (tools/cellfs/data_dir_trust.h).
#include "tools/cellfs/data_dir_trust.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cellfs::tools {
namespace {

std::string ModeText(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

Status ErrnoError(const std::string& path, int err) {
  return Status::IOError(path + ": " + std::strerror(err));
}

Result<std::string> RealPath(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return ErrnoError(path, errno);
  std::string out(resolved);
  std::free(resolved);
  return out;
}

// The absolute, symlink-free spelling of `dir`; for a missing `dir`, that
// of its parent plus its last name.
Result<std::string> Resolve(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  struct stat st {};
  if (lstat(dir.c_str(), &st) == 0 || errno != ENOENT) return RealPath(dir);
  size_t slash = dir.rfind('/');
  std::string parent = slash == std::string::npos ? "." : dir.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? dir : dir.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") return RealPath(dir);
  Result<std::string> real_parent = RealPath(parent);
  if (!real_parent.ok()) return ErrnoError(dir, ENOENT);
  return (*real_parent == "/" ? "" : *real_parent) + "/" + name;
}

std::vector<std::string> Components(const std::string& absolute) {
  std::vector<std::string> out;
  size_t at = 1;
  while (at < absolute.size()) {
    size_t slash = absolute.find('/', at);
    if (slash == std::string::npos) slash = absolute.size();
    if (slash > at) out.push_back(absolute.substr(at, slash - at));
    at = slash + 1;
  }
  return out;
}

// An ancestor another user could rename or replace entries of.
Status JudgeAncestor(const std::string& dir, const std::string& ancestor, const struct stat& st,
                     uid_t user) {
  std::string unsafe = "the data directory " + dir + " is not safe: its ancestor " + ancestor;
  std::string fix = ", or use a directory elsewhere)";
  if (st.st_uid != 0 && st.st_uid != user) {
    return Status::FailedPrecondition(unsafe + " is owned by uid " + std::to_string(st.st_uid) +
                                      ", who could replace the data directory (chown root " +
                                      ancestor + fix);
  }
  // In a sticky directory only an entry's owner (checked on the next
  // component) can rename or remove it.
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0) {
    bool others = (st.st_mode & S_IWOTH) != 0;
    return Status::FailedPrecondition(
        unsafe + " is writable by " + (others ? "others" : "its group") + " (mode " +
        ModeText(st.st_mode) + "), who could replace the data directory (chmod " +
        (others ? "o-w " : "g-w ") + ancestor + fix);
  }
  return Status::Ok();
}

Status JudgeDataDir(const std::string& dir, const struct stat& st, uid_t user) {
  if (!S_ISDIR(st.st_mode)) return Status::FailedPrecondition(dir + " is not a directory");
  if (st.st_uid != user) {
    return Status::FailedPrecondition(
        "the data directory " + dir + " is owned by uid " + std::to_string(st.st_uid) +
        ", not by the user opening it (uid " + std::to_string(user) +
        "); its owner could redirect the store's files (chown it to the user who mounts)");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return Status::FailedPrecondition("the data directory " + dir + " is writable by " +
                                      ((st.st_mode & S_IWOTH) != 0 ? "others" : "its group") +
                                      " (mode " + ModeText(st.st_mode) +
                                      "), who could redirect the store's files (chmod go-w it)");
  }
  return Status::Ok();
}

// Opens `name` in `parent` as a directory without following a link.
UniqueFd OpenDirectoryAt(int parent, const std::string& name, int flags) {
  return UniqueFd(openat(parent, name.c_str(), flags | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

}  // namespace

Result<UniqueFd> OpenTrustedDataDir(const std::string& dir, uid_t user, bool create,
                                    MadeDirectory* made_out) {
  Result<std::string> resolved = Resolve(dir);
  if (!resolved.ok()) return resolved.status();
  const std::string& path = *resolved;
  std::vector<std::string> names = Components(path);
  if (names.empty()) return Status::FailedPrecondition("/ cannot be a data directory");

  UniqueFd current(open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  std::string at = "/";
  struct stat st {};
  for (size_t i = 0;; ++i) {
    if (!current.valid() || fstat(current.get(), &st) != 0) return ErrnoError(at, errno);
    CELLFS_RETURN_IF_ERROR(JudgeAncestor(path, at, st, user));
    if (i + 1 == names.size()) break;
    at += (at == "/" ? "" : "/") + names[i];
    current = OpenDirectoryAt(current.get(), names[i], O_PATH);
  }

  const std::string& name = names.back();
  UniqueFd data = OpenDirectoryAt(current.get(), name, O_RDONLY);
  bool made = false;
  if (!data.valid() && errno == ENOENT && create) {
    if (mkdirat(current.get(), name.c_str(), 0700) == 0) {
      made = true;
    } else if (errno != EEXIST) {
      return ErrnoError(path, errno);
    }
    data = OpenDirectoryAt(current.get(), name, O_RDONLY);
  }
  if (!data.valid()) return ErrnoError(path, errno);
  if (fstat(data.get(), &st) != 0) return ErrnoError(path, errno);
  // 0700 whatever the umask, which could have narrowed it to unusable.
  if (made && st.st_uid == user && fchmod(data.get(), 0700) == 0) st.st_mode = S_IFDIR | 0700;
  if (Status judged = JudgeDataDir(path, st, user); !judged.ok()) {
    // A refused directory this call made is not left behind (it is empty;
    // its trusted parent lets nobody else swap it).
    if (made) (void)unlinkat(current.get(), name.c_str(), AT_REMOVEDIR);
    return judged;
  }
  if (made && made_out != nullptr) {
    made_out->parent = std::move(current);
    made_out->name = name;
  }
  return data;
}

}  // namespace cellfs::tools
