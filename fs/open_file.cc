// The open-file kinds of fs/open_file.h.
#include "fs/open_file.h"

#include <fcntl.h>

#include <cerrno>

#include "fs/cell_text.h"
#include "fs/errno_map.h"
#include "fs/row_json.h"

namespace cellfs::fs {
namespace {

// The largest value one open file of a cell, or a row's @json, may build (a
// CQL value may hold up to 2 GB; a file this size is surely a mistake).
constexpr size_t kMaxCellBytes = 64u << 20;

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

bool CanAppend(const CqlType& type) {
  return IsText(type) || type.kind() == TypeKind::kBlob ||
         (type.is_collection() && type.is_multi_cell());
}

// The current live content of a cell, or nullptr (row read into *row).
const RowCell* CurrentCell(Filesystem::Impl* impl, const Node& node,
                           std::optional<RowFragment>* row, Status* status) {
  ReadView view = impl->engine->NewReadView();
  size_t column = *node.column();
  bool is_static = node.table->column(column).kind == ColumnKind::kStatic;
  auto read = is_static ? view.GetStaticRow(node.table, node.id.partition_key)
                        : view.GetRow(node.table, node.id.partition_key, node.id.clustering);
  if (!read.ok()) {
    *status = read.status();
    return nullptr;
  }
  *row = std::move(read).value();
  return *row ? FindCell(*node.table, **row, column) : nullptr;
}

class CellFile final : public OpenFile {
 public:
  CellFile(Filesystem::Impl* impl, Node node, int flags, bool created, std::string content,
           bool dirty)
      : impl_(impl), node_(std::move(node)), created_(created), content_(std::move(content)),
        dirty_(dirty) {
    column_ = *node_.column();
    const CqlType& type = *node_.table->column(column_).type;
    counter_ = type.kind() == TypeKind::kCounter;
    append_ = (flags & O_APPEND) != 0;
    if (!counter_ && !append_ && (flags & O_TRUNC) == 0) buffer_ = content_;
  }

  // Page-cache readers would share one i_size that a writer's O_TRUNC,
  // its writes and every GETATTR change under them (torn reads).
  bool direct_io() const override { return true; }

  ~CellFile() override {
    if (!created_) return;
    impl_->Unkeep(node_.id);
    // Nothing was stored (touch of an int column): the entry the kernel
    // got from create names nothing.
    if (!ever_stored_) impl_->InvalidateCellName(node_);
  }

  int Read(uint64_t offset, size_t size, std::string* out) override {
    return ReadFrom(dirty_ && !counter_ && !append_ ? buffer_ : content_, offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (refused_ != 0) return -refused_;
    if (Status s = impl_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    uint64_t at = counter_ || append_ ? buffer_.size() : offset;
    if (at > kMaxCellBytes || at + data.size() > kMaxCellBytes) return -Refuse(EFBIG);
    if (!Accepts(at, data)) return -Refuse(EINVAL);
    if (buffer_.size() < at + data.size()) buffer_.resize(at + data.size());
    buffer_.replace(at, data.size(), data);
    dirty_ = true;
    written_ = true;
    return static_cast<ssize_t>(data.size());
  }

  int Truncate() override {
    if (refused_ != 0) return refused_;
    if (counter_ || append_) return 0;  // a delta or an appendix starts empty anyway
    // No empty spelling (int, uuid...): as truncate(2) by path, nothing to
    // cut to, and the kernel must not be told the size is 0.
    if (!IsText(type()) && type().kind() != TypeKind::kBlob) return EINVAL;
    buffer_.clear();
    dirty_ = written_ = true;
    return 0;
  }

  void Discard() override { dirty_ = false; }

  // A truncation with no write yet waits for the release: shells close a
  // duplicate of the descriptor (a flush) before they write through it.
  int Flush() override {
    if (refused_ != 0) return refused_;
    return written_ ? Release() : 0;
  }

  int Release() override {
    if (refused_ != 0) return refused_;
    if (!dirty_) return 0;
    Status s = Store();
    if (!s.ok()) return ErrnoFromStatus(s);
    dirty_ = false;
    ever_stored_ = true;
    if (counter_ || append_) buffer_.clear();  // a second close must not add again
    // Later reads through this handle show what it stored.
    if (stored_) content_ = FormatCellContent(type(), *stored_);
    NodeId plain = node_.id;
    plain.write = {};
    impl_->InvalidateNode(plain);  // its size and mtime changed
    if (!node_.id.write.empty()) {
      impl_->InvalidateNode(node_.id);
      impl_->InvalidateCellName(node_);  // the plain name's timeout follows the new TTL
    }
    if (!node_.id.clustering.empty()) {
      NodeId row = plain;
      row.kind = NodeKind::kRow;
      row.column_id = 0;
      impl_->InvalidateNode(row);  // its mtime is its newest write
    }
    return 0;
  }

 private:
  const CqlType& type() const { return *node_.table->column(column_).type; }

  // Whether writing `data` at `at` leaves a value that is, or may still
  // become, valid. Blobs take anything; text appended to is checked from
  // its last character on (the rest was checked already), so a large text
  // written in pieces costs linear time.
  bool Accepts(uint64_t at, std::string_view data) const {
    if (type().kind() == TypeKind::kBlob && !counter_) return true;
    if (IsText(type()) && at == buffer_.size()) {
      size_t start = buffer_.size();
      for (int i = 0; i < 3 && start > 0 &&
                      (static_cast<unsigned char>(buffer_[start - 1]) & 0xC0) == 0x80;
           ++i) {
        --start;
      }
      if (start > 0) --start;
      return IsValidTextPrefix(type(), buffer_.substr(start) + std::string(data));
    }
    std::string candidate = buffer_;
    if (candidate.size() < at + data.size()) candidate.resize(at + data.size());
    candidate.replace(at, data.size(), data);
    return Valid(candidate);
  }

  bool Valid(std::string_view candidate) const {
    if (counter_) return ParseCounterDelta(candidate).ok();
    if (IsText(type())) return IsValidTextPrefix(type(), candidate);
    if (type().kind() == TypeKind::kBlob) return true;
    return ParseCellContent(type(), candidate).ok() || CouldBecomeValid(type(), candidate);
  }

  // A refused value is dropped whole: the accepted writes before it were
  // only part of it, so nothing of this open file is stored, and its close
  // reports the refusal. Returns `error`.
  int Refuse(int error) {
    refused_ = error;
    dirty_ = false;
    buffer_.clear();
    return error;
  }

  Status Store() {
    stored_.reset();
    Mutation mutation = impl_->engine->NewMutation();
    WriteAttributes attributes = AttributesOf(node_.id.write);
    const auto& pk = node_.id.partition_key;
    const auto& ck = node_.id.clustering;
    Status s;
    if (counter_) {
      Result<int64_t> delta = ParseCounterDelta(buffer_);
      if (!delta.ok()) return delta.status();
      s = mutation.AddToCounter(node_.table, pk, ck, column_, delta.value(), attributes);
    } else {
      Result<std::string> value = ParseCellContent(type(), buffer_);
      if (!value.ok()) return value.status();
      std::string stored = std::move(value).value();
      if (append_) {
        std::lock_guard lock(impl_->AppendLock(node_.id));
        std::optional<RowFragment> row;
        const RowCell* current = CurrentCell(impl_, node_, &row, &s);
        if (!s.ok()) return s;
        Result<std::string> merged =
            IsText(type())
                // A Unix append of file contents: "hello\n" + "world\n".
                ? ParseCellContent(type(), (current ? FormatCellContent(type(), current->cell.value)
                                                    : std::string()) + buffer_)
                : AppendCellValue(type(), current != nullptr, current ? current->cell.value : "",
                                  stored);
        if (!merged.ok()) return merged.status();
        stored = std::move(merged).value();
        // Read, merge and write under the cell's append lock, with a write
        // time taken inside it, so concurrent appends to one cell each keep
        // their elements.
        Mutation append = impl_->engine->NewMutation();
        return Put(std::move(append), std::move(stored), attributes);
      }
      return Put(std::move(mutation), std::move(stored), attributes);
    }
    if (!s.ok()) return s;
    return impl_->Apply(std::move(mutation));
  }

  // Writes `value` to the cell through `mutation` and remembers it.
  Status Put(Mutation mutation, std::string value, const WriteAttributes& attributes) {
    ColumnValue cell{column_, value};
    Status s = mutation.Update(node_.table, node_.id.partition_key, node_.id.clustering,
                               std::span<const ColumnValue>(&cell, 1), attributes);
    if (!s.ok()) return s;
    if (s = impl_->Apply(std::move(mutation)); !s.ok()) return s;
    // With the server's write time the value is surely the cell's new
    // content; an explicit older @timestamp may lose to what is stored.
    if (!attributes.timestamp) stored_ = std::move(value);
    return Status::Ok();
  }

  Filesystem::Impl* impl_;
  Node node_;
  bool created_;
  bool ever_stored_ = false;
  size_t column_ = 0;
  bool counter_ = false;
  bool append_ = false;
  std::string content_;  // what reads show: the value when opened
  std::string buffer_;   // what writes built: the new value, delta or appended text
  bool dirty_;
  bool written_ = false;  // a write() was accepted, or an ftruncate cut the value
  int refused_ = 0;       // the errno of a refused write (0: none)
  std::optional<std::string> stored_;  // the value Store wrote, when surely current
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
  RowJsonFile(Filesystem::Impl* impl, Node row, std::string content)
      : impl_(impl), row_(std::move(row)), content_(std::move(content)) {}

  bool direct_io() const override { return true; }

  int Read(uint64_t offset, size_t size, std::string* out) override {
    return ReadFrom(content_, offset, size, out);
  }

  ssize_t Write(uint64_t offset, std::string_view data) override {
    if (refused_ != 0) return -refused_;
    if (Status s = impl_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    if (offset != buffer_.size()) return -Refuse(EINVAL);  // an object is written front to back
    if (data.size() > kMaxCellBytes - buffer_.size()) return -Refuse(EFBIG);
    bool was_closed = object_.closed();
    if (!object_.Scan(data)) return -Refuse(EINVAL);
    buffer_.append(data);
    if (object_.closed() && !was_closed) {
      // The object is whole: judged once, here, so the write that ends a
      // bad object fails.
      Status s = ParseRowJson(*row_.table, row_.id.partition_key, row_.id.clustering, buffer_,
                              &cells_);
      if (!s.ok()) return -Refuse(ErrnoFromStatus(s));
    }
    return static_cast<ssize_t>(data.size());
  }

  int Flush() override {
    if (refused_ != 0) return refused_;
    if (buffer_.empty()) return 0;
    if (!object_.closed()) return Refuse(EINVAL);  // the object never ended
    buffer_.clear();
    object_ = JsonObjectScanner();
    std::vector<ColumnValue> cells = std::move(cells_);
    cells_.clear();
    if (cells.empty()) return 0;
    Mutation mutation = impl_->engine->NewMutation();
    Status s = mutation.Update(row_.table, row_.id.partition_key, row_.id.clustering, cells);
    if (s.ok()) s = impl_->Apply(std::move(mutation));
    if (!s.ok()) return ErrnoFromStatus(s);
    NodeId dir = row_.id;
    dir.kind = row_.clustered() ? NodeKind::kRow : NodeKind::kPartition;
    dir.file = VirtualName::Kind::kCql;
    dir.directory = NodeKind::kRoot;
    NodeId partition = dir;
    partition.kind = NodeKind::kPartition;
    partition.clustering.clear();
    for (const ColumnValue& cell : cells) {
      // A static column's file lives in the partition directory.
      const bool is_static = row_.table->column(cell.column).kind == ColumnKind::kStatic;
      impl_->InvalidateName(is_static ? partition : dir, ColumnName(*row_.table, cell.column));
    }
    impl_->InvalidateNode(dir);
    return 0;
  }

 private:
  // As CellFile::Refuse: nothing of this open file is stored.
  int Refuse(int error) {
    refused_ = error;
    buffer_.clear();
    cells_.clear();
    return error;
  }

  Filesystem::Impl* impl_;
  Node row_;
  std::string content_;
  std::string buffer_;             // the object written so far
  JsonObjectScanner object_;       // where buffer_ stands in the object
  std::vector<ColumnValue> cells_; // the parsed object, once it closed
  int refused_ = 0;                // the errno of a refused write (0: none)
};

}  // namespace

int OpenFile::ReadFrom(std::string_view content, uint64_t offset, size_t size, std::string* out) {
  return ReadFromImpl(content, offset, size, out);
}

ssize_t OpenFile::Write(uint64_t, std::string_view) { return -EBADF; }
int OpenFile::Flush() { return 0; }
int OpenFile::Release() { return Flush(); }
int OpenFile::Truncate() { return 0; }

std::unique_ptr<OpenFile> NewTextFile(std::string content, bool direct_io) {
  return std::make_unique<TextFile>(std::move(content), direct_io);
}

int OpenCellFile(Filesystem::Impl* impl, const Node& node, int flags, bool created,
                 std::unique_ptr<OpenFile>* out) {
  const CqlType& type = *node.table->column(*node.column()).type;
  if ((flags & O_APPEND) != 0 && type.kind() != TypeKind::kCounter && !CanAppend(type)) return EINVAL;
  // CQL refuses USING TTL and USING TIMESTAMP on counter updates.
  if (type.kind() == TypeKind::kCounter && !node.id.write.empty()) return EINVAL;
  Status s;
  std::optional<RowFragment> row;
  const RowCell* cell = CurrentCell(impl, node, &row, &s);
  if (!s.ok()) return ErrnoFromStatus(s);
  // A cell the kernel still holds but that is gone (deleted elsewhere,
  // expired) can be written again through the inode: the kernel sends no
  // create for a name it believes exists.
  bool writing = (flags & O_ACCMODE) != O_RDONLY;
  if (cell == nullptr && !created && !writing && !impl->IsKept(node.id)) return ENOENT;
  bool fresh = created || cell == nullptr;  // no value yet: truncated in effect
  std::string content = cell ? FormatCellContent(type, cell->cell.value) : "";
  // Truncating text or a blob stores the empty value even with no write;
  // other types have no empty spelling, so only a write stores them.
  bool empty_is_value = IsText(type) || type.kind() == TypeKind::kBlob;
  bool dirty = empty_is_value && (flags & O_ACCMODE) != O_RDONLY &&
               ((flags & O_TRUNC) != 0 || (fresh && (flags & O_APPEND) == 0));
  *out = std::make_unique<CellFile>(impl, node, flags, created, std::move(content), dirty);
  return 0;
}

int OpenRowJsonFile(Filesystem::Impl* impl, const Node& row, std::unique_ptr<OpenFile>* out) {
  ReadView view = impl->engine->NewReadView();
  auto content = view.GetRow(row.table, row.id.partition_key, row.id.clustering);
  if (!content.ok()) return ErrnoFromStatus(content.status());
  std::string text;
  if (content.value()) {
    auto statics = view.GetStaticRow(row.table, row.id.partition_key);
    if (!statics.ok()) return ErrnoFromStatus(statics.status());
    const RowFragment* static_row = statics.value() ? &*statics.value() : nullptr;
    text = RowToJson(*row.table, row.id.partition_key, row.id.clustering, static_row,
                     *content.value()) + "\n";
  }
  *out = std::make_unique<RowJsonFile>(impl, row, std::move(text));
  return 0;
}

}  // namespace cellfs::fs
