// TABLE/@insert (bulk upserts, parsed and batched as they stream in) and
// TABLE/@stats (fs/files/open_file.h).
#include <algorithm>
#include <cerrno>
#include <string>

#include "fs/files/open_file.h"
#include "fs/files/row_invalidation.h"
#include "fs/formats/insert_batcher.h"
#include "fs/formats/insert_parser.h"
#include "fs/formats/table_stats.h"
#include "fs/tree/errno_map.h"

namespace cellfs::fs {
namespace {

// How many of the widest partitions @stats names.
constexpr size_t kWidestShown = 10;

class InsertFile final : public OpenFile {
 public:
  InsertFile(FileContext* context, Node table, const WriteAttributes& defaults, bool append)
      : context_(context),
        table_(std::move(table)),
        append_(append),
        parser_(table_.table, defaults),
        batcher_(context->engine, table_.table) {}

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (Status s = context_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    const std::string_view whole = data;
    if (!append_) SkipResent(offset, &data);
    uint64_t refused_before = batcher_.error_count();
    parser_.Feed(data, [this](uint64_t line, Result<InsertRow>&& row) {
      batcher_.Add(line, std::move(row));
    });
    Invalidate();
    if (batcher_.error_count() == refused_before) return static_cast<ssize_t>(whole.size());
    if (!append_) {
      failed_offset_ = offset;
      failed_bytes_.assign(whole);
    }
    return -EINVAL;
  }

  // The end of the input so far: its last record, then the batch. Fails
  // with EINVAL once any record of this open file was refused, even by a
  // write that then seemed to succeed (see SkipResent): a writer that
  // checks only close or fsync must learn of it too.
  int Flush() override {
    parser_.Finish(
        [this](uint64_t line, Result<InsertRow>&& row) { batcher_.Add(line, std::move(row)); });
    Status s = batcher_.Flush();
    Invalidate();
    context_->AwaitInvalidations();  // `stat` after the close sees the new values
    if (!s.ok()) return ErrnoFromStatus(s);
    return batcher_.error_count() == 0 ? 0 : EINVAL;
  }

  int Read(uint64_t offset, size_t size, std::string* out) override {
    std::string report = batcher_.errors() + std::to_string(batcher_.rows_stored()) +
                         " rows stored, " + std::to_string(batcher_.error_count()) +
                         " lines refused\n";
    if (offset < report.size()) out->assign(report.substr(offset, size));
    return 0;
  }

  bool direct_io() const override { return true; }

 private:
  // A write() bigger than the kernel's largest request is split; when a
  // later piece fails, the writer gets a short count and sends the rest
  // again from that piece's offset. So bytes at the offset of the last
  // write that failed, equal to its bytes, were parsed already: they are
  // skipped (the refusal stays in the report and fails the flush). Any
  // other write is new input, even at an offset written before: a write
  // that failed as a whole leaves the file offset where it was.
  void SkipResent(uint64_t offset, std::string_view* data) {
    if (failed_bytes_.empty() || offset != failed_offset_) {
      failed_bytes_.clear();
      return;
    }
    const size_t resent = std::min(data->size(), failed_bytes_.size());
    if (data->substr(0, resent) != std::string_view(failed_bytes_).substr(0, resent)) {
      failed_bytes_.clear();
      return;
    }
    data->remove_prefix(resent);
    failed_bytes_.erase(0, resent);
    failed_offset_ += resent;
  }

  // What the kernel holds of the rows just stored shows stale attributes
  // (a cell's size and mtime, a row's mtime) or names (a cell deleted by a
  // null) until its timeouts run out, so it is invalidated. Only nodes the
  // kernel holds are: a child's dentry keeps its parent's inode, so a
  // partition the kernel does not hold ends the search below it, and a
  // load of a million rows nobody looked at sends nothing. Rows and cells
  // reached through slice directories are not invalidated (docs/FILESYSTEM.md).
  void Invalidate() {
    batcher_.TakeTouchedRows(&touched_);
    InvalidateRows(context_, table_.id, *table_.table, touched_);
  }

  FileContext* context_;
  Node table_;
  bool append_;
  InsertParser parser_;
  InsertBatcher batcher_;
  TouchedRows touched_;  // taken from the batcher, kept for its capacity
  // The last write that failed, while a resend of its bytes may still come.
  uint64_t failed_offset_ = 0;
  std::string failed_bytes_;
};

}  // namespace

std::unique_ptr<OpenFile> NewInsertFile(FileContext* context, const Node& table,
                                        const WriteAttributes& defaults, bool append) {
  return std::make_unique<InsertFile>(context, table, defaults, append);
}

int OpenStatsFile(FileContext* context, const Node& table, bool json,
                  std::unique_ptr<OpenFile>* out) {
  TableStats stats;
  Status s = ComputeTableStats(context->engine->NewReadView(), table.table, kWidestShown, &stats);
  if (!s.ok()) return ErrnoFromStatus(s);
  AttachBuilds(context->engine->BuildsInProgress(), &stats);
  *out = NewTextFile(json ? FormatStatsJson(stats) : FormatStatsText(stats), /*direct_io=*/true);
  return 0;
}

}  // namespace cellfs::fs
