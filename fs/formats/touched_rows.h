// TouchedRows: the keys and written columns of the rows a bulk load or a
// data statement stored, in write order, kept in one byte buffer so that a
// load of a million rows allocates nothing per row; read back by the kernel
// invalidations that follow (fs/files/row_invalidation.h).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace cellfs::fs {

class TouchedRows {
 public:
  // Appends one row: its serialized partition key, its clustering (empty in
  // a table without clustering columns, or for static cells alone) and the
  // indexes in def.columns of the cells written. Consecutive rows of one
  // partition store its key once.
  void Add(std::span<const std::string> partition_key, std::span<const std::string> clustering,
           std::span<const size_t> columns);
  // Appends every row of `other` after this one's, in order.
  void Append(const TouchedRows& other);
  // Forgets every row; the buffer's capacity stays for the next batch.
  void clear();
  size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }

  // Reads the rows back in order. The vectors it exposes are its own and
  // are overwritten by the next Next(); `rows` must outlive the reader and
  // stay unchanged while it reads.
  class Reader {
   public:
    explicit Reader(const TouchedRows& rows) : rows_(rows) {}
    // Moves to the next row; false after the last.
    bool Next();
    // Whether this row's partition differs from the row before it (true for
    // the first row).
    bool new_partition() const { return new_partition_; }
    const std::vector<std::string>& partition_key() const { return partition_key_; }
    const std::vector<std::string>& clustering() const { return clustering_; }
    const std::vector<size_t>& columns() const { return columns_; }

   private:
    const TouchedRows& rows_;
    size_t offset_ = 0;
    bool new_partition_ = false;
    std::vector<std::string> partition_key_;
    std::vector<std::string> clustering_;
    std::vector<size_t> columns_;
  };

 private:
  // Per row: a byte (1: a partition key follows; 0: the previous row's),
  // [the partition key's components], the clustering's components, the
  // columns; each list a uint32 count, each component a uint32 length and
  // its bytes, each column a uint32 (host order: the buffer never leaves
  // the process).
  std::string bytes_;
  std::vector<std::string> last_partition_;
  bool has_last_ = false;
  size_t rows_ = 0;
};

}  // namespace cellfs::fs
