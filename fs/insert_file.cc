// TABLE/@insert (bulk upserts, parsed and batched as they stream in) and
// TABLE/@stats (fs/open_file.h).
#include <cerrno>

#include "fs/errno_map.h"
#include "fs/insert_batcher.h"
#include "fs/insert_parser.h"
#include "fs/open_file.h"
#include "fs/table_stats.h"

namespace cellfs::fs {
namespace {

// How many of the widest partitions @stats names.
constexpr size_t kWidestShown = 10;

class InsertFile final : public OpenFile {
 public:
  InsertFile(Filesystem::Impl* impl, Node table, const WriteSuffixes& defaults, bool append)
      : impl_(impl), table_(std::move(table)), append_(append), parser_(table_.table, defaults),
        batcher_(impl->engine, table_.table) {}

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (Status s = impl_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    // A writer that got a short count (the kernel split its write and a
    // later piece failed) sends the rest again from where the count
    // ended: bytes already consumed are skipped, not parsed twice.
    size_t given = data.size();
    if (!append_ && offset < consumed_) {
      uint64_t overlap = std::min<uint64_t>(consumed_ - offset, data.size());
      data.remove_prefix(static_cast<size_t>(overlap));
    }
    consumed_ += data.size();
    uint64_t refused_before = batcher_.error_count();
    parser_.Feed(data, [this](uint64_t line, Result<InsertRow>&& row) {
      batcher_.Add(line, std::move(row));
    });
    Invalidate();
    return batcher_.error_count() == refused_before ? static_cast<ssize_t>(given) : -EINVAL;
  }

  // The end of the input so far: its last record, then the batch.
  int Flush() override {
    uint64_t refused_before = batcher_.error_count();
    parser_.Finish([this](uint64_t line, Result<InsertRow>&& row) {
      batcher_.Add(line, std::move(row));
    });
    Status s = batcher_.Flush();
    Invalidate();
    if (!s.ok()) return ErrnoFromStatus(s);
    return batcher_.error_count() == refused_before ? 0 : EINVAL;
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
  // Partitions the kernel holds may show other attributes now.
  void Invalidate() {
    for (std::vector<std::string>& key : batcher_.TakeTouchedPartitions()) {
      NodeId partition = table_.id;
      partition.kind = NodeKind::kPartition;
      partition.file = VirtualName::Kind::kCql;
      partition.directory = NodeKind::kRoot;
      partition.write = {};
      partition.partition_key = std::move(key);
      impl_->InvalidateNode(partition);
    }
  }

  Filesystem::Impl* impl_;
  Node table_;
  bool append_;
  InsertParser parser_;
  InsertBatcher batcher_;
  uint64_t consumed_ = 0;  // input bytes fed to the parser (file offsets 0..consumed_)
};

}  // namespace

std::unique_ptr<OpenFile> NewInsertFile(Filesystem::Impl* impl, const Node& table,
                                        const WriteSuffixes& defaults, bool append) {
  return std::make_unique<InsertFile>(impl, table, defaults, append);
}

int OpenStatsFile(Filesystem::Impl* impl, const Node& table, bool json,
                  std::unique_ptr<OpenFile>* out) {
  TableStats stats;
  Status s = ComputeTableStats(impl->engine->NewReadView(), table.table, kWidestShown, &stats);
  if (!s.ok()) return ErrnoFromStatus(s);
  *out = NewTextFile(json ? FormatStatsJson(stats) : FormatStatsText(stats), /*direct_io=*/true);
  return 0;
}

}  // namespace cellfs::fs
