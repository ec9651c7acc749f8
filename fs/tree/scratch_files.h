// ScratchFiles: the temporary files that `sed -i`, editors, rsync and
// Python's tempfile write beside a cell and then rename over it
// (docs/FILESYSTEM.md "Scratch files"). A name that is not a column,
// created with O_EXCL (as mkstemp(3) creates), becomes one: held by the
// daemon in memory, never stored, never listed, gone at unmount. Renaming
// it onto a column's name writes its content as that cell's value in one
// write; a typo without O_EXCL (`echo v > emial`) is still refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace cellfs::fs {

// Thread-safe: mutex_ guards the maps; each file's own mutex guards its
// content; the byte budget has its own lock, taken last.
class ScratchFiles {
 public:
  static constexpr size_t kMaxFiles = 64;               // at once, on a mount
  static constexpr size_t kMaxFileBytes = 64u << 20;    // a cell's limit
  static constexpr size_t kMaxTotalBytes = 256u << 20;  // all of them together
  // A scratch file no open file holds, untouched this long, is taken back
  // when a create finds kMaxFiles held: what a tool killed between its
  // create and its rename left behind (it is never listed, so no one else
  // can remove it).
  static constexpr int64_t kIdleMicros = 10LL * 60 * 1000 * 1000;

  // The bytes all scratch files hold, shared with each file so that one
  // still open after its name is gone gives its bytes back when it goes.
  class Budget {
   public:
    // Charges a growth from `from` to `to` bytes (a shrink gives bytes
    // back). ENOSPC, changing nothing, when it would pass kMaxTotalBytes.
    int Charge(size_t from, size_t to);

   private:
    std::mutex mutex_;
    size_t total_ = 0;  // guarded by mutex_
  };

  // What became of a file's name.
  enum class Fate : uint8_t {
    kNamed,     // in its directory
    kUnlinked,  // removed (rm, its directory removed, taken back idle)
    kRenamed,   // renamed over a cell, which now holds its content
  };

  class File {
   public:
    explicit File(std::shared_ptr<Budget> budget) : budget_(std::move(budget)) {}
    ~File() { (void)budget_->Charge(content_.size(), 0); }
    File(const File&) = delete;
    File& operator=(const File&) = delete;

    // Writes `data` at `offset` (zero-filling a gap); Resize cuts or
    // zero-extends. EFBIG past kMaxFileBytes, ENOSPC past the budget;
    // then nothing changes. REQUIRES (all members): mutex held.
    int Write(uint64_t offset, std::string_view data, int64_t now_micros);
    int Resize(uint64_t size, int64_t now_micros);
    const std::string& content() const { return content_; }

    std::mutex mutex;
    uint32_t mode = 0600;  // permission bits
    int64_t mtime_micros = 0;
    Fate fate = Fate::kNamed;

   private:
    const std::shared_ptr<Budget> budget_;
    std::string content_;
  };

  // Makes the scratch file `identity` (an encoded kScratch NodeId) in the
  // directory `directory` (an encoded row or partition NodeId), empty.
  // EEXIST when it exists; ENOSPC when kMaxFiles are held and none is idle
  // (kIdleMicros) to take back.
  int Create(const std::string& identity, const std::string& directory, uint32_t mode,
             int64_t now_micros);
  // The file under its name, or null when there is none (never made,
  // removed, renamed).
  std::shared_ptr<File> Find(const std::string& identity) const;
  // The file an open file still holds after its name went (its fate says
  // how), or null.
  std::shared_ptr<File> FindGone(const std::string& identity) const;
  // Takes the file's name away with fate `fate` (kUnlinked or kRenamed);
  // its bytes go back once no open file holds it. False when absent.
  bool Remove(const std::string& identity, Fate fate);
  // Removes (kUnlinked) every scratch file of `directory` (an encoded row
  // or partition NodeId): its rmdir, which they must not outlive.
  void RemoveIn(const std::string& directory);

 private:
  struct Entry {
    std::string directory;
    std::shared_ptr<File> file;
  };
  // Moves `it`'s file to gone_ with `fate`. REQUIRES: mutex_ held.
  void TakeName(std::unordered_map<std::string, Entry>::iterator it, Fate fate);

  const std::shared_ptr<Budget> budget_ = std::make_shared<Budget>();
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> files_;               // guarded by mutex_
  std::unordered_map<std::string, std::weak_ptr<File>> gone_;  // guarded by mutex_
};

}  // namespace cellfs::fs
