// The open-file kinds of fs/open_file.h.
#include "fs/open_file.h"

#include <fcntl.h>

#include <cerrno>

#include "fs/cell_text.h"
#include "fs/errno_map.h"
#include "fs/row_json.h"

namespace cellfs::fs {
namespace {

// The largest value one write of a cell may build (a CQL value may hold up
// to 2 GB; a file this size is surely a mistake).
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
  CellFile(Filesystem::Impl* impl, Node node, uint64_t inode, int64_t version, int flags,
           bool created, std::string content, bool dirty)
      : impl_(impl), node_(std::move(node)), inode_(inode), version_(version), created_(created),
        content_(std::move(content)), dirty_(dirty) {
    column_ = *node_.column();
    const CqlType& type = *node_.table->column(column_).type;
    counter_ = type.kind() == TypeKind::kCounter;
    append_ = (flags & O_APPEND) != 0;
    if (!counter_ && !append_ && (flags & O_TRUNC) == 0) buffer_ = content_;
  }

  ~CellFile() override {
    impl_->ClosedVersion(inode_, version_);
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
    if (Status s = impl_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    uint64_t at = counter_ || append_ ? buffer_.size() : offset;
    if (at > kMaxCellBytes || at + data.size() > kMaxCellBytes) return -EFBIG;
    if (!Accepts(at, data)) {
      // Nothing is stored for a refused value, not even the truncation.
      if (!written_) dirty_ = false;
      return -EINVAL;
    }
    if (buffer_.size() < at + data.size()) buffer_.resize(at + data.size());
    buffer_.replace(at, data.size(), data);
    dirty_ = true;
    written_ = true;
    return static_cast<ssize_t>(data.size());
  }

  int Truncate() override {
    if (counter_ || append_) return 0;  // a delta or an appendix starts empty anyway
    buffer_.clear();
    dirty_ = written_ = IsText(type()) || type().kind() == TypeKind::kBlob;
    return 0;
  }

  void Discard() override { dirty_ = false; }

  // A truncation with no write yet waits for the release: shells close a
  // duplicate of the descriptor (a flush) before they write through it.
  int Flush() override { return written_ ? Release() : 0; }

  int Release() override {
    if (!dirty_) return 0;
    Status s = Store();
    if (!s.ok()) return ErrnoFromStatus(s);
    dirty_ = false;
    ever_stored_ = true;
    if (counter_ || append_) buffer_.clear();  // a second close must not add again
    NodeId plain = node_.id;
    plain.write = {};
    if (stored_) {
      // This handle now shows the stored value too, so its reads cannot put
      // an older one back into the kernel's cache.
      content_ = FormatCellContent(type(), stored_->value);
      impl_->ChangeVersion(inode_, version_, stored_->write_time);
      version_ = stored_->write_time;
      impl_->StoreContent(plain, content_, stored_->write_time);
    } else {
      impl_->InvalidateNode(plain);
    }
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

  // What Store wrote, when it is surely the cell's new content: a value
  // (not a counter delta) with the server's write time (an explicit older
  // @timestamp may lose to what is stored).
  struct Stored {
    std::string value;
    int64_t write_time = 0;
  };

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
    int64_t write_time = mutation.write_time();
    if (s = impl_->Apply(std::move(mutation)); !s.ok()) return s;
    if (!attributes.timestamp) stored_ = Stored{std::move(value), write_time};
    return Status::Ok();
  }

  Filesystem::Impl* impl_;
  Node node_;
  uint64_t inode_;
  int64_t version_;  // the write time of content_ (0: none), as Impl counts open versions
  bool created_;
  bool ever_stored_ = false;
  size_t column_ = 0;
  bool counter_ = false;
  bool append_ = false;
  std::string content_;  // what reads show: the value when opened
  std::string buffer_;   // what writes built: the new value, delta or appended text
  bool dirty_;
  bool written_ = false;  // a write() was accepted
  std::optional<Stored> stored_;
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
    if (Status s = impl_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    if (offset != buffer_.size()) return -EINVAL;  // an object is written front to back
    buffer_.append(data);
    std::vector<ColumnValue> cells;
    Status s = ParseRowJson(*row_.table, row_.id.partition_key, row_.id.clustering, buffer_, &cells);
    if (!s.ok() && !IncompleteJson(buffer_)) {
      buffer_.resize(buffer_.size() - data.size());
      return -EINVAL;
    }
    return static_cast<ssize_t>(data.size());
  }

  int Flush() override {
    if (buffer_.empty()) return 0;
    std::vector<ColumnValue> cells;
    Status s = ParseRowJson(*row_.table, row_.id.partition_key, row_.id.clustering, buffer_, &cells);
    buffer_.clear();
    if (s.ok() && !cells.empty()) {
      Mutation mutation = impl_->engine->NewMutation();
      s = mutation.Update(row_.table, row_.id.partition_key, row_.id.clustering, cells);
      if (s.ok()) s = impl_->Apply(std::move(mutation));
    }
    if (!s.ok()) return ErrnoFromStatus(s);
    NodeId dir = row_.id;
    dir.kind = row_.clustered() ? NodeKind::kRow : NodeKind::kPartition;
    dir.file = VirtualName::Kind::kCql;
    dir.directory = NodeKind::kRoot;
    for (const ColumnValue& cell : cells) impl_->InvalidateName(dir, ColumnName(*row_.table, cell.column));
    impl_->InvalidateNode(dir);
    return 0;
  }

 private:
  // Whether `text` could still become one JSON object with more bytes: a
  // write may end mid-object, and only the whole is checked at flush.
  static bool IncompleteJson(std::string_view text);

  Filesystem::Impl* impl_;
  Node row_;
  std::string content_;
  std::string buffer_;
};

bool RowJsonFile::IncompleteJson(std::string_view text) {
  // Outside strings, count open braces/brackets; an object still open (or
  // a string still open) may be completed by later writes.
  int depth = 0;
  bool in_string = false, escaped = false, started = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') {
      ++depth;
      started = true;
    }
    if (c == '}' || c == ']') --depth;
    if (depth < 0) return false;
    if (started && depth == 0) return false;  // closed: the whole is judged now
  }
  return !started || depth > 0 || in_string;
}

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

int OpenCellFile(Filesystem::Impl* impl, const Node& node, uint64_t inode, int flags,
                 bool created, std::unique_ptr<OpenFile>* out, bool* keep_cache) {
  const CqlType& type = *node.table->column(*node.column()).type;
  if ((flags & O_APPEND) != 0 && type.kind() != TypeKind::kCounter && !CanAppend(type)) return EINVAL;
  if (type.kind() == TypeKind::kCounter && node.id.write.ttl) return EINVAL;  // as CQL refuses it
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
  int64_t version = cell ? cell->cell.write_time : 0;
  *keep_cache = impl->OpenedVersion(inode, version);
  std::string content = cell ? FormatCellContent(type, cell->cell.value) : "";
  // Truncating text or a blob stores the empty value even with no write;
  // other types have no empty spelling, so only a write stores them.
  bool empty_is_value = IsText(type) || type.kind() == TypeKind::kBlob;
  bool dirty = empty_is_value && (flags & O_ACCMODE) != O_RDONLY &&
               ((flags & O_TRUNC) != 0 || (fresh && (flags & O_APPEND) == 0));
  *out = std::make_unique<CellFile>(impl, node, inode, version, flags, created,
                                    std::move(content), dirty);
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
