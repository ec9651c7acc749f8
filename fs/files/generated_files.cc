// The generated open files of fs/files/open_file.h: streamed @json / @csv exports
// of tables, partitions and slices, and the MOUNT/@cql session.
#include <cerrno>
#include <map>
#include <string>
#include <utility>

#include "fs/files/open_file.h"
#include "fs/files/row_invalidation.h"
#include "fs/files/schema_invalidation.h"
#include "fs/formats/cql_session.h"
#include "fs/formats/row_text_stream.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/export_text.h"
#include "fs/tree/query_path.h"

namespace cellfs::fs {
namespace {

class ExportFile final : public OpenFile {
 public:
  ExportFile(FileContext* context, Node dir, bool csv)
      : context_(context), dir_(std::move(dir)), csv_(csv) {}

  int Read(uint64_t offset, size_t size, std::string* out) override {
    if (!stream_ || offset < base_) {
      if (int err = Restart(); err != 0) return err;
    }
    // Drop what lies before the read: exports are read front to back.
    if (offset > base_) {
      size_t drop = static_cast<size_t>(std::min<uint64_t>(offset - base_, data_.size()));
      data_.erase(0, drop);
      base_ += drop;
    }
    while (base_ + data_.size() < offset + size && stream_->Next(&data_)) {
      // Keep only what the read can still need: a far offset must not
      // gather the whole export in memory.
      if (offset > base_ + data_.size()) {
        base_ += data_.size();
        data_.clear();
      }
    }
    if (!stream_->status().ok()) return ErrnoFromStatus(stream_->status());
    if (offset >= base_) ReadFrom(data_, offset - base_, size, out);
    return 0;
  }
  bool direct_io() const override { return true; }

 private:
  int Restart() {
    // What `dir` exports; its slice and query were checked when it resolved.
    RowSource source;
    if (Status status = RowSourceOf(dir_, &source); !status.ok()) {
      return ErrnoFromStatus(status);
    }
    stream_ =
        std::make_unique<RowTextStream>(std::move(source), context_->engine->NewReadView(), csv_);
    data_.clear();
    base_ = 0;
    return 0;
  }

  FileContext* context_;
  Node dir_;
  bool csv_;
  std::unique_ptr<RowTextStream> stream_;
  std::string data_;  // produced content from offset base_ on
  uint64_t base_ = 0;
};

class CqlFile final : public OpenFile {
 public:
  explicit CqlFile(FileContext* context) : context_(context), session_(context->engine) {}

  int Read(uint64_t offset, size_t size, std::string* out) override {
    if (!session_.written()) {
      if (!description_) description_ = CqlSession::DescribeSchema(*context_->engine);
      return ReadFrom(*description_, offset, size, out);
    }
    return session_.Read(offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (Status s = context_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    Status s = Invalidating([&] { return session_.WriteAt(offset, data); });
    return s.ok() ? static_cast<ssize_t>(data.size()) : -EINVAL;
  }

  int Flush() override {
    Status s = Invalidating([&] { return session_.Finish(); });
    return s.ok() ? 0 : EINVAL;
  }

  bool direct_io() const override { return true; }

 private:
  // Runs `run`, then tells the kernel about keyspaces and tables that went
  // away, were made again, or changed shape.
  template <typename Run>
  Status Invalidating(Run run) {
    std::shared_ptr<const Catalog> before = context_->engine->catalog();
    TableIdsByName ids_before = TableIdsOf(*context_->engine, *before);
    Status s = run();
    std::shared_ptr<const Catalog> after = context_->engine->catalog();
    const bool wrote = InvalidateData(session_.TakeTouched());
    if (before != after) InvalidateSchemaChanges(context_, *before, ids_before, *after);
    // The next statement's lookups, and `cat` once the write returned,
    // see the change.
    if (before != after || wrote) context_->AwaitInvalidations();
    return s;
  }

  // What data statements wrote (fs/cql/dml_executor.h), as @insert's
  // batches are invalidated. True when there was anything.
  bool InvalidateData(std::vector<DmlTouched> touched);

  FileContext* context_;
  CqlSession session_;
  std::optional<std::string> description_;
};

bool CqlFile::InvalidateData(std::vector<DmlTouched> touched) {
  for (const DmlTouched& t : touched) {
    NodeId table;
    table.kind = NodeKind::kTable;
    table.keyspace = t.table->def.keyspace;
    table.table = t.table->def.name;
    table.table_id = t.table->id;
    if (t.scope == DmlTouched::Scope::kCells) {
      TouchedRows row;
      row.Add(t.partition_key, t.clustering, t.columns);
      InvalidateRows(context_, table, *t.table, row);
    } else {
      InvalidateDeletion(context_, table, *t.table, t.partition_key, t.clustering,
                         t.scope == DmlTouched::Scope::kPartition && t.clustering.empty());
    }
  }
  return !touched.empty();
}

}  // namespace

std::unique_ptr<OpenFile> NewExportFile(FileContext* context, const Node& dir, bool csv) {
  return std::make_unique<ExportFile>(context, dir, csv);
}

int OpenCountFile(FileContext* context, const Node& dir, std::unique_ptr<OpenFile>* out) {
  uint64_t rows = 0;
  if (Status s = CountRows(dir, context->engine->NewReadView(), &rows); !s.ok()) {
    return ErrnoFromStatus(s);
  }
  *out = NewTextFile(std::to_string(rows) + "\n", /*direct_io=*/true);
  return 0;
}

std::unique_ptr<OpenFile> NewCqlFile(FileContext* context) {
  return std::make_unique<CqlFile>(context);
}

}  // namespace cellfs::fs
