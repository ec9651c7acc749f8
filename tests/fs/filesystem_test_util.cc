// FsDriver and RecordingNotifier (tests/fs/filesystem_test_util.h): the
// kernel's side of the requests, played by a test.
#include "tests/fs/filesystem_test_util.h"

#include <cerrno>

namespace cellfs::testing {

// ---- RecordingNotifier.

void RecordingNotifier::InvalidateEntry(uint64_t parent, std::string name) {
  std::lock_guard lock(mutex_);
  events_.push_back(Event{true, parent, std::move(name)});
}

void RecordingNotifier::InvalidateInode(uint64_t inode) {
  std::lock_guard lock(mutex_);
  events_.push_back(Event{false, inode, {}});
}

std::vector<RecordingNotifier::Event> RecordingNotifier::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

bool RecordingNotifier::SawInode(uint64_t inode) const {
  std::lock_guard lock(mutex_);
  for (const Event& event : events_) {
    if (!event.entry && event.inode == inode) return true;
  }
  return false;
}

bool RecordingNotifier::SawEntry(uint64_t parent, std::string_view name) const {
  std::lock_guard lock(mutex_);
  for (const Event& event : events_) {
    if (event.entry && event.inode == parent && event.name == name) return true;
  }
  return false;
}

void RecordingNotifier::Clear() {
  std::lock_guard lock(mutex_);
  events_.clear();
}

// ---- FsDriver.

FsDriver::FsDriver(const fs::FilesystemOptions& options)
    : owned_engine_(std::make_unique<TestEngine>()), engine_(owned_engine_.get()) {
  fs_ = std::make_unique<fs::Filesystem>(engine_->engine.get(), &notifier_, options);
}

FsDriver::FsDriver(TestEngine* engine, const fs::FilesystemOptions& options) : engine_(engine) {
  fs_ = std::make_unique<fs::Filesystem>(engine_->engine.get(), &notifier_, options);
}

FsDriver::~FsDriver() {
  DropCaches();
  fs_.reset();
}

void FsDriver::Hold(uint64_t inode) {
  std::lock_guard lock(mutex_);
  ++held_[inode];
}

void FsDriver::SetStep(const char* step) {
  std::lock_guard lock(mutex_);
  last_step_ = step;
}

void FsDriver::DropCaches() {
  std::map<uint64_t, uint64_t> held;
  {
    std::lock_guard lock(mutex_);
    held.swap(held_);
  }
  for (const auto& [inode, count] : held) fs_->Forget(inode, count);
}

uint64_t FsDriver::held_lookups() const {
  std::lock_guard lock(mutex_);
  uint64_t total = 0;
  for (const auto& entry : held_) total += entry.second;
  return total;
}

int FsDriver::Resolve(std::string_view path, uint64_t* inode, fs::NodeAttr* attr) {
  uint64_t current = fs::InodeTable::kRootInode;
  fs::Entry entry;
  bool looked_up = false;
  while (!path.empty()) {
    size_t slash = path.find('/');
    std::string_view name = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    if (name.empty()) continue;
    if (int e = fs_->Lookup(current, name, &entry)) return e;
    Hold(entry.attr.inode);
    current = entry.attr.inode;
    looked_up = true;
  }
  *inode = current;
  if (attr != nullptr) {
    if (looked_up) {
      *attr = entry.attr;
    } else {
      double timeout = 0;
      if (int e = fs_->GetAttr(current, attr, &timeout)) return e;
    }
  }
  return 0;
}

int FsDriver::ResolveParent(std::string_view path, uint64_t* parent, std::string* name) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  std::string_view dir =
      slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
  *name = std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
  return Resolve(dir, parent);
}

int FsDriver::Stat(std::string_view path, fs::NodeAttr* attr) {
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  double timeout = 0;
  return fs_->GetAttr(inode, attr, &timeout);
}

bool FsDriver::Exists(std::string_view path) {
  uint64_t inode = 0;
  return Resolve(path, &inode) == 0;
}

int FsDriver::Mkdir(std::string_view path) {
  uint64_t parent = 0;
  std::string name;
  if (int e = ResolveParent(path, &parent, &name)) return e;
  fs::Entry entry;
  if (int e = fs_->MkDir(parent, name, &entry)) return e;
  Hold(entry.attr.inode);
  return 0;
}

int FsDriver::LookupChild(uint64_t parent, const std::string& name) {
  fs::Entry entry;
  if (int e = fs_->Lookup(parent, name, &entry)) return e;
  Hold(entry.attr.inode);
  return 0;
}

int FsDriver::Rmdir(std::string_view path) {
  uint64_t parent = 0;
  std::string name;
  if (int e = ResolveParent(path, &parent, &name)) return e;
  if (int e = LookupChild(parent, name)) return e;
  return fs_->RmDir(parent, name);
}

int FsDriver::Rm(std::string_view path) {
  uint64_t parent = 0;
  std::string name;
  if (int e = ResolveParent(path, &parent, &name)) return e;
  if (int e = LookupChild(parent, name)) return e;
  return fs_->Unlink(parent, name);
}

int FsDriver::Write(std::string_view path, std::string_view data, int flags, size_t chunk) {
  SetStep("lookup");
  uint64_t parent = 0;
  std::string name;
  if (int e = ResolveParent(path, &parent, &name)) return e;
  fs::Entry entry;
  fs::OpenReply reply;
  int found = fs_->Lookup(parent, name, &entry);
  uint64_t offset = 0;
  if (found == 0) {
    Hold(entry.attr.inode);
    SetStep("open");
    if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) return EEXIST;  // as the VFS does
    // The kernel keeps O_CREAT / O_EXCL to itself on open (fuse_send_open).
    if (int e = fs_->Open(entry.attr.inode, flags & ~(O_CREAT | O_EXCL), &reply)) return e;
    if ((flags & O_APPEND) != 0) offset = entry.attr.size;
  } else if (found == ENOENT && (flags & O_CREAT) != 0) {
    SetStep("open");
    if (int e = fs_->Create(parent, name, flags, &entry, &reply)) return e;
    Hold(entry.attr.inode);
  } else {
    return found;
  }
  int result = 0;
  SetStep("write");
  if (chunk == 0) chunk = 1;
  for (size_t done = 0; done < data.size() && result == 0;) {
    std::string_view piece = data.substr(done, chunk);
    ssize_t wrote = fs_->Write(reply.handle, offset, piece);
    if (wrote < 0) {
      result = static_cast<int>(-wrote);
    } else if (static_cast<size_t>(wrote) != piece.size()) {
      result = EIO;  // a short write: the contract says whole or error
    } else {
      done += piece.size();
      offset += piece.size();
    }
  }
  if (result == 0) {
    SetStep("flush");
    result = fs_->Flush(reply.handle);
  } else {
    (void)fs_->Flush(reply.handle);  // close(2) still flushes after a failed write
  }
  fs_->Release(reply.handle);
  return result;
}

int FsDriver::Read(std::string_view path, std::string* out, size_t chunk) {
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  fs::OpenReply reply;
  if (int e = fs_->Open(inode, O_RDONLY, &reply)) return e;
  out->clear();
  int result = 0;
  while (true) {
    std::string piece;
    result = fs_->Read(reply.handle, out->size(), chunk, &piece);
    if (result != 0 || piece.empty()) break;
    if (piece.size() > chunk) {
      result = EIO;  // more than asked for
      break;
    }
    out->append(piece);
  }
  fs_->Release(reply.handle);
  return result;
}

int FsDriver::List(std::string_view path, std::vector<Listed>* out, const ListOptions& options) {
  out->clear();
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  uint64_t handle = 0;
  if (int e = fs_->OpenDir(inode, &handle)) return e;
  uint64_t offset = 0;
  int result = 0;
  while (true) {
    size_t taken = 0;
    result = fs_->ReadDir(handle, offset, options.plus, [&](const fs::DirEntry& entry) {
      if (taken == options.chunk) return false;
      ++taken;
      offset = entry.next_offset;
      bool dot = entry.name == "." || entry.name == "..";
      if (options.plus && !dot) Hold(entry.entry.attr.inode);
      if (!dot || options.include_dots) {
        const fs::NodeAttr& attr = entry.entry.attr;
        out->push_back(Listed{std::string(entry.name), entry.next_offset, attr.inode, attr.mode,
                              attr.size, attr.mtime_micros});
      }
      return true;
    });
    if (result != 0 || taken == 0) break;
    if (options.between_chunks) options.between_chunks();
  }
  fs_->ReleaseDir(handle);
  return result;
}

int FsDriver::GetXattr(std::string_view path, std::string_view name, std::string* value) {
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  return fs_->GetXattr(inode, name, value);
}

int FsDriver::SetXattr(std::string_view path, std::string_view name, std::string_view value) {
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  return fs_->SetXattr(inode, name, value);
}

int FsDriver::ListXattr(std::string_view path, std::vector<std::string>* names) {
  uint64_t inode = 0;
  if (int e = Resolve(path, &inode)) return e;
  std::string packed;
  if (int e = fs_->ListXattr(inode, &packed)) return e;
  names->clear();
  for (size_t start = 0; start < packed.size();) {
    size_t end = packed.find('\0', start);
    if (end == std::string::npos) return EIO;  // names must be NUL-terminated
    names->push_back(packed.substr(start, end - start));
    start = end + 1;
  }
  return 0;
}

int FsDriver::Cql(std::string_view cql, std::string* transcript) {
  uint64_t inode = 0;
  if (int e = Resolve("@cql", &inode)) return e;
  fs::OpenReply reply;
  if (int e = fs_->Open(inode, O_RDWR, &reply)) return e;
  int result = 0;
  ssize_t wrote = fs_->Write(reply.handle, 0, cql);
  if (wrote < 0) result = static_cast<int>(-wrote);
  int flushed = fs_->Flush(reply.handle);
  if (result == 0) result = flushed;
  transcript->clear();
  std::string piece;
  while (fs_->Read(reply.handle, transcript->size(), 4096, &piece) == 0 && !piece.empty()) {
    transcript->append(piece);
    piece.clear();
  }
  fs_->Release(reply.handle);
  return result;
}

std::string FsDriver::Cat(std::string_view path) {
  std::string content;
  int e = Read(path, &content);
  INFO("cat " << path);
  REQUIRE(e == 0);
  return content;
}

std::vector<std::string> FsDriver::Ls(std::string_view path, bool plus) {
  std::vector<Listed> listed;
  ListOptions options;
  options.plus = plus;
  int e = List(path, &listed, options);
  INFO("ls " << path);
  REQUIRE(e == 0);
  std::vector<std::string> names;
  for (Listed& entry : listed) names.push_back(std::move(entry.name));
  return names;
}

void FsDriver::Ddl(std::string_view cql) {
  std::string transcript;
  int e = Cql(cql, &transcript);
  INFO(transcript);
  REQUIRE(e == 0);
  REQUIRE(transcript.find("ERROR") == std::string::npos);
}

}  // namespace cellfs::testing
