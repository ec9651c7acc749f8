// The open file of a scratch file (fs/files/open_file.h NewScratchFile):
// reads, writes and truncations on the daemon's copy.
#include <cerrno>
#include <memory>
#include <string>
#include <utility>

#include "fs/files/open_file.h"
#include "fs/tree/refusal_log.h"

namespace cellfs::fs {
namespace {

class ScratchFile final : public OpenFile {
 public:
  ScratchFile(FileContext* context, std::shared_ptr<ScratchFiles::File> file)
      : context_(context), file_(std::move(file)) {}

  bool direct_io() const override { return true; }  // its size changes under stat

  int Read(uint64_t offset, size_t size, std::string* out) override {
    std::lock_guard lock(file_->mutex);
    return ReadFrom(file_->content(), offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    std::lock_guard lock(file_->mutex);
    // Renamed over a cell, which took its content then: a later write
    // would reach nothing (after an unlink it reaches the open file alone,
    // as on any file system).
    if (file_->fate == ScratchFiles::Fate::kRenamed) {
      return -Refuse(ESTALE, "this scratch file was renamed over its cell: write to the cell");
    }
    if (int e = file_->Write(offset, data, Now())) return -e;
    return static_cast<ssize_t>(data.size());
  }

  int Truncate(uint64_t size) override {
    std::lock_guard lock(file_->mutex);
    if (file_->fate == ScratchFiles::Fate::kRenamed) {
      return Refuse(ESTALE, "this scratch file was renamed over its cell: truncate the cell");
    }
    return file_->Resize(size, Now());
  }

 private:
  int64_t Now() const { return context_->engine->clock().NowMicros(); }

  FileContext* const context_;
  const std::shared_ptr<ScratchFiles::File> file_;
};

}  // namespace

std::unique_ptr<OpenFile> NewScratchFile(FileContext* context,
                                         std::shared_ptr<ScratchFiles::File> file) {
  return std::make_unique<ScratchFile>(context, std::move(file));
}

}  // namespace cellfs::fs
