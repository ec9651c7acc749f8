// Element files: the open files of element names (`tags@remove`,
// `l@prepend`, `m@key=k`, `l@index=2`, `u@field=f`), which store one CQL
// element operation at each close, and the removal of an element name
// (docs/FILESYSTEM.md "Collections").
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "engine/cql/collection_codec.h"
#include "fs/files/open_file.h"
#include "fs/formats/cell_text.h"
#include "fs/formats/element_suffix.h"
#include "fs/tree/errno_map.h"
#include "fs/tree/refusal_log.h"

namespace cellfs::fs {
namespace {

constexpr size_t kMaxElementBytes = 64u << 20;  // as a cell's value

// The edit `node`'s element name means for its column's current type.
Status EditOf(const Node& node, ElementEdit* edit) {
  return ParseElementEdit(*node.table->column(*node.column()).type, node.id.element, edit);
}

Result<std::vector<RowCell>> ListElements(FileContext* context, const Node& node) {
  auto partition = node.Partition();
  if (!partition.ok()) return partition.status();
  return context->engine->NewReadView().GetElements(
      node.table, *partition.value(), node.id.clustering, node.table->column_ids[*node.column()]);
}

// The stored path of the list element at `index`, as l[index] finds it.
Result<std::string> ListPathAt(FileContext* context, const Node& node, uint64_t index) {
  auto elements = ListElements(context, node);
  if (!elements.ok()) return elements.status();
  if (index >= elements.value().size()) {
    return Status::InvalidArgument("List index " + std::to_string(index) +
                                   " out of bound, list has size " +
                                   std::to_string(elements.value().size()));
  }
  return std::move(elements.value()[index].path);
}

// Applies `edit` with `value` (nullopt: the element's deletion) to `node`.
Status ApplyEdit(FileContext* context, const Node& node, const ElementEdit& edit,
                 const std::optional<std::string>& value) {
  const auto& pk = node.id.partition_key;
  const auto& ck = node.id.clustering;
  const size_t column = *node.column();
  const WriteAttributes& attributes = node.id.write;
  const CqlType& type = *node.table->column(column).type;
  Mutation mutation = context->engine->NewMutation();
  Status s;
  switch (edit.kind) {
    case ElementEdit::Kind::kRemove:
      if (!value)
        return Status::InvalidArgument(
            "@remove takes the elements to remove; rm the column to delete it");
      if (type.kind() != TypeKind::kList) {
        s = mutation.RemoveElements(node.table, pk, ck, column, *value, attributes);
        break;
      } else {
        // l = l - [...]: every element equal to one given, found by a read.
        std::vector<std::string_view> removed;
        CELLFS_RETURN_IF_ERROR(UnpackCollection(*value, 1, &removed));
        auto elements = ListElements(context, node);
        if (!elements.ok()) return elements.status();
        for (const RowCell& element : elements.value()) {
          if (std::find(removed.begin(), removed.end(), element.cell.value) == removed.end())
            continue;
          s = mutation.SetElementAt(node.table, pk, ck, column, element.path, std::nullopt,
                                    attributes);
          if (!s.ok()) return s;
        }
        if (mutation.empty()) return Status::Ok();
      }
      break;
    case ElementEdit::Kind::kPrepend:
      if (!value) return Status::InvalidArgument("@prepend takes the elements to prepend");
      s = mutation.PrependElements(node.table, pk, ck, column, *value, attributes);
      break;
    case ElementEdit::Kind::kKey:
    case ElementEdit::Kind::kField:
      s = mutation.SetElement(node.table, pk, ck, column, edit.key, value, attributes);
      break;
    case ElementEdit::Kind::kIndex: {
      Result<std::string> path = ListPathAt(context, node, edit.index);
      if (!path.ok()) return path.status();
      s = mutation.SetElementAt(node.table, pk, ck, column, path.value(), value, attributes);
      break;
    }
  }
  if (!s.ok()) return s;
  return context->Apply(std::move(mutation));
}

// The kernel's view of the column's file and of this name changed.
void InvalidateAfterEdit(FileContext* context, const Node& node) {
  context->InvalidateCell(node);  // the name first: the cell may be gone
  context->InvalidateNode(node.id);
}

class ElementFile final : public OpenFile {
 public:
  ElementFile(FileContext* context, Node node, bool created, ElementEdit edit)
      : context_(context), node_(std::move(node)), created_(created), edit_(std::move(edit)) {}

  ~ElementFile() override {
    if (created_) context_->Unkeep(node_.id);
  }

  bool direct_io() const override { return true; }

  // An element name is write-only in effect: it reads as empty.
  int Read(uint64_t, size_t, std::string* out) override {
    out->clear();
    return 0;
  }

  ssize_t Write(uint64_t, std::string_view data) override {
    if (refused_ != 0) return -refused_;
    if (Status s = context_->CheckWritable(); !s.ok()) return -ErrnoFromStatus(s);
    if (buffer_.size() + data.size() > kMaxElementBytes) return -Refuse(EFBIG);
    buffer_.append(data);
    if (!Acceptable()) return -Refuse(EINVAL);
    dirty_ = true;
    return static_cast<ssize_t>(data.size());
  }

  int Truncate(uint64_t size) override {
    if (size != 0)
      return fs::Refuse(EINVAL, "an element name takes one element: only truncation to 0");
    buffer_.clear();
    return 0;
  }

  int Flush() override {
    if (refused_ != 0) return refused_;
    if (!dirty_) return 0;
    Result<std::string> value = ParseCellContent(*edit_.value_type, buffer_);
    if (!value.ok()) return Refuse(ErrnoFromStatus(value.status()));
    if (Status s = ApplyEdit(context_, node_, edit_, value.value()); !s.ok()) {
      return Refuse(ErrnoFromStatus(s));
    }
    dirty_ = false;
    buffer_.clear();
    InvalidateAfterEdit(context_, node_);
    return 0;
  }

 private:
  // Whether the buffer is, or may still become, a value of the edit's type.
  bool Acceptable() const {
    const CqlType& type = *edit_.value_type;
    if (type.kind() == TypeKind::kBlob) return true;
    if (type.kind() == TypeKind::kText || type.kind() == TypeKind::kAscii) {
      return IsValidTextPrefix(type, buffer_);
    }
    return ParseCellContent(type, buffer_).ok() || CouldBecomeValid(type, buffer_);
  }

  int Refuse(int error) {
    refused_ = error;
    dirty_ = false;
    buffer_.clear();
    return error;
  }

  FileContext* context_;
  Node node_;
  bool created_;
  ElementEdit edit_;
  std::string buffer_;  // the value written since the last store
  bool dirty_ = false;
  int refused_ = 0;
};

}  // namespace

int OpenElementFile(FileContext* context, const Node& node, int flags, bool created,
                    std::unique_ptr<OpenFile>* out) {
  if ((flags & O_ACCMODE) == O_RDONLY) return EACCES;  // nothing to read
  ElementEdit edit;
  if (Status s = EditOf(node, &edit); !s.ok()) return ErrnoFromStatus(s);
  if (edit.kind == ElementEdit::Kind::kIndex) {
    // An index past the end fails the open, where a shell reports it (the
    // close checks again: the list may shrink meanwhile).
    Result<std::string> path = ListPathAt(context, node, edit.index);
    if (!path.ok()) return ErrnoFromStatus(path.status());
  }
  *out = std::make_unique<ElementFile>(context, node, created, std::move(edit));
  return 0;
}

Status RemoveElementName(FileContext* context, const Node& node) {
  ElementEdit edit;
  CELLFS_RETURN_IF_ERROR(EditOf(node, &edit));
  if (edit.kind == ElementEdit::Kind::kRemove || edit.kind == ElementEdit::Kind::kPrepend) {
    return Status::InvalidArgument(node.id.element + " names no element to remove");
  }
  CELLFS_RETURN_IF_ERROR(ApplyEdit(context, node, edit, std::nullopt));
  InvalidateAfterEdit(context, node);
  return Status::Ok();
}

}  // namespace cellfs::fs
