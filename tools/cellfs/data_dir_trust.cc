// The ownership and mode check on data directories
// (tools/cellfs/data_dir_trust.h).
#include "tools/cellfs/data_dir_trust.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cellfs::tools {

Status CheckDataDirTrust(const std::string& dir, uid_t user) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return Status::IOError(dir + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return Status::FailedPrecondition(dir + " is not a directory");
  if (st.st_uid != user) {
    return Status::FailedPrecondition(
        "the data directory " + dir + " is owned by uid " + std::to_string(st.st_uid) +
        ", not by the user opening it (uid " + std::to_string(user) +
        "); its owner could redirect the store's files (chown it to the user who mounts)");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Status::FailedPrecondition("the data directory " + dir + " is writable by " +
                                      ((st.st_mode & S_IWOTH) != 0 ? "others" : "its group") +
                                      " (mode " + mode +
                                      "), who could redirect the store's files (chmod go-w it)");
  }
  return Status::Ok();
}

}  // namespace cellfs::tools
