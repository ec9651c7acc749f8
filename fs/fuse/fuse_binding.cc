// Binds fs::Filesystem to libfuse's low-level API (3.14): one handler per
// request, each translating FUSE's structs to an operation and its result
// to exactly one reply (the rules are the operations', fs/ops), plus the
// session's start-up and shut-down order. Every handler runs under
// RequestGuard (fs/fuse/request_guard.h), so an exception becomes an error
// reply, not a dead mount. The kernel notifier lives in
// fs/fuse/kernel_notifier.cc.
#define FUSE_USE_VERSION 314

#include "fs/fuse/fuse_binding.h"

#include <fuse_lowlevel.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "fs/fuse/kernel_notifier.h"
#include "fs/fuse/request_guard.h"

namespace cellfs::fs {
namespace {

constexpr unsigned kMaxWrite = 1u << 20;
constexpr long kFuseSuperMagic = 0x65735546;

// Every reply goes through here: the guard must know that the request got
// its reply (libfuse frees it in fuse_reply_*, even when sending fails).
template <typename Send, typename... Args>
auto Reply(Send send, fuse_req_t req, Args&&... args) {
  RequestGuard::MarkReplied();
  return send(req, std::forward<Args>(args)...);
}

// What every handler reaches through fuse_req_userdata.
struct Binding {
  Filesystem* filesystem;
  std::string data_dir;   // statfs reports the disk under it
  unsigned max_read = 0;  // a max_read= mount option (libfuse wants init to repeat it); 0: none
};

// The value of the last max_read= among `options`; 0 when none parses.
unsigned MaxReadOption(const std::vector<std::string>& options) {
  unsigned value = 0;
  for (const std::string& option : options) {
    constexpr std::string_view kKey = "max_read=";
    if (!option.starts_with(kKey)) continue;
    // As libfuse reads it (sscanf "%u"), so both see the same number.
    unsigned parsed = 0;
    value = std::sscanf(option.c_str() + kKey.size(), "%u", &parsed) == 1 ? parsed : 0;
  }
  return value;
}

Filesystem& Fs(fuse_req_t req) {
  return *static_cast<Binding*>(fuse_req_userdata(req))->filesystem;
}

timespec ToTimespec(int64_t micros) {
  int64_t seconds = micros / 1'000'000;
  int64_t rest = micros % 1'000'000;
  if (rest < 0) {
    rest += 1'000'000;
    --seconds;
  }
  return timespec{static_cast<time_t>(seconds), static_cast<long>(rest * 1000)};
}

struct stat ToStat(const NodeAttr& attr) {
  struct stat st {};
  st.st_ino = attr.inode;
  st.st_mode = attr.mode;
  st.st_nlink = attr.nlink;
  st.st_uid = attr.uid;
  st.st_gid = attr.gid;
  st.st_size = static_cast<off_t>(attr.size);
  st.st_blksize = 4096;
  st.st_blocks = static_cast<blkcnt_t>((attr.size + 511) / 512);
  st.st_mtim = ToTimespec(attr.mtime_micros);
  st.st_atim = st.st_mtim;
  st.st_ctim = st.st_mtim;
  return st;
}

fuse_entry_param ToEntryParam(const Entry& entry) {
  fuse_entry_param param{};
  param.ino = entry.attr.inode;
  param.generation = 1;  // inode numbers are never reused within a mount
  param.attr = ToStat(entry.attr);
  param.attr_timeout = entry.attr_timeout;
  param.entry_timeout = entry.entry_timeout;
  return param;
}

void SetFileInfo(const OpenReply& reply, fuse_file_info* fi) {
  fi->fh = reply.handle;
  fi->direct_io = reply.direct_io ? 1 : 0;
  fi->noflush = reply.noflush ? 1 : 0;
  fi->nonseekable = reply.nonseekable ? 1 : 0;
}

// Replies `err` when it is one; true if it did.
bool ReplyIfError(fuse_req_t req, int err) {
  if (err != 0) Reply(fuse_reply_err, req, err);
  return err != 0;
}

// A reply the kernel never got (the request was interrupted) carries no
// lookup, so the one the fs took is given back.
void ReplyEntry(fuse_req_t req, int err, const Entry& entry) {
  if (ReplyIfError(req, err)) return;
  fuse_entry_param param = ToEntryParam(entry);
  if (Reply(fuse_reply_entry, req, &param) != 0) Fs(req).Forget(entry.attr.inode, 1);
}

void ReplyAttr(fuse_req_t req, int err, const NodeAttr& attr, double timeout) {
  if (ReplyIfError(req, err)) return;
  struct stat st = ToStat(attr);
  Reply(fuse_reply_attr, req, &st, timeout);
}

// getxattr / listxattr: size 0 asks for the length only.
void ReplyXattr(fuse_req_t req, int err, const std::string& value, size_t size) {
  if (ReplyIfError(req, err)) return;
  if (size == 0) {
    Reply(fuse_reply_xattr, req, value.size());
  } else if (value.size() > size) {
    Reply(fuse_reply_err, req, ERANGE);
  } else {
    Reply(fuse_reply_buf, req, value.data(), value.size());
  }
}

bool IsDotOrDotDot(const std::string& name) { return name == "." || name == ".."; }

// ---- Handlers, in fuse_lowlevel_ops order.

void Init(void* userdata, fuse_conn_info* conn) {
  // O_TRUNC arrives with open, so a truncating write is one open, not a
  // setattr racing another writer. Readdirplus (auto) stays as libfuse sets
  // it; writeback caching stays off so a bad value fails its own write.
  if ((conn->capable & FUSE_CAP_ATOMIC_O_TRUNC) != 0) conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
  conn->want &= ~static_cast<unsigned>(FUSE_CAP_WRITEBACK_CACHE);
  // Files are opened direct_io (FILESYSTEM.md, "Attributes and caching"), so
  // there are no cached pages for an mtime change to invalidate.
  conn->want &= ~static_cast<unsigned>(FUSE_CAP_AUTO_INVAL_DATA);
  conn->max_write = kMaxWrite;
  // libfuse refuses a session whose init does not repeat a max_read= option.
  const unsigned max_read = static_cast<Binding*>(userdata)->max_read;
  if (max_read != 0) conn->max_read = max_read;
  // max_readahead stays at the kernel's offer: the kernel would only lower
  // a bigger value, and its default suits files that are mostly small.
}

void Lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Entry entry;
  int err = Fs(req).Lookup(parent, name, &entry);
  ReplyEntry(req, err, entry);
}

void Forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
  Fs(req).Forget(ino, nlookup);
  Reply(fuse_reply_none, req);
}

void ForgetMulti(fuse_req_t req, size_t count, fuse_forget_data* forgets) {
  for (size_t i = 0; i < count; ++i) Fs(req).Forget(forgets[i].ino, forgets[i].nlookup);
  Reply(fuse_reply_none, req);
}

void GetAttr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  NodeAttr attr;
  double timeout = 0;
  int err = Fs(req).GetAttr(ino, &attr, &timeout);
  ReplyAttr(req, err, attr, timeout);
}

void Access(fuse_req_t req, fuse_ino_t ino, int mask) {
  Reply(fuse_reply_err, req, Fs(req).Access(ino, mask));
}

// The changes asked for, as the fs's request; Filesystem::SetAttr decides.
void SetAttr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info* fi) {
  AttrChanges changes;
  if ((to_set & FUSE_SET_ATTR_MODE) != 0) changes.mode = attr->st_mode;
  if ((to_set & FUSE_SET_ATTR_UID) != 0) changes.uid = attr->st_uid;
  if ((to_set & FUSE_SET_ATTR_GID) != 0) changes.gid = attr->st_gid;
  if ((to_set & FUSE_SET_ATTR_SIZE) != 0) changes.size = static_cast<uint64_t>(attr->st_size);
  changes.times = (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_ATIME_NOW |
                             FUSE_SET_ATTR_MTIME_NOW | FUSE_SET_ATTR_CTIME)) != 0;
  const fuse_ctx* ctx = fuse_req_ctx(req);
  Caller caller{ctx->uid, ctx->gid};
  NodeAttr out;
  double timeout = 0;
  int err = Fs(req).SetAttr(ino, changes, caller, fi != nullptr ? fi->fh : 0, &out, &timeout);
  ReplyAttr(req, err, out, timeout);
}

void MkDir(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t) {
  Entry entry;
  int err = Fs(req).MkDir(parent, name, &entry);
  ReplyEntry(req, err, entry);
}

void Unlink(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Reply(fuse_reply_err, req, Fs(req).Unlink(parent, name));
}

void RmDir(fuse_req_t req, fuse_ino_t parent, const char* name) {
  Reply(fuse_reply_err, req, Fs(req).RmDir(parent, name));
}

void Open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  OpenReply reply;
  if (ReplyIfError(req, Fs(req).Open(ino, fi->flags, &reply))) return;
  SetFileInfo(reply, fi);
  // An open the kernel never saw (interrupted) gets no release: do it here.
  if (Reply(fuse_reply_open, req, fi) != 0) Fs(req).Discard(reply.handle);
}

void Read(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info* fi) {
  std::string data;
  if (ReplyIfError(req, Fs(req).Read(fi->fh, static_cast<uint64_t>(off), size, &data))) return;
  Reply(fuse_reply_buf, req, data.data(), std::min(data.size(), size));
}

void Write(fuse_req_t req, fuse_ino_t, const char* buf, size_t size, off_t off,
           fuse_file_info* fi) {
  ssize_t n = Fs(req).Write(fi->fh, static_cast<uint64_t>(off), std::string_view(buf, size));
  if (n < 0) {
    Reply(fuse_reply_err, req, static_cast<int>(-n));
    return;
  }
  Reply(fuse_reply_write, req, static_cast<size_t>(n));
}

void Flush(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  Reply(fuse_reply_err, req, Fs(req).Flush(fi->fh));
}

void Release(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  Fs(req).Release(fi->fh);
  Reply(fuse_reply_err, req, 0);
}

void Fsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info* fi) {
  Reply(fuse_reply_err, req, Fs(req).Fsync(fi->fh));
}

void FsyncDir(fuse_req_t req, fuse_ino_t, int, fuse_file_info* fi) {
  Reply(fuse_reply_err, req, Fs(req).FsyncDir(fi->fh));
}

void OpenDir(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  uint64_t handle = 0;
  if (ReplyIfError(req, Fs(req).OpenDir(ino, &handle))) return;
  fi->fh = handle;
  if (Fs(req).CachesListing(ino)) {
    fi->cache_readdir = 1;
    fi->keep_cache = 1;
  }
  if (Reply(fuse_reply_open, req, fi) != 0) Fs(req).ReleaseDir(handle);
}

// Fills one reply buffer of `size` bytes. In plus mode every entry taken
// (but "." and "..", which the kernel does not count) holds a lookup; if
// the reply does not reach the kernel, those lookups are given back.
void FillDir(fuse_req_t req, size_t size, off_t off, fuse_file_info* fi, bool plus) {
  Filesystem& fs = Fs(req);
  std::vector<char> buf(size);
  size_t used = 0;
  std::vector<uint64_t> lookups;
  std::string name;  // fuse_add_direntry* want a C string; one buffer for all
  DirEntrySink sink = [&](const DirEntry& d) {
    name.assign(d.name);
    char* at = buf.data() + used;
    size_t room = size - used;
    off_t next = static_cast<off_t>(d.next_offset);
    size_t need;
    if (plus) {
      fuse_entry_param param = ToEntryParam(d.entry);
      need = fuse_add_direntry_plus(req, at, room, name.c_str(), &param, next);
    } else {
      struct stat st {};
      st.st_ino = d.entry.attr.inode;
      st.st_mode = d.entry.attr.mode;
      need = fuse_add_direntry(req, at, room, name.c_str(), &st, next);
    }
    if (need > room) return false;
    used += need;
    if (plus && !IsDotOrDotDot(name)) lookups.push_back(d.entry.attr.inode);
    return true;
  };
  int err = fs.ReadDir(fi->fh, static_cast<uint64_t>(off), plus, sink);
  // Entries already taken are sent; the error, if it persists, comes back
  // on the next call from their offset.
  if (err != 0 && used == 0) {
    Reply(fuse_reply_err, req, err);
    return;
  }
  if (Reply(fuse_reply_buf, req, buf.data(), used) != 0) {
    for (uint64_t inode : lookups) fs.Forget(inode, 1);
  }
}

void ReadDir(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info* fi) {
  FillDir(req, size, off, fi, /*plus=*/false);
}

void ReadDirPlus(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info* fi) {
  FillDir(req, size, off, fi, /*plus=*/true);
}

void ReleaseDir(fuse_req_t req, fuse_ino_t, fuse_file_info* fi) {
  Fs(req).ReleaseDir(fi->fh);
  Reply(fuse_reply_err, req, 0);
}

// The numbers of the disk under the data directory, so df shows real space.
void StatFs(fuse_req_t req, fuse_ino_t) {
  struct statvfs st {};
  const std::string& data_dir = static_cast<Binding*>(fuse_req_userdata(req))->data_dir;
  if (data_dir.empty() || statvfs(data_dir.c_str(), &st) != 0) {
    st = {};
    st.f_bsize = 4096;
    st.f_frsize = 4096;
  }
  st.f_namemax = 255;
  Reply(fuse_reply_statfs, req, &st);
}

void SetXattr(fuse_req_t req, fuse_ino_t ino, const char* name, const char* value, size_t size,
              int flags) {
  Reply(fuse_reply_err, req, Fs(req).SetXattr(ino, name, std::string_view(value, size), flags));
}

void GetXattr(fuse_req_t req, fuse_ino_t ino, const char* name, size_t size) {
  std::string value;
  int err = Fs(req).GetXattr(ino, name, &value);
  ReplyXattr(req, err, value, size);
}

void ListXattr(fuse_req_t req, fuse_ino_t ino, size_t size) {
  std::string names;
  int err = Fs(req).ListXattr(ino, &names);
  ReplyXattr(req, err, names, size);
}

void RemoveXattr(fuse_req_t req, fuse_ino_t ino, const char* name) {
  Reply(fuse_reply_err, req, Fs(req).RemoveXattr(ino, name));
}

void Create(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t, fuse_file_info* fi) {
  Filesystem& fs = Fs(req);
  Entry entry;
  OpenReply reply;
  if (ReplyIfError(req, fs.Create(parent, name, fi->flags, &entry, &reply))) return;
  SetFileInfo(reply, fi);
  fuse_entry_param param = ToEntryParam(entry);
  if (Reply(fuse_reply_create, req, &param, fi) != 0) {
    fs.Discard(reply.handle);
    fs.Forget(entry.attr.inode, 1);
  }
}

void Symlink(fuse_req_t req, const char* link, fuse_ino_t parent, const char* name) {
  Reply(fuse_reply_err, req, Fs(req).Symlink(link, parent, name));
}
void Link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t new_parent, const char* new_name) {
  Reply(fuse_reply_err, req, Fs(req).Link(ino, new_parent, new_name));
}
void MkNod(fuse_req_t req, fuse_ino_t parent, const char* name, mode_t mode, dev_t) {
  Reply(fuse_reply_err, req, Fs(req).MkNod(parent, name, mode));
}
void Rename(fuse_req_t req, fuse_ino_t parent, const char* name, fuse_ino_t new_parent,
            const char* new_name, unsigned int flags) {
  Reply(fuse_reply_err, req, Fs(req).Rename(parent, name, new_parent, new_name, flags));
}

// ---- The guard every handler runs under (fs/fuse/request_guard.h).

// An operation's name as a template argument, for the guard's log.
template <size_t N>
struct OpName {
  constexpr OpName(const char (&name)[N]) {  // NOLINT: implicit, for Guarded<"lookup", ...>
    std::copy_n(name, N, text);
  }
  char text[N];
};

// The operation CELLFS_TEST_THROW_IN names (unset: none) throws before its
// body runs: a fault hook for the integration tests of the guard.
const char* g_throw_in = nullptr;

void MaybeThrowForTest(const char* operation) {
  if (g_throw_in != nullptr && std::strcmp(g_throw_in, operation) == 0) {
    throw std::runtime_error("CELLFS_TEST_THROW_IN fault");
  }
}

// How a guarded request is answered when its body throws before replying.
enum class Fallback { kError, kNone };  // fuse_reply_err; fuse_reply_none (forgets)

template <OpName kName, auto kHandler, Fallback kFallback = Fallback::kError>
struct Guarded;

template <OpName kName, typename... Args, void (*kHandler)(fuse_req_t, Args...), Fallback kFallback>
struct Guarded<kName, kHandler, kFallback> {
  static void Call(fuse_req_t req, Args... args) {
    RequestGuard::Run(
        kName.text,
        [&] {
          MaybeThrowForTest(kName.text);
          kHandler(req, args...);
        },
        [req](int err) {
          if constexpr (kFallback == Fallback::kNone) {
            fuse_reply_none(req);
          } else {
            fuse_reply_err(req, err);
          }
        });
  }
};

void GuardedInit(void* userdata, fuse_conn_info* conn) {
  RequestGuard::Run(
      "init", [&] { Init(userdata, conn); }, [](int) {});
}

void LogEscape(const std::string& message) { fuse_log(FUSE_LOG_ERR, "%s\n", message.c_str()); }

fuse_lowlevel_ops MakeOps(bool xattr) {
  fuse_lowlevel_ops ops{};
  ops.init = GuardedInit;
  ops.lookup = Guarded<"lookup", Lookup>::Call;
  ops.forget = Guarded<"forget", Forget, Fallback::kNone>::Call;
  ops.getattr = Guarded<"getattr", GetAttr>::Call;
  ops.setattr = Guarded<"setattr", SetAttr>::Call;
  ops.access = Guarded<"access", Access>::Call;
  ops.mkdir = Guarded<"mkdir", MkDir>::Call;
  ops.unlink = Guarded<"unlink", Unlink>::Call;
  ops.rmdir = Guarded<"rmdir", RmDir>::Call;
  ops.open = Guarded<"open", Open>::Call;
  ops.read = Guarded<"read", Read>::Call;
  ops.write = Guarded<"write", Write>::Call;
  ops.flush = Guarded<"flush", Flush>::Call;
  ops.release = Guarded<"release", Release>::Call;
  ops.fsync = Guarded<"fsync", Fsync>::Call;
  ops.opendir = Guarded<"opendir", OpenDir>::Call;
  ops.readdir = Guarded<"readdir", ReadDir>::Call;
  ops.releasedir = Guarded<"releasedir", ReleaseDir>::Call;
  ops.fsyncdir = Guarded<"fsyncdir", FsyncDir>::Call;
  ops.statfs = Guarded<"statfs", StatFs>::Call;
  if (xattr) {
    ops.setxattr = Guarded<"setxattr", SetXattr>::Call;
    ops.getxattr = Guarded<"getxattr", GetXattr>::Call;
    ops.listxattr = Guarded<"listxattr", ListXattr>::Call;
    ops.removexattr = Guarded<"removexattr", RemoveXattr>::Call;
  }
  ops.create = Guarded<"create", Create>::Call;
  ops.forget_multi = Guarded<"forget_multi", ForgetMulti, Fallback::kNone>::Call;
  ops.readdirplus = Guarded<"readdirplus", ReadDirPlus>::Call;
  ops.symlink = Guarded<"symlink", Symlink>::Call;
  ops.link = Guarded<"link", Link>::Call;
  ops.mknod = Guarded<"mknod", MkNod>::Call;
  ops.rename = Guarded<"rename", Rename>::Call;
  return ops;
}

// ---- The session.

std::string ErrnoText(int err) { return std::strerror(err); }

}  // namespace

Status CheckMountPoint(const std::string& mount_point) {
  struct stat st {};
  if (stat(mount_point.c_str(), &st) != 0) {
    int err = errno;
    std::string hint = err == ENOTCONN ? " (a dead mount: run cellfs umount --force)" : "";
    return Status::IOError("mount point " + mount_point + ": " + ErrnoText(err) + hint);
  }
  if (!S_ISDIR(st.st_mode)) {
    return Status::IOError("mount point " + mount_point + ": " + ErrnoText(ENOTDIR));
  }
  struct stat parent {};
  struct statfs fs_stat {};
  if (stat((mount_point + "/..").c_str(), &parent) == 0 && parent.st_dev != st.st_dev &&
      statfs(mount_point.c_str(), &fs_stat) == 0 && fs_stat.f_type == kFuseSuperMagic) {
    return Status::IOError("mount point " + mount_point + " is already a FUSE mount");
  }
  if (access("/dev/fuse", F_OK) != 0) {
    return Status::IOError("/dev/fuse is missing (is the fuse module loaded?)");
  }
  return Status::Ok();
}

namespace {

// libfuse splits -o values on ',' and reads '\' as an escape.
std::string EscapeOptionValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == ',' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The argv fuse_session_new parses: mount options and the debug switch.
class SessionArgs {
 public:
  explicit SessionArgs(const SessionOptions& options) {
    // A user's options first: cellfs's fsname= (the data directory) and
    // subtype=cellfs come after and win, since cellfs's own tools find
    // their mounts by them.
    std::string mount_options;
    for (const std::string& option : options.fuse_options) mount_options += option + ",";
    mount_options += "fsname=" + EscapeOptionValue(options.fs_name) + ",subtype=cellfs";
    // A private mount admits only its owner (the kernel refuses everyone
    // else), so the kernel's own permission checks would only add requests
    // (a GETATTR of the directory after every create, of the file before a
    // stat): the daemon checks what the mode says (Filesystem::Open,
    // SetAttr, Access). A shared mount (allow_other, or libfuse's
    // allow_root, the kernel's allow_other) has the kernel check every
    // caller.
    const bool allow_root = std::find(options.fuse_options.begin(), options.fuse_options.end(),
                                      "allow_root") != options.fuse_options.end();
    if (options.allow_other) mount_options += ",allow_other";
    if (options.allow_other || allow_root) mount_options += ",default_permissions";
    if (options.read_only) mount_options += ",ro";
    fuse_opt_add_arg(&args_, "cellfs");
    fuse_opt_add_arg(&args_, "-o");
    fuse_opt_add_arg(&args_, mount_options.c_str());
    if (options.debug) fuse_opt_add_arg(&args_, "-d");
  }
  ~SessionArgs() { fuse_opt_free_args(&args_); }
  SessionArgs(const SessionArgs&) = delete;
  SessionArgs& operator=(const SessionArgs&) = delete;

  fuse_args* get() { return &args_; }

 private:
  fuse_args args_ = FUSE_ARGS_INIT(0, nullptr);
};

// Returns what fuse_session_loop_mt does: 0 after an unmount, a signal
// number after SIGINT/SIGTERM/SIGHUP, -errno on failure.
int RunLoop(fuse_session* session, unsigned max_threads) {
  fuse_loop_config* config = fuse_loop_cfg_create();
  if (config == nullptr) return -ENOMEM;
  fuse_loop_cfg_set_max_threads(config, max_threads);
  fuse_loop_cfg_set_clone_fd(config, 0);
  int rc = fuse_session_loop_mt(session, config);
  fuse_loop_cfg_destroy(config);
  return rc;
}

}  // namespace

Status CheckFuseOptions(const std::vector<std::string>& options) {
  if (options.empty()) return Status::Ok();
  SessionOptions session;
  session.fs_name = "cellfs";
  session.fuse_options = options;
  SessionArgs args(session);
  const fuse_lowlevel_ops ops{};
  fuse_session* parsed = fuse_session_new(args.get(), &ops, sizeof(ops), nullptr);
  if (parsed != nullptr) {
    fuse_session_destroy(parsed);
    return Status::Ok();
  }
  std::string joined;
  for (const std::string& option : options) joined += (joined.empty() ? "" : ",") + option;
  return Status::InvalidArgument("libfuse does not take the mount options " + joined +
                                 " (it names the one it refuses above)");
}

FuseSession::FuseSession(SessionOptions options)
    : options_(std::move(options)), notifier_(std::make_unique<KernelNotifierThread>()) {}

FuseSession::~FuseSession() = default;

Notifier* FuseSession::notifier() { return notifier_.get(); }

Status FuseSession::Serve(Filesystem* filesystem, const std::function<void()>& on_ready) {
  const SessionOptions& options = options_;
  const std::string& mount_point = options.mount_point;
  CELLFS_RETURN_IF_ERROR(CheckMountPoint(mount_point));
  Binding binding{filesystem, options.fs_name, MaxReadOption(options.fuse_options)};
  RequestGuard::SetLog(LogEscape);
  g_throw_in = std::getenv("CELLFS_TEST_THROW_IN");
  fuse_lowlevel_ops ops = MakeOps(options.xattr);
  SessionArgs args(options);
  fuse_session* session = fuse_session_new(args.get(), &ops, sizeof(ops), &binding);
  if (session == nullptr) return Status::IOError("cannot create a FUSE session");
  if (fuse_set_signal_handlers(session) != 0) {
    fuse_session_destroy(session);
    return Status::IOError("cannot install the FUSE signal handlers");
  }
  if (fuse_session_mount(session, mount_point.c_str()) != 0) {
    fuse_remove_signal_handlers(session);
    fuse_session_destroy(session);
    return Status::IOError("cannot mount at " + mount_point);
  }

  notifier_->Start(session);
  if (on_ready) on_ready();
  int rc = RunLoop(session, options.max_threads);
  notifier_->Stop();  // before the session it writes to goes away

  fuse_session_unmount(session);
  fuse_remove_signal_handlers(session);
  fuse_session_destroy(session);
  if (rc < 0) return Status::IOError("the FUSE session failed: " + ErrnoText(-rc));
  return Status::Ok();
}

}  // namespace cellfs::fs
