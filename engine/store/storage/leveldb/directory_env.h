// DirectoryEnv: the Env that reaches a store only through a descriptor of its
// directory, held from the start, so no path walk a planted symlink or a
// swapped directory could redirect ever happens.
#pragma once

#include <leveldb/env.h>

#include <memory>
#include <string>
#include <vector>

namespace cellfs::storage {

// Serves the paths LevelDB builds for one store, "<dbname>/<name>" with
// `name` a single component, by *at(2) calls relative to a directory
// descriptor: openat with O_NOFOLLOW | O_CLOEXEC, fstatat, unlinkat and
// renameat without following symbolic links. A symbolic link at a store
// file's name fails the call (ELOOP) instead of being followed, a file that
// is not a plain file is refused (a FIFO never blocks the open), and so is
// one with other hard links that the store would write (LOCK, never
// written, may have them: hard-link backups).
// Every other path is an IOError "outside the data directory", except
// CreateDir of `dbname` itself, which exists. Threads, the clock and
// GetTestDirectory come from Env::Default().
//
// Files behave as LevelDB's posix env's: writes buffered 64 KiB, Sync
// flushes and fdatasyncs (and fsyncs the directory for MANIFEST files),
// random reads by pread (no mmap). LockFile takes a POSIX record lock
// (fcntl F_SETLK, so /proc/locks shows the holder's pid) and remembers the
// locked file per process, since such locks do not exclude their own
// process; a failure reads "lock <dbname>/LOCK: <reason>".
//
// Thread-safe. The descriptor is the env's own (a duplicate) and lives as
// long as the env, which must outlive every file it made.
class DirectoryEnv final : public leveldb::EnvWrapper {
 public:
  // Makes the env of the store `dbname`. With `dir_fd` >= 0 the store is
  // that directory (duplicated; the caller keeps its descriptor) and
  // `dbname` only the prefix LevelDB's paths carry. With -1 it opens
  // `dbname` itself (O_DIRECTORY | O_NOFOLLOW), creating it first (0755,
  // less the umask) when `create_if_missing`. On failure *env is untouched.
  static leveldb::Status Open(const std::string& dbname, int dir_fd, bool create_if_missing,
                              std::unique_ptr<DirectoryEnv>* env);

  ~DirectoryEnv() override;
  DirectoryEnv(const DirectoryEnv&) = delete;
  DirectoryEnv& operator=(const DirectoryEnv&) = delete;

  leveldb::Status NewSequentialFile(const std::string& fname,
                                    leveldb::SequentialFile** result) override;
  leveldb::Status NewRandomAccessFile(const std::string& fname,
                                      leveldb::RandomAccessFile** result) override;
  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override;
  bool FileExists(const std::string& fname) override;
  leveldb::Status GetChildren(const std::string& dir, std::vector<std::string>* result) override;
  leveldb::Status RemoveFile(const std::string& fname) override;
  leveldb::Status DeleteFile(const std::string& fname) override { return RemoveFile(fname); }
  leveldb::Status CreateDir(const std::string& dirname) override;
  leveldb::Status RemoveDir(const std::string& dirname) override;
  leveldb::Status DeleteDir(const std::string& dirname) override { return RemoveDir(dirname); }
  leveldb::Status GetFileSize(const std::string& fname, uint64_t* size) override;
  leveldb::Status RenameFile(const std::string& src, const std::string& target) override;
  leveldb::Status LockFile(const std::string& fname, leveldb::FileLock** lock) override;
  leveldb::Status UnlockFile(leveldb::FileLock* lock) override;
  leveldb::Status NewLogger(const std::string& fname, leveldb::Logger** result) override;

 private:
  DirectoryEnv(std::string dbname, int dir_fd);

  // The name inside the directory of `fname` ("<dbname>/<name>"), or an
  // IOError when `fname` is any other path.
  leveldb::Status NameOf(const std::string& fname, std::string* name) const;
  // Opens `fname` for reading (a plain file, never through a link).
  leveldb::Status OpenForReading(const std::string& fname, int* fd) const;
  // Opens `fname` for writing (created 0644 less the umask); truncated
  // unless `append`.
  leveldb::Status OpenForWriting(const std::string& fname, bool append, int* fd) const;
  // A WritableFile over OpenForWriting's descriptor.
  leveldb::Status NewWriter(const std::string& fname, bool append, leveldb::WritableFile** result);

  const std::string dbname_;
  const int dir_fd_;  // owned
};

}  // namespace cellfs::storage
