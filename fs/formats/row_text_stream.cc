// RowTextStream (fs/formats/row_text_stream.h): partitions in token order, rows in
// clustering order, each rendered by fs/formats/row_json.h.
#include "fs/formats/row_text_stream.h"

#include <algorithm>

#include "fs/formats/row_json.h"

namespace cellfs::fs {

int64_t NewestWriteMicros(const RowFragment& row) {
  int64_t newest = row.marker ? row.marker->write_time : 0;
  for (const RowCell& cell : row.cells) newest = std::max(newest, cell.cell.write_time);
  return newest;
}

RowTextStream::RowTextStream(RowSource source, ReadView view, bool csv)
    : source_(std::move(source)),
      view_(source_.partition_key ? std::move(view) : view.ForScan()),
      csv_(csv) {
  if (!source_.partition_key) partitions_ = view_.NewPartitionIterator(source_.table);
}

RowTextStream::~RowTextStream() = default;

bool RowTextStream::StartPartition() {
  static_row_.reset();
  SliceSpec whole_partition;
  const SliceSpec* slice = &whole_partition;
  if (partitions_) {
    if (!partitions_->Valid()) {
      status_ = partitions_->status();
      return false;
    }
    if (status_ = partitions_->DecodePartitionKey(&partition_key_); !status_.ok()) return false;
    if (!partitions_->static_row().cells.empty()) static_row_ = partitions_->static_row();
    partitions_->Next();
  } else {
    if (done_) return false;
    done_ = true;  // a partition or slice stream has exactly one partition
    partition_key_ = *source_.partition_key;
    slice = &source_.slice;
    auto statics = view_.GetStaticRow(source_.table, partition_key_);
    if (!statics.ok()) {
      status_ = statics.status();
      return false;
    }
    static_row_ = statics.value();
  }
  auto rows = view_.NewRowIterator(source_.table, partition_key_, *slice);
  if (!rows.ok()) {
    status_ = rows.status();
    return false;
  }
  rows_ = std::move(rows).value();
  rows_seen_ = false;
  return true;
}

bool RowTextStream::Next(std::string* out) {
  if (csv_ && !header_done_) {
    header_done_ = true;
    out->append(CsvHeader(*source_.table));
    return true;
  }
  const RowFragment* statics = static_row_ ? &*static_row_ : nullptr;
  while (true) {
    if (!rows_) {
      if (!StartPartition()) return false;
      statics = static_row_ ? &*static_row_ : nullptr;
    }
    if (rows_->Valid()) {
      newest_write_micros_ = std::max(newest_write_micros_, NewestWriteMicros(rows_->row()));
      if (statics != nullptr && !rows_seen_) {
        newest_write_micros_ = std::max(newest_write_micros_, NewestWriteMicros(*statics));
      }
      std::vector<std::string> clustering;
      if (status_ = rows_->DecodeClustering(&clustering); !status_.ok()) return false;
      if (csv_) {
        out->append(RowToCsv(*source_.table, partition_key_, clustering, statics, rows_->row()));
      } else {
        out->append(RowToJson(*source_.table, partition_key_, clustering, statics, rows_->row()));
        out->push_back('\n');
      }
      rows_->Next();
      rows_seen_ = true;
      return true;
    }
    if (status_ = rows_->status(); !status_.ok()) return false;
    rows_.reset();
    // A partition with static cells and no rows is one row of its own, its
    // clustering columns null, as SELECT shows it. A slice does not.
    if (!rows_seen_ && statics != nullptr && !source_.is_slice) {
      newest_write_micros_ = std::max(newest_write_micros_, NewestWriteMicros(*statics));
      RowFragment empty;
      if (csv_) {
        out->append(RowToCsv(*source_.table, partition_key_, {}, statics, empty));
      } else {
        out->append(RowToJson(*source_.table, partition_key_, {}, statics, empty));
        out->push_back('\n');
      }
      return true;
    }
  }
}

}  // namespace cellfs::fs
