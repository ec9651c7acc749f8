// The files, directory calls and lock of DirectoryEnv
// (engine/store/storage/leveldb/directory_env.h), all relative to its descriptor.
#include "engine/store/storage/leveldb/directory_env.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

namespace cellfs::storage {
namespace {

constexpr size_t kWriteBufferBytes = 64 * 1024;  // as LevelDB's posix env

leveldb::Status ErrnoStatus(const std::string& context, int err) {
  if (err == ENOENT) return leveldb::Status::NotFound(context, std::strerror(err));
  return leveldb::Status::IOError(context, std::strerror(err));
}

bool IsManifest(std::string_view name) { return name.starts_with("MANIFEST"); }

class SequentialFile final : public leveldb::SequentialFile {
 public:
  SequentialFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~SequentialFile() override { close(fd_); }

  leveldb::Status Read(size_t n, leveldb::Slice* result, char* scratch) override {
    ssize_t got;
    while ((got = read(fd_, scratch, n)) < 0) {
      if (errno != EINTR) return ErrnoStatus(fname_, errno);
    }
    *result = leveldb::Slice(scratch, static_cast<size_t>(got));
    return leveldb::Status::OK();
  }

  leveldb::Status Skip(uint64_t n) override {
    if (lseek(fd_, static_cast<off_t>(n), SEEK_CUR) < 0) return ErrnoStatus(fname_, errno);
    return leveldb::Status::OK();
  }

 private:
  const std::string fname_;
  const int fd_;
};

class RandomAccessFile final : public leveldb::RandomAccessFile {
 public:
  RandomAccessFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~RandomAccessFile() override { close(fd_); }

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    ssize_t got;
    while ((got = pread(fd_, scratch, n, static_cast<off_t>(offset))) < 0) {
      if (errno != EINTR) {
        *result = leveldb::Slice(scratch, 0);
        return ErrnoStatus(fname_, errno);
      }
    }
    *result = leveldb::Slice(scratch, static_cast<size_t>(got));
    return leveldb::Status::OK();
  }

 private:
  const std::string fname_;
  const int fd_;
};

class WritableFile final : public leveldb::WritableFile {
 public:
  // `dir_fd` (not owned) is synced with a MANIFEST file, so that a new
  // MANIFEST's name is durable before CURRENT points at it.
  WritableFile(std::string fname, int fd, int dir_fd, bool manifest)
      : fname_(std::move(fname)), fd_(fd), dir_fd_(dir_fd), manifest_(manifest) {}
  ~WritableFile() override {
    if (fd_ >= 0) (void)Close();
  }

  leveldb::Status Append(const leveldb::Slice& data) override {
    const char* at = data.data();
    size_t left = data.size();
    size_t copied = std::min(left, kWriteBufferBytes - used_);
    std::memcpy(buffer_ + used_, at, copied);
    used_ += copied;
    at += copied;
    left -= copied;
    if (left == 0) return leveldb::Status::OK();
    leveldb::Status s = FlushBuffer();
    if (!s.ok()) return s;
    if (left < kWriteBufferBytes) {
      std::memcpy(buffer_, at, left);
      used_ = left;
      return leveldb::Status::OK();
    }
    return WriteUnbuffered(at, left);
  }

  leveldb::Status Close() override {
    leveldb::Status s = FlushBuffer();
    if (close(fd_) != 0 && s.ok()) s = ErrnoStatus(fname_, errno);
    fd_ = -1;
    return s;
  }

  leveldb::Status Flush() override { return FlushBuffer(); }

  leveldb::Status Sync() override {
    if (manifest_ && fsync(dir_fd_) != 0) return ErrnoStatus(fname_ + " (its directory)", errno);
    leveldb::Status s = FlushBuffer();
    if (!s.ok()) return s;
    if (fdatasync(fd_) != 0) return ErrnoStatus(fname_, errno);
    return leveldb::Status::OK();
  }

 private:
  leveldb::Status FlushBuffer() {
    leveldb::Status s = WriteUnbuffered(buffer_, used_);
    used_ = 0;
    return s;
  }

  leveldb::Status WriteUnbuffered(const char* data, size_t size) {
    while (size > 0) {
      ssize_t wrote = write(fd_, data, size);
      if (wrote < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(fname_, errno);
      }
      data += wrote;
      size -= static_cast<size_t>(wrote);
    }
    return leveldb::Status::OK();
  }

  const std::string fname_;
  int fd_;  // owned; -1 once closed
  const int dir_fd_;
  const bool manifest_;
  size_t used_ = 0;
  char buffer_[kWriteBufferBytes];
};

// LevelDB's info log ("LOG"), one line per message, timestamped as
// LevelDB's posix logger does.
class Logger final : public leveldb::Logger {
 public:
  explicit Logger(int fd) : fd_(fd) {}
  ~Logger() override { close(fd_); }

  void Logv(const char* format, std::va_list ap) override {
    struct timeval now {};
    gettimeofday(&now, nullptr);
    struct tm local {};
    localtime_r(&now.tv_sec, &local);
    char line[1024];
    int written = std::snprintf(
        line, sizeof line, "%04d/%02d/%02d-%02d:%02d:%02d.%06d %zx ", local.tm_year + 1900,
        local.tm_mon + 1, local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec,
        static_cast<int>(now.tv_usec), std::hash<std::thread::id>()(std::this_thread::get_id()));
    size_t head = std::min(sizeof line - 1, static_cast<size_t>(std::max(written, 0)));
    std::va_list copy;
    va_copy(copy, ap);
    written = std::vsnprintf(line + head, sizeof line - head, format, copy);
    va_end(copy);
    size_t size = std::min(sizeof line - 1, head + static_cast<size_t>(std::max(written, 0)));
    if (size == 0 || line[size - 1] != '\n') line[size++] = '\n';
    (void)!write(fd_, line, size);  // one write per line: lines never interleave
  }

 private:
  const int fd_;
};

// The files this process holds LevelDB locks on, by device and inode: a
// POSIX record lock does not exclude its own process, and closing any
// descriptor of the file would drop it.
class ProcessLocks {
 public:
  static ProcessLocks& Get() {
    static ProcessLocks* locks = new ProcessLocks;  // never destroyed: used at exit
    return *locks;
  }
  std::mutex& mutex() { return mutex_; }
  bool Holds(dev_t dev, ino_t ino) const {
    return held_.count({dev, ino}) != 0;
  }                                                             // REQUIRES: mutex
  void Add(dev_t dev, ino_t ino) { held_.insert({dev, ino}); }  // REQUIRES: mutex
  void Remove(dev_t dev, ino_t ino) {
    std::lock_guard lock(mutex_);
    held_.erase({dev, ino});
  }

 private:
  std::mutex mutex_;  // guards held_
  std::set<std::pair<dev_t, ino_t>> held_;
};

class DirectoryLock final : public leveldb::FileLock {
 public:
  DirectoryLock(int fd, dev_t dev, ino_t ino) : fd_(fd), dev_(dev), ino_(ino) {}
  int fd() const { return fd_; }
  dev_t dev() const { return dev_; }
  ino_t ino() const { return ino_; }

 private:
  const int fd_;
  const dev_t dev_;
  const ino_t ino_;
};

// The open file is a plain file nobody linked elsewhere: a hard link planted
// at a store file's name would otherwise be written through.
// Files the store writes must be plain and its own: a hard link would let
// the write reach a file elsewhere. `refuse_links` is off for reads and for
// LOCK (never written; a hard-link backup such as `cp -al` links it).
leveldb::Status CheckPlainFile(const std::string& fname, int fd, bool refuse_links) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return ErrnoStatus(fname, errno);
  if (!S_ISREG(st.st_mode)) return leveldb::Status::IOError(fname, "not a plain file");
  if (refuse_links && st.st_nlink > 1) {
    return leveldb::Status::IOError(fname, "a file with other hard links");
  }
  return leveldb::Status::OK();
}

// openat(dir_fd, name) without following a link and without blocking on a
// FIFO planted at the name (O_NONBLOCK does nothing to a plain file), then
// CheckPlainFile. The descriptor in *fd, or an error and none.
leveldb::Status OpenPlainAt(int dir_fd, const std::string& name, const std::string& fname,
                            int flags, bool refuse_links, int* fd) {
  *fd = openat(dir_fd, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
  if (*fd < 0) return ErrnoStatus(fname, errno);
  leveldb::Status s = CheckPlainFile(fname, *fd, refuse_links);
  if (!s.ok()) {
    close(*fd);
    *fd = -1;
  }
  return s;
}

}  // namespace

leveldb::Status DirectoryEnv::Open(const std::string& dbname, int dir_fd, bool create_if_missing,
                                   std::unique_ptr<DirectoryEnv>* env) {
  int fd;
  if (dir_fd >= 0) {
    fd = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
  } else {
    if (create_if_missing && mkdir(dbname.c_str(), 0755) != 0 && errno != EEXIST) {
      return ErrnoStatus(dbname, errno);
    }
    fd = open(dbname.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
      return leveldb::Status::InvalidArgument(dbname,
                                              "does not exist (create_if_missing is false)");
    }
  }
  if (fd < 0) return ErrnoStatus(dbname, errno);
  env->reset(new DirectoryEnv(dbname, fd));
  return leveldb::Status::OK();
}

DirectoryEnv::DirectoryEnv(std::string dbname, int dir_fd)
    : EnvWrapper(leveldb::Env::Default()), dbname_(std::move(dbname)), dir_fd_(dir_fd) {}

DirectoryEnv::~DirectoryEnv() { close(dir_fd_); }

leveldb::Status DirectoryEnv::NameOf(const std::string& fname, std::string* name) const {
  std::string_view path(fname);
  if (path.size() > dbname_.size() + 1 && path.starts_with(dbname_) &&
      path[dbname_.size()] == '/') {
    std::string_view rest = path.substr(dbname_.size() + 1);
    if (rest.find('/') == std::string_view::npos && rest != "." && rest != "..") {
      *name = rest;
      return leveldb::Status::OK();
    }
  }
  return leveldb::Status::IOError(fname, "outside the data directory");
}

leveldb::Status DirectoryEnv::NewSequentialFile(const std::string& fname,
                                                leveldb::SequentialFile** result) {
  *result = nullptr;
  int fd = -1;
  leveldb::Status s = OpenForReading(fname, &fd);
  if (!s.ok()) return s;
  *result = new SequentialFile(fname, fd);
  return leveldb::Status::OK();
}

leveldb::Status DirectoryEnv::NewRandomAccessFile(const std::string& fname,
                                                  leveldb::RandomAccessFile** result) {
  *result = nullptr;
  int fd = -1;
  leveldb::Status s = OpenForReading(fname, &fd);
  if (!s.ok()) return s;
  *result = new RandomAccessFile(fname, fd);
  return leveldb::Status::OK();
}

leveldb::Status DirectoryEnv::OpenForReading(const std::string& fname, int* fd) const {
  std::string name;
  leveldb::Status s = NameOf(fname, &name);
  if (!s.ok()) return s;
  return OpenPlainAt(dir_fd_, name, fname, O_RDONLY, /*refuse_links=*/false, fd);
}

leveldb::Status DirectoryEnv::OpenForWriting(const std::string& fname, bool append, int* fd) const {
  std::string name;
  leveldb::Status s = NameOf(fname, &name);
  if (!s.ok()) return s;
  // No O_TRUNC: a file is truncated only once it is known to be the store's.
  int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : 0);
  int opened = -1;
  s = OpenPlainAt(dir_fd_, name, fname, flags, /*refuse_links=*/true, &opened);
  if (!s.ok()) return s;
  if (!append && ftruncate(opened, 0) != 0) {
    s = ErrnoStatus(fname, errno);
    close(opened);
    return s;
  }
  *fd = opened;
  return s;
}

leveldb::Status DirectoryEnv::NewWriter(const std::string& fname, bool append,
                                        leveldb::WritableFile** result) {
  *result = nullptr;
  int fd = -1;
  leveldb::Status s = OpenForWriting(fname, append, &fd);
  if (!s.ok()) return s;
  std::string_view name = std::string_view(fname).substr(dbname_.size() + 1);
  *result = new WritableFile(fname, fd, dir_fd_, IsManifest(name));
  return s;
}

leveldb::Status DirectoryEnv::NewWritableFile(const std::string& fname,
                                              leveldb::WritableFile** result) {
  return NewWriter(fname, /*append=*/false, result);
}

leveldb::Status DirectoryEnv::NewAppendableFile(const std::string& fname,
                                                leveldb::WritableFile** result) {
  return NewWriter(fname, /*append=*/true, result);
}

bool DirectoryEnv::FileExists(const std::string& fname) {
  std::string name;
  struct stat st {};
  return NameOf(fname, &name).ok() && fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

leveldb::Status DirectoryEnv::GetChildren(const std::string& dir,
                                          std::vector<std::string>* result) {
  result->clear();
  if (dir != dbname_) return leveldb::Status::IOError(dir, "outside the data directory");
  // A descriptor of its own: a dup would share the directory offset with
  // every other listing.
  int fd = openat(dir_fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(dir, errno);
  DIR* listing = fdopendir(fd);
  if (listing == nullptr) {
    int err = errno;
    close(fd);
    return ErrnoStatus(dir, err);
  }
  errno = 0;
  while (const dirent* entry = readdir(listing)) {
    std::string_view name(entry->d_name);
    if (name != "." && name != "..") result->emplace_back(name);
    errno = 0;
  }
  int err = errno;
  closedir(listing);
  return err == 0 ? leveldb::Status::OK() : ErrnoStatus(dir, err);
}

leveldb::Status DirectoryEnv::RemoveFile(const std::string& fname) {
  std::string name;
  leveldb::Status s = NameOf(fname, &name);
  if (!s.ok()) return s;
  if (unlinkat(dir_fd_, name.c_str(), 0) != 0) return ErrnoStatus(fname, errno);
  return s;
}

leveldb::Status DirectoryEnv::CreateDir(const std::string& dirname) {
  if (dirname == dbname_) return leveldb::Status::OK();  // the descriptor's directory
  return leveldb::Status::IOError(dirname, "outside the data directory");
}

leveldb::Status DirectoryEnv::RemoveDir(const std::string& dirname) {
  if (dirname == dbname_) {
    return leveldb::Status::IOError(dirname, "the data directory is not removed through its store");
  }
  return leveldb::Status::IOError(dirname, "outside the data directory");
}

leveldb::Status DirectoryEnv::GetFileSize(const std::string& fname, uint64_t* size) {
  *size = 0;
  std::string name;
  leveldb::Status s = NameOf(fname, &name);
  if (!s.ok()) return s;
  struct stat st {};
  if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return ErrnoStatus(fname, errno);
  }
  *size = static_cast<uint64_t>(st.st_size);
  return s;
}

leveldb::Status DirectoryEnv::RenameFile(const std::string& src, const std::string& target) {
  std::string from;
  std::string to;
  leveldb::Status s = NameOf(src, &from);
  if (s.ok()) s = NameOf(target, &to);
  if (!s.ok()) return s;
  if (renameat(dir_fd_, from.c_str(), dir_fd_, to.c_str()) != 0) return ErrnoStatus(src, errno);
  return s;
}

leveldb::Status DirectoryEnv::LockFile(const std::string& fname, leveldb::FileLock** lock) {
  *lock = nullptr;
  std::string name;
  leveldb::Status s = NameOf(fname, &name);
  if (!s.ok()) return s;
  const std::string context = "lock " + fname;
  ProcessLocks& locks = ProcessLocks::Get();
  std::lock_guard guard(locks.mutex());
  // Looked up before opening: closing a second descriptor of a file this
  // process has locked would release the lock.
  struct stat st {};
  if (fstatat(dir_fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      locks.Holds(st.st_dev, st.st_ino)) {
    return leveldb::Status::IOError(context, "already held by process");
  }
  // Only a lock another process holds reads "lock ...": engine.cc tells a
  // store in use from one it cannot open (a read-only device) by that.
  int fd = -1;
  s = OpenPlainAt(dir_fd_, name, fname, O_RDWR | O_CREAT, /*refuse_links=*/false, &fd);
  if (!s.ok()) return s;
  if (fstat(fd, &st) != 0) {
    s = ErrnoStatus(fname, errno);
    close(fd);
    return s;
  }
  struct flock whole {};
  whole.l_type = F_WRLCK;
  whole.l_whence = SEEK_SET;
  if (fcntl(fd, F_SETLK, &whole) != 0) {
    int err = errno;
    close(fd);
    return ErrnoStatus(context, err);
  }
  locks.Add(st.st_dev, st.st_ino);
  *lock = new DirectoryLock(fd, st.st_dev, st.st_ino);
  return leveldb::Status::OK();
}

leveldb::Status DirectoryEnv::UnlockFile(leveldb::FileLock* lock) {
  auto* held = static_cast<DirectoryLock*>(lock);
  struct flock whole {};
  whole.l_type = F_UNLCK;
  whole.l_whence = SEEK_SET;
  int failed = fcntl(held->fd(), F_SETLK, &whole) != 0 ? errno : 0;
  ProcessLocks::Get().Remove(held->dev(), held->ino());
  close(held->fd());
  delete held;
  return failed == 0 ? leveldb::Status::OK() : ErrnoStatus("unlock", failed);
}

leveldb::Status DirectoryEnv::NewLogger(const std::string& fname, leveldb::Logger** result) {
  *result = nullptr;
  int fd = -1;
  leveldb::Status s = OpenForWriting(fname, /*append=*/true, &fd);
  if (!s.ok()) return s;
  *result = new Logger(fd);
  return s;
}

}  // namespace cellfs::storage
