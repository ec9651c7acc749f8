// The open-file kinds of fs/files/open_file.h.
#include "fs/files/open_file.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <span>
#include <vector>

#include "fs/formats/cell_text.h"
#include "fs/formats/row_json.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/export_text.h"
#include "fs/tree/refusal_log.h"

namespace cellfs::fs {
namespace {

// The largest value one open file of a cell, or a row's @json, may build (a
// CQL value may hold up to 2 GB; a file this size is surely a mistake).
constexpr size_t kMaxCellBytes = 64u << 20;

// The memory all open files together may hold in write buffers: four
// values of the largest size. Past it a growing write fails with ENOSPC
// (docs/FILESYSTEM.md, "Limits").
constexpr uint64_t kWriteBufferBudget = 256u << 20;

// Bytes an open file builds before it stores them (a cell's value, a row's
// @json object). The heap memory they hold is charged to the filesystem's
// write-buffer budget (FileContext::write_buffer_bytes) until they are
// freed. Not thread-safe: used under its open file's mutex.
class WriteBuffer {
 public:
  explicit WriteBuffer(FileContext* context) : context_(context) {}
  ~WriteBuffer() { Free(); }
  WriteBuffer(const WriteBuffer&) = delete;
  WriteBuffer& operator=(const WriteBuffer&) = delete;

  const std::string& str() const { return bytes_; }
  size_t size() const { return bytes_.size(); }
  bool empty() const { return bytes_.empty(); }

  // Writes `data` at `at`, zero-filling any gap before it. EFBIG when the
  // result would pass kMaxCellBytes, ENOSPC when the budget cannot take the
  // memory it needs; then nothing changes.
  int Write(uint64_t at, std::string_view data) {
    if (at > kMaxCellBytes || data.size() > kMaxCellBytes - at) return EFBIG;
    size_t end = static_cast<size_t>(at) + data.size();
    if (int e = Reserve(std::max(end, bytes_.size()))) return e;
    if (bytes_.size() < end) bytes_.resize(end);
    bytes_.replace(static_cast<size_t>(at), data.size(), data);
    return 0;
  }
  int Append(std::string_view data) { return Write(bytes_.size(), data); }
  // Cuts to `size` bytes, or zero-fills up to it (errors as Write).
  int Resize(size_t size) {
    if (size > kMaxCellBytes) return EFBIG;
    if (int e = Reserve(size)) return e;
    bytes_.resize(size);
    return 0;
  }
  // The bytes become `data` (errors as Write).
  int Assign(std::string_view data) {
    Free();
    return Write(0, data);
  }
  // Drops the bytes and gives their memory back to the budget.
  void Free() {
    std::string().swap(bytes_);
    Settle();
  }

 private:
  // Heap capacity for `size` bytes, charged before it is allocated.
  int Reserve(size_t size) {
    if (size <= bytes_.capacity()) return 0;
    // Doubling keeps a value written in pieces linear, capped at the
    // largest value so one file never holds more than that.
    size_t target = std::max(size, std::min(2 * bytes_.capacity(), kMaxCellBytes));
    if (!Charge(target)) {
      target = size;  // no room to double: exactly what is needed
      if (!Charge(target)) return ENOSPC;
    }
    std::string grown;
    grown.reserve(target);
    grown.append(bytes_);
    bytes_.swap(grown);
    Settle();
    return 0;
  }

  // Raises the charge to `bytes`; false (nothing charged) past the budget.
  bool Charge(size_t bytes) {
    uint64_t more = bytes - charged_;
    uint64_t before = context_->write_buffer_bytes.fetch_add(more);
    if (before + more > kWriteBufferBudget) {
      context_->write_buffer_bytes.fetch_sub(more);
      return false;
    }
    charged_ = bytes;
    return true;
  }

  // Sets the charge to the heap memory the bytes hold now.
  void Settle() {
    size_t held = bytes_.capacity() > kInlineCapacity ? bytes_.capacity() : 0;
    if (held >= charged_) {
      context_->write_buffer_bytes.fetch_add(held - charged_);
    } else {
      context_->write_buffer_bytes.fetch_sub(charged_ - held);
    }
    charged_ = held;
  }

  static inline const size_t kInlineCapacity = std::string().capacity();  // no heap

  FileContext* context_;
  std::string bytes_;
  size_t charged_ = 0;  // bytes of the budget this buffer holds
};

// Whether `node` (a cell, or a row with `columns` of it about to be written)
// still names what it named when it was opened: ESTALE when its table was
// dropped (or dropped and made again) or one of those columns was dropped
// since (ALTER TABLE ... DROP). A write through the old schema would be
// stored under a column id that no read resolves any more: it would vanish
// after a close that returned 0. On success *current is the table's schema
// now. Another errno when the catalog cannot be read.
int CheckSchema(FileContext* context, const Node& node, std::span<const size_t> columns,
                TableHandle* current) {
  Result<TableHandle> table = context->TableOf(node.id);
  if (!table.ok()) {
    return table.status().code() == StatusCode::kNotFound ? ESTALE
                                                          : ErrnoFromStatus(table.status());
  }
  for (size_t column : columns) {
    if (!table.value()->ColumnIndexById(node.table->column_ids[column])) return ESTALE;
  }
  *current = std::move(table).value();
  return 0;
}

int ReadFromImpl(std::string_view content, uint64_t offset, size_t size, std::string* out) {
  if (offset < content.size()) out->assign(content.substr(offset, size));
  return 0;
}

class TextFile final : public OpenFile {
 public:
  TextFile(std::string content, bool direct_io)
      : content_(std::move(content)), direct_io_(direct_io) {}
  int Read(uint64_t offset, size_t size, std::string* out) override {
    return ReadFrom(content_, offset, size, out);
  }
  bool direct_io() const override { return direct_io_; }

 private:
  std::string content_;
  bool direct_io_;
};

bool IsText(const CqlType& type) {
  return type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii;
}

// Whether `value` (valid for multi-cell `type`) has no element: an empty
// collection, or a UDT whose fields are all null.
bool IsEmptyMultiCellValue(const CqlType& type, std::string_view value) {
  if (type.kind() != TypeKind::kUdt)
    return value.size() == 4 && value == std::string_view("\0\0\0\0", 4);
  for (; value.size() >= 4; value.remove_prefix(4)) {
    if (value.substr(0, 4) != std::string_view("\xff\xff\xff\xff", 4)) return false;
  }
  return value.empty();
}

bool CanAppend(const CqlType& type) {
  return IsText(type) || type.kind() == TypeKind::kBlob ||
         (type.is_collection() && type.is_multi_cell());
}

// The current live content of a cell; nullopt when it has none.
Result<std::optional<RowCell>> CurrentCell(FileContext* context, const Node& node) {
  auto partition = node.Partition();
  if (!partition.ok()) return partition.status();
  return context->engine->NewReadView().GetCell(node.table, *partition.value(), node.id.clustering,
                                                node.table->column_ids[*node.column()]);
}

class CellFile final : public OpenFile {
 public:
  CellFile(FileContext* context, Node node, int flags, bool created, std::string content,
           bool dirty)
      : context_(context),
        node_(std::move(node)),
        created_(created),
        content_(std::move(content)),
        buffer_(context),
        dirty_(dirty) {
    column_ = *node_.column();
    const CqlType& type = *node_.table->column(column_).type;
    counter_ = type.kind() == TypeKind::kCounter;
    append_ = (flags & O_APPEND) != 0;
    edits_content_ = !counter_ && !append_ && (flags & O_TRUNC) == 0;
  }

  // Page-cache readers would share one i_size that a writer's O_TRUNC,
  // its writes and every GETATTR change under them (torn reads).
  bool direct_io() const override { return true; }

  ~CellFile() override {
    if (!created_) return;
    context_->Unkeep(node_.id);
    // Nothing was stored (touch of an int column): the entry the kernel
    // got from create names nothing.
    if (!ever_stored_) context_->InvalidateCellName(node_);
  }

  int Read(uint64_t offset, size_t size, std::string* out) override {
    bool written = dirty_ && !counter_ && !append_ && !edits_content_;
    return ReadFrom(written ? buffer_.str() : content_, offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (refused_ != 0) return -Refused();
    if (Status s = context_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    if (int e = CheckColumn()) return -Refuse(e);
    if (edits_content_) {
      // The first write of an open without O_TRUNC edits the current value.
      if (int e = buffer_.Assign(content_)) return -Refuse(e);
      edits_content_ = false;
    }
    uint64_t at = counter_ || append_ ? buffer_.size() : offset;
    if (at > kMaxCellBytes || data.size() > kMaxCellBytes - at) {
      return -Refuse(EFBIG, "a cell holds at most " + std::to_string(kMaxCellBytes) + " bytes");
    }
    std::optional<std::string> parsed;
    std::string why;
    if (!Accepts(at, data, &parsed, &why)) return -Refuse(EINVAL, why);
    if (int e = buffer_.Write(at, data)) return -Refuse(e);
    parsed_ = std::move(parsed);
    dirty_ = true;
    return static_cast<ssize_t>(data.size());
  }

  int Truncate(uint64_t size) override {
    if (refused_ != 0) return Refused();
    if (counter_ || append_) {  // a delta or an appendix starts empty anyway
      if (size == 0) return 0;
      return fs::Refuse(EINVAL, "column " + ColumnName() + ": " +
                                    (counter_ ? "a counter's file takes the amount to add"
                                              : "an append (>>) takes what it adds") +
                                    "; only truncation to 0 means something");
    }
    if (size == 0) {
      // No empty spelling (int, uuid...): as truncate(2) by path, nothing to
      // cut to, and the kernel must not be told the size is 0.
      if (!IsText(type()) && type().kind() != TypeKind::kBlob) {
        return fs::Refuse(EINVAL, "column " + ColumnName() + ": a " + type().ToCql() +
                                      " has no empty value to truncate to");
      }
      buffer_.Free();
      parsed_.reset();
      edits_content_ = false;
      dirty_ = true;
      return 0;
    }
    // Any other length cuts or zero-extends the file's content, as on any
    // file; to its current length it changes nothing (rsync --inplace). The
    // result is judged when it is stored (close), as a write in pieces is.
    if (size > kMaxCellBytes) {
      return fs::Refuse(EFBIG, "a cell holds at most " + std::to_string(kMaxCellBytes) + " bytes");
    }
    if (edits_content_) {
      if (size == content_.size()) return 0;
      if (int e = buffer_.Assign(content_)) return e;
      edits_content_ = false;
    } else if (size == buffer_.size() && dirty_) {
      return 0;
    }
    if (int e = buffer_.Resize(static_cast<size_t>(size))) return e;
    parsed_.reset();
    dirty_ = true;
    return 0;
  }

  void Discard() override { dirty_ = false; }

  // Stores whatever is dirty, a truncation alone included: close(2) waits
  // for the flush, not for the release, so only what the flush stored is
  // acknowledged. Shells truncate, close a duplicate of the descriptor (a
  // flush: the empty value is stored) and then write through the other
  // (the next flush stores the value), the same end state as on a disk
  // filesystem, where O_TRUNC empties the file at open. What a flush
  // stored is not stored again: later flushes store later writes only.
  int Flush() override {
    if (refused_ != 0) return Refused();
    if (!dirty_) return 0;
    if (int e = CheckColumn()) return Refuse(e);
    // A failed store fails this close and stores nothing later: a release
    // that retried could land a value after its close reported failure.
    if (Status s = Store(); !s.ok()) return Refuse(ErrnoFromStatus(s));
    dirty_ = false;
    ever_stored_ = true;
    parsed_.reset();  // the buffer it parsed is stored (and freed below)
    if (counter_ || append_) {
      buffer_.Free();  // a second flush must not add again
    } else if (stored_) {
      // The buffer's memory goes back to the budget; a later write edits
      // the stored value, as an open without O_TRUNC would.
      buffer_.Free();
      edits_content_ = true;
    }
    // Later reads through this handle show what it stored.
    if (stored_) content_ = FormatCellContent(type(), *stored_);
    stored_.reset();  // content_ is the one copy a handle keeps
    NodeId plain = node_.id;
    plain.write = {};
    // A removed cell's name, or the plain name whose timeout follows a new
    // TTL, goes before the node (file_context.h's order rule).
    if (removes_cell_ || !node_.id.write.empty()) context_->InvalidateCellName(node_);
    context_->InvalidateNode(plain);  // its size and mtime changed
    if (!node_.id.write.empty()) context_->InvalidateNode(node_.id);
    if (!node_.id.clustering.empty()) {
      NodeId row = plain;
      row.kind = NodeKind::kRow;
      row.column_id = 0;
      context_->InvalidateNode(row);  // its mtime is its newest write
    }
    // A removed cell's name must be gone, and a write through another name
    // (`col@timestamp=T`, `col@ttl=N`: another inode, whose write the kernel
    // saw) must have dropped the plain name's cached size and mtime, before
    // the close returns: `stat col` right after it sees the new write time.
    // A flush holds no directory lock, so waiting here stalls nothing else.
    if (removes_cell_ || !node_.id.write.empty()) context_->AwaitInvalidations();
    return 0;
  }

 private:
  const CqlType& type() const { return *node_.table->column(column_).type; }

  // CheckSchema for the cell's column; on success the file writes through
  // the table's current schema.
  int CheckColumn() {
    TableHandle current;
    if (int e = CheckSchema(context_, node_, std::span<const size_t>(&column_, 1), &current)) {
      return e;
    }
    node_.table = std::move(current);
    column_ = *node_.column();
    return 0;
  }

  // Whether writing `data` at `at` leaves a value that is, or may still
  // become, valid. Blobs take anything; text appended to is checked from
  // its last character on (the rest was checked already), so a large text
  // written in pieces costs linear time. When the result is a whole value
  // of another type, *parsed is it serialized, so the store does not parse
  // it again.
  // Whether the content with `data` written at `at` is valid or may become
  // so; when it is not, *why says why (for MOUNT/@errors).
  bool Accepts(uint64_t at, std::string_view data, std::optional<std::string>* parsed,
               std::string* why) const {
    if (type().kind() == TypeKind::kBlob && !counter_) return true;
    const std::string not_text = type().kind() == TypeKind::kAscii
                                     ? "column " + ColumnName() + ": the value is not ASCII"
                                     : "column " + ColumnName() + ": the value is not valid UTF-8";
    const std::string& buffer = buffer_.str();
    if (IsText(type()) && at == buffer.size()) {
      size_t start = buffer.size();
      for (int i = 0;
           i < 3 && start > 0 && (static_cast<unsigned char>(buffer[start - 1]) & 0xC0) == 0x80;
           ++i) {
        --start;
      }
      if (start > 0) --start;
      if (IsValidTextPrefix(type(), buffer.substr(start) + std::string(data))) return true;
      *why = not_text;
      return false;
    }
    std::string candidate = buffer;
    if (candidate.size() < at + data.size()) candidate.resize(at + data.size());
    candidate.replace(at, data.size(), data);
    if (counter_) {
      Result<int64_t> delta = ParseCounterDelta(candidate);
      if (!delta.ok()) *why = "column " + ColumnName() + ": " + delta.status().message();
      return delta.ok();
    }
    if (IsText(type())) {
      if (IsValidTextPrefix(type(), candidate)) return true;
      *why = not_text;
      return false;
    }
    if (type().kind() == TypeKind::kBlob) return true;
    Result<std::string> value = ParseCellContent(type(), candidate);
    if (!value.ok()) {
      if (CouldBecomeValid(type(), candidate)) return true;
      *why = "column " + ColumnName() + ": " + value.status().message();
      return false;
    }
    *parsed = std::move(value).value();
    return true;
  }

  // A refused value is dropped whole: the accepted writes before it were
  // only part of it, so nothing more of this open file is stored, and its
  // close reports the refusal. Returns `error`; `reason` (when given, else
  // what the refusing step noted) explains it again at every later call.
  int Refuse(int error, std::string_view reason = {}) {
    if (!reason.empty()) NoteRefusalReason(error, reason);
    refused_ = error;
    refused_reason_ = TakeRefusalReason(error);
    NoteRefusalReason(error, refused_reason_);
    dirty_ = false;
    buffer_.Free();
    parsed_.reset();
    return error;
  }
  // The sticky refusal again, with its reason noted for this request.
  int Refused() {
    NoteRefusalReason(refused_, refused_reason_.empty()
                                    ? "an earlier write of this open file was refused"
                                    : refused_reason_);
    return refused_;
  }
  std::string ColumnName() const { return node_.table->column(column_).name; }

  Status Store() {
    stored_.reset();
    const std::string& buffer = edits_content_ ? content_ : buffer_.str();
    Mutation mutation = context_->engine->NewMutation();
    const WriteAttributes& attributes = node_.id.write;
    const auto& pk = node_.id.partition_key;
    const auto& ck = node_.id.clustering;
    Status s;
    if (counter_) {
      Result<int64_t> delta = ParseCounterDelta(buffer);
      if (!delta.ok()) return delta.status();
      s = mutation.AddToCounter(node_.table, pk, ck, column_, delta.value(), attributes);
    } else {
      // Each write checked its bytes: text is checked only for a whole last
      // character, and a value another type's write parsed whole is taken
      // as parsed (the engine still validates what it stores).
      Result<std::string> value = parsed_ && !edits_content_
                                      ? Result<std::string>(std::move(*parsed_))
                                  : IsText(type()) ? ParseCheckedTextContent(type(), buffer)
                                                   : ParseCellContent(type(), buffer);
      parsed_.reset();
      if (!value.ok()) return value.status();
      std::string stored = std::move(value).value();
      // `{}`, `[]` or a UDT of nulls in a non-frozen column is null: the
      // cell goes, and the kernel's entry for it must go before close
      // returns (a later `echo v > col` would meet a stale inode: ENOENT).
      removes_cell_ = !append_ && type().is_multi_cell() && IsEmptyMultiCellValue(type(), stored);
      if (append_ && type().is_multi_cell()) {
        // Each element is a cell of its own: an append writes its elements,
        // reading nothing, and concurrent appends keep each other's.
        s = mutation.AddElements(node_.table, pk, ck, column_, stored, attributes);
        if (!s.ok()) return s;
        return context_->Apply(std::move(mutation));
      }
      if (append_) {
        std::lock_guard lock(context_->AppendLock(node_.id));
        auto read = CurrentCell(context_, node_);
        if (!read.ok()) return read.status();
        const std::optional<RowCell>& current = read.value();
        Result<std::string> merged =
            IsText(type())
                // A Unix append of file contents: "hello\n" + "world\n".
                ? ParseCellContent(type(), (current ? FormatCellContent(type(), current->cell.value)
                                                    : std::string()) +
                                               buffer)
                : AppendCellValue(type(), current.has_value(), current ? current->cell.value : "",
                                  stored);
        if (!merged.ok()) return merged.status();
        stored = std::move(merged).value();
        // Read, merge and write under the cell's append lock, with a write
        // time taken inside it, so concurrent appends to one cell each keep
        // their elements.
        Mutation append = context_->engine->NewMutation();
        return Put(std::move(append), std::move(stored), attributes);
      }
      return Put(std::move(mutation), std::move(stored), attributes);
    }
    if (!s.ok()) return s;
    return context_->Apply(std::move(mutation));
  }

  // Writes `value` to the cell through `mutation` and remembers it.
  Status Put(Mutation mutation, std::string value, const WriteAttributes& attributes) {
    ColumnValue cell{column_, value};
    Status s = mutation.Update(node_.table, node_.id.partition_key, node_.id.clustering,
                               std::span<const ColumnValue>(&cell, 1), attributes);
    if (!s.ok()) return s;
    if (s = context_->Apply(std::move(mutation)); !s.ok()) return s;
    // With the server's write time the value is surely the cell's new
    // content; an explicit older @timestamp may lose to what is stored.
    if (!attributes.timestamp) stored_ = std::move(value);
    return Status::Ok();
  }

  FileContext* context_;
  Node node_;  // its table: the schema the file last checked (CheckColumn)
  bool created_;
  bool ever_stored_ = false;
  size_t column_ = 0;
  bool counter_ = false;
  bool append_ = false;
  bool removes_cell_ = false;  // the last store left the column null
  std::string content_;        // what reads show: the value when opened, or last stored
  WriteBuffer buffer_;         // what writes built: the new value, delta or appended text
  // The value being written is content_ until the next write copies it
  // into buffer_ (opened without O_TRUNC, or after a store).
  bool edits_content_ = false;
  bool dirty_;                         // a flush has something to store
  int refused_ = 0;                    // the errno of a refused write or store (0: none)
  std::string refused_reason_;         // and why
  std::optional<std::string> stored_;  // the value Store wrote, when surely current
  // buffer_ parsed for its type (not text, blob or counter), when the last
  // write left it a whole value; reset whenever buffer_ changes otherwise.
  std::optional<std::string> parsed_;
};

// Follows one JSON object arriving in pieces, looking at each byte once, to
// tell when it is whole: blanks, then '{', then anything up to the brace
// that closes it (braces and brackets counted outside strings), then blanks.
// The content is judged by ParseRowJson once the object is whole.
class JsonObjectScanner {
 public:
  // Takes the next bytes; false when they cannot belong to such a text.
  bool Scan(std::string_view bytes) {
    for (char c : bytes) {
      if (!Step(c)) return false;
    }
    return true;
  }
  bool closed() const { return started_ && depth_ == 0; }

 private:
  static bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  bool Step(char c) {
    if (!started_ || closed()) {
      if (IsBlank(c)) return true;
      if (started_ || c != '{') return false;
      started_ = true;
      depth_ = 1;
      return true;
    }
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
    } else if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if (c == '}' || c == ']') {
      --depth_;
    }
    return true;
  }

  bool started_ = false;  // the opening '{' was seen
  size_t depth_ = 0;      // braces and brackets open
  bool in_string_ = false;
  bool escaped_ = false;  // the previous byte was a backslash in a string
};

class RowJsonFile final : public OpenFile {
 public:
  RowJsonFile(FileContext* context, Node row, std::string content)
      : context_(context), row_(std::move(row)), content_(std::move(content)), buffer_(context) {}

  bool direct_io() const override { return true; }

  int Read(uint64_t offset, size_t size, std::string* out) override {
    return ReadFrom(content_, offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (refused_ != 0) return -refused_;
    if (Status s = context_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    if (offset != buffer_.size()) return -Refuse(EINVAL);  // an object is written front to back
    if (data.size() > kMaxCellBytes - buffer_.size()) return -Refuse(EFBIG);
    bool was_closed = object_.closed();
    if (!object_.Scan(data)) return -Refuse(EINVAL);
    if (int e = buffer_.Append(data)) return -Refuse(e);
    if (object_.closed() && !was_closed) {
      // The object is whole: judged once, here, so the write that ends a
      // bad object fails.
      Status s = ParseRowJson(*row_.table, row_.id.partition_key, row_.id.clustering, buffer_.str(),
                              &cells_);
      if (!s.ok()) return -Refuse(ErrnoFromStatus(s));
      if (int e = CheckStaticOnly()) return -Refuse(e);
      if (int e = CheckColumns()) return -Refuse(e);
    }
    return static_cast<ssize_t>(data.size());
  }

  // Stores the object written since the last flush; Release (the default)
  // is a flush too, so nothing waits for it.
  int Flush() override {
    if (refused_ != 0) return refused_;
    if (buffer_.empty()) return 0;
    if (!object_.closed()) return Refuse(EINVAL);  // the object never ended
    if (int e = CheckColumns()) return Refuse(e);
    buffer_.Free();
    object_ = JsonObjectScanner();
    std::vector<ColumnValue> cells = std::move(cells_);
    cells_.clear();
    if (cells.empty()) return 0;
    Mutation mutation = context_->engine->NewMutation();
    Status s = mutation.Update(row_.table, row_.id.partition_key, row_.id.clustering, cells);
    if (s.ok()) s = context_->Apply(std::move(mutation));
    if (!s.ok()) return Refuse(ErrnoFromStatus(s));  // as CellFile: nothing stored later
    NodeId dir = row_.id;                            // the row, or the partition (its @json)
    dir.file = VirtualName::Kind::kCql;
    dir.directory = NodeKind::kRoot;
    NodeId partition = dir;
    partition.kind = NodeKind::kPartition;
    partition.clustering.clear();
    for (const ColumnValue& cell : cells) {
      // A static column's file lives in the partition directory.
      const bool is_static = row_.table->column(cell.column).kind == ColumnKind::kStatic;
      context_->InvalidateName(is_static ? partition : dir, ColumnName(*row_.table, cell.column));
    }
    context_->InvalidateNode(dir);
    return 0;
  }

 private:
  // A clustered partition's @json takes its static columns only (an
  // UPDATE of the static row); a regular column needs a row.
  int CheckStaticOnly() const {
    if (row_.id.kind != NodeKind::kPartition || !row_.clustered()) return 0;
    for (const ColumnValue& cell : cells_) {
      if (row_.table->column(cell.column).kind != ColumnKind::kStatic) return EINVAL;
    }
    return 0;
  }

  // CheckSchema for the columns the object names. The object was parsed
  // against the schema of the open (row_.table), whose column indexes the
  // cells carry, so the store goes through that schema: it still maps
  // them to the right column ids, which this check found live.
  int CheckColumns() {
    std::vector<size_t> columns;
    columns.reserve(cells_.size());
    for (const ColumnValue& cell : cells_) columns.push_back(cell.column);
    TableHandle current;
    return CheckSchema(context_, row_, columns, &current);
  }

  // As CellFile::Refuse: nothing more of this open file is stored.
  int Refuse(int error) {
    refused_ = error;
    buffer_.Free();
    cells_.clear();
    return error;
  }

  FileContext* context_;
  Node row_;
  std::string content_;
  WriteBuffer buffer_;              // the object written so far
  JsonObjectScanner object_;        // where buffer_ stands in the object
  std::vector<ColumnValue> cells_;  // the parsed object, once it closed
  int refused_ = 0;                 // the errno of a refused write or store (0: none)
};

}  // namespace

int OpenFile::ReadFrom(std::string_view content, uint64_t offset, size_t size, std::string* out) {
  return ReadFromImpl(content, offset, size, out);
}

ssize_t OpenFile::Write(uint64_t, std::string_view) { return -EBADF; }
int OpenFile::Flush() { return 0; }
int OpenFile::Release() { return Flush(); }
int OpenFile::Truncate(uint64_t size) {
  return size == 0 ? 0 : Refuse(EINVAL, "this file can only be truncated to 0 bytes");
}

std::unique_ptr<OpenFile> NewTextFile(std::string content, bool direct_io) {
  return std::make_unique<TextFile>(std::move(content), direct_io);
}

int OpenCellFile(FileContext* context, const Node& node, int flags, bool created,
                 std::unique_ptr<OpenFile>* out) {
  if (!node.id.element.empty()) return OpenElementFile(context, node, flags, created, out);
  const CqlType& type = *node.table->column(*node.column()).type;
  if ((flags & O_APPEND) != 0 && type.kind() != TypeKind::kCounter && !CanAppend(type))
    return EINVAL;
  // CQL refuses USING TTL and USING TIMESTAMP on counter updates.
  if (type.kind() == TypeKind::kCounter && !node.id.write.empty()) return EINVAL;
  bool writing = (flags & O_ACCMODE) != O_RDONLY;
  // A writer that truncates text or a blob replaces the value whatever it
  // was, so the current one is not read (`echo V > cell`). Counters and
  // appends add to the value; other types show it until a write.
  const bool replaces = writing && (flags & O_TRUNC) != 0 && (flags & O_APPEND) == 0 &&
                        (IsText(type) || type.kind() == TypeKind::kBlob);
  std::optional<RowCell> cell;
  if (!replaces) {
    auto read = CurrentCell(context, node);
    if (!read.ok()) return ErrnoFromStatus(read.status());
    cell = std::move(read).value();
  }
  // A cell the kernel still holds but that is gone (deleted elsewhere,
  // expired) can be written again through the inode: the kernel sends no
  // create for a name it believes exists.
  if (!cell && !created && !writing && !context->IsKept(node.id)) return ENOENT;
  bool fresh = created || !cell;  // no value yet: truncated in effect
  std::string content = cell ? FormatCellContent(type, cell->cell.value) : "";
  // Truncating text or a blob stores the empty value even with no write;
  // other types have no empty spelling, so only a write stores them.
  bool empty_is_value = IsText(type) || type.kind() == TypeKind::kBlob;
  bool dirty = empty_is_value && (flags & O_ACCMODE) != O_RDONLY &&
               ((flags & O_TRUNC) != 0 || (fresh && (flags & O_APPEND) == 0));
  *out = std::make_unique<CellFile>(context, node, flags, created, std::move(content), dirty);
  return 0;
}

int OpenRowJsonFile(FileContext* context, const Node& row, std::unique_ptr<OpenFile>* out) {
  if (row.id.kind == NodeKind::kPartition && row.clustered()) {
    // A partition's static columns, opened for writing: its read side is
    // the export, which a writable open does not show.
    *out = std::make_unique<RowJsonFile>(context, row, std::string());
    return 0;
  }
  std::string text;
  Status read = RowJsonText(row, context->engine->NewReadView(), &text);
  if (!read.ok()) return ErrnoFromStatus(read);
  *out = std::make_unique<RowJsonFile>(context, row, std::move(text));
  return 0;
}

}  // namespace cellfs::fs
