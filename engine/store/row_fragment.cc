// Row fragments: reconciliation of markers and deletions, the linear merge
// of sorted cell vectors, liveness, purging, and the byte format
// (docs/FORMAT.md, "Row fragments").
#include "engine/store/row_fragment.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <tuple>
#include <utility>

#include "engine/cql/internal/varint_codec.h"

namespace cellfs {
namespace {

// Header bits of a fragment.
constexpr uint8_t kHasMarker = 0x01;
constexpr uint8_t kMarkerExpiring = 0x02;
constexpr uint8_t kHasDeletion = 0x04;
constexpr uint8_t kHeaderBits = kHasMarker | kMarkerExpiring | kHasDeletion;

// Flag bits of a cell: the kind in bits 0-1, whether it expires, whether
// it is an element cell (a path follows the column id).
constexpr uint8_t kKindMask = 0x03;
constexpr uint8_t kCellExpiring = 0x04;
constexpr uint8_t kCellHasPath = 0x08;
constexpr uint8_t kCellBits = kKindMask | kCellExpiring | kCellHasPath;

// The smallest encoded cell: flags, id, write time, one body byte.
constexpr size_t kMinCellBytes = 4;

bool IsMarkerLive(const RowMarker& marker, int64_t now) {
  return !marker.is_expiring() || IsBeforeExpiry(now, marker.expiry);
}

bool IsShadowed(const std::optional<RowDeletion>& deletion, int64_t write_time) {
  return deletion && Shadows(*deletion, write_time);
}

// Appends `next` to `*cells` unless the empty-path cell of its column
// (already in `*cells`, as it sorts first) shadows it.
void PushUnlessElementShadowed(RowCell&& next, std::vector<RowCell>* cells, uint32_t* head_column,
                               int64_t* shadow_through) {
  if (next.path.empty()) {
    *head_column = next.column_id;
    *shadow_through = ElementShadowThrough(next.cell);
  } else if (*head_column == next.column_id && next.cell.write_time <= *shadow_through) {
    return;
  }
  cells->push_back(std::move(next));
}

// Drops from `*fragment` what its deletion shadows.
void ApplyDeletion(RowFragment* fragment) {
  if (!fragment->deletion) return;
  const RowDeletion& deletion = *fragment->deletion;
  if (fragment->marker && Shadows(deletion, fragment->marker->write_time)) {
    fragment->marker.reset();
  }
  std::erase_if(fragment->cells,
                [&](const RowCell& c) { return Shadows(deletion, c.cell.write_time); });
}

// Purges one cell; false when it is to be dropped.
bool PurgeCell(Cell* cell, int64_t now, int64_t purge_before_s) {
  if (cell->is_expiring() && !IsLive(*cell, now)) {
    // Cassandra turns an expired cell into a tombstone dated at its expiry.
    *cell = Cell::Tombstone(cell->write_time, cell->local_deletion_time);
  }
  return !cell->is_tombstone() || cell->local_deletion_time > purge_before_s;
}

// ---- Encoding helpers. Differences wrap in uint64 so no input overflows.

int64_t WrappingDiff(int64_t value, int64_t reference) {
  return static_cast<int64_t>(static_cast<uint64_t>(value) - static_cast<uint64_t>(reference));
}

int64_t WrappingSum(int64_t delta, int64_t reference) {
  return static_cast<int64_t>(static_cast<uint64_t>(delta) + static_cast<uint64_t>(reference));
}

// The expiry an expiring write made at `write_time` with `ttl` usually has;
// expiries are stored relative to it, so they usually take one byte.
int64_t PredictedExpiry(int64_t write_time, uint32_t ttl) { return FloorSeconds(write_time) + ttl; }

int64_t BaseWriteTime(const RowFragment& fragment) {
  if (fragment.marker) return fragment.marker->write_time;
  if (fragment.deletion) return fragment.deletion->write_time;
  return fragment.cells.empty() ? 0 : fragment.cells.front().cell.write_time;
}

// A cursor writing into a buffer sized beforehand (EncodedSizeBound), so
// encoding a fragment makes no capacity check or call per field.
class ByteWriter {
 public:
  explicit ByteWriter(char* at) : at_(at) {}

  char* position() const { return at_; }
  void Byte(uint8_t value) { *at_++ = static_cast<char>(value); }
  // LEB128, as AppendVarint64 (engine/cql/internal/varint_codec.h).
  void Unsigned(uint64_t value) {
    while (value >= 0x80) {
      *at_++ = static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    *at_++ = static_cast<char>(value);
  }
  void Signed(int64_t value) { Unsigned(ZigZagEncode(value)); }
  void Relative(int64_t value, int64_t reference) { Signed(WrappingDiff(value, reference)); }
  void Bytes(std::string_view bytes) {
    if (bytes.empty()) return;  // memcpy from a null data() is undefined
    std::memcpy(at_, bytes.data(), bytes.size());
    at_ += bytes.size();
  }

 private:
  char* at_;
};

// At least the bytes EncodeRowFragment writes for `fragment`: each varint
// counted at its longest for its width.
size_t EncodedSizeBound(const RowFragment& fragment) {
  constexpr size_t kVarint64 = kMaxVarint64Bytes;
  constexpr size_t kVarint32 = 5;  // column ids and ttls
  // Header, base, marker (time, ttl, expiry), deletion (two times), count.
  size_t bound = 1 + kVarint64 + (2 * kVarint64 + kVarint32) + 2 * kVarint64 + kVarint64;
  for (const RowCell& c : fragment.cells) {
    // Flags, id, path length, time, ttl, expiry (or the counter's delta),
    // value length, then the path and value bytes.
    bound += 1 + kVarint32 + kVarint64 + kVarint64 + kVarint32 + kVarint64 + kVarint64 +
             c.path.size() + c.cell.value.size();
  }
  return bound;
}

void EncodeCell(const RowCell& row_cell, int64_t base, ByteWriter* out) {
  const Cell& cell = row_cell.cell;
  uint8_t flags = static_cast<uint8_t>(cell.kind);
  if (cell.is_expiring()) flags |= kCellExpiring;
  if (!row_cell.path.empty()) flags |= kCellHasPath;
  out->Byte(flags);
  out->Unsigned(row_cell.column_id);
  if (!row_cell.path.empty()) {
    assert(cell.kind != CellKind::kCounter);
    out->Unsigned(row_cell.path.size());
    out->Bytes(row_cell.path);
  }
  out->Relative(cell.write_time, base);
  switch (cell.kind) {
    case CellKind::kRegular:
      assert(cell.ttl <= kMaxTtlSeconds);
      assert(cell.ttl != 0 || cell.local_deletion_time == 0);
      if (cell.is_expiring()) {
        out->Unsigned(cell.ttl);
        out->Relative(cell.local_deletion_time, PredictedExpiry(cell.write_time, cell.ttl));
      }
      out->Unsigned(cell.value.size());
      out->Bytes(cell.value);
      break;
    case CellKind::kTombstone:
      assert(cell.value.empty() && cell.ttl == 0);
      out->Relative(cell.local_deletion_time, FloorSeconds(cell.write_time));
      break;
    case CellKind::kCounter:
      assert(cell.ttl == 0 && cell.local_deletion_time == 0);
      out->Signed(CounterDelta(cell));
      break;
  }
}

// ---- Decoding: a cursor over the input that reports where it failed.

class FragmentReader {
 public:
  explicit FragmentReader(std::string_view bytes) : in_(bytes), size_(bytes.size()) {}

  size_t offset() const { return size_ - in_.size(); }
  size_t remaining() const { return in_.size(); }

  Status Error(std::string_view problem) const {
    return Status::Corruption("row fragment: " + std::string(problem) + " at byte " +
                              std::to_string(offset()) + " of " + std::to_string(size_));
  }

  Status Byte(std::string_view what, uint8_t* value) {
    if (in_.empty()) return Error("truncated " + std::string(what));
    *value = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    return Status::Ok();
  }
  Status Unsigned(std::string_view what, uint64_t* value) {
    if (!ReadVarint64(&in_, value)) return Error("truncated or overlong " + std::string(what));
    return Status::Ok();
  }
  Status Signed(std::string_view what, int64_t* value) {
    if (!ReadSignedVarint64(&in_, value))
      return Error("truncated or overlong " + std::string(what));
    return Status::Ok();
  }
  Status Relative(std::string_view what, int64_t reference, int64_t* value) {
    int64_t delta = 0;
    CELLFS_RETURN_IF_ERROR(Signed(what, &delta));
    *value = WrappingSum(delta, reference);
    return Status::Ok();
  }
  Status Ttl(uint32_t* ttl) {
    uint64_t raw = 0;
    CELLFS_RETURN_IF_ERROR(Unsigned("ttl", &raw));
    if (raw == 0 || raw > kMaxTtlSeconds) {
      return Error("ttl " + std::to_string(raw) + " outside 1.." + std::to_string(kMaxTtlSeconds));
    }
    *ttl = static_cast<uint32_t>(raw);
    return Status::Ok();
  }
  Status Bytes(uint64_t length, std::string* value) {
    if (length > in_.size()) {
      return Error("value length " + std::to_string(length) + " past the end");
    }
    const auto n = static_cast<size_t>(length);
    value->assign(in_.data(), n);
    in_.remove_prefix(n);
    return Status::Ok();
  }

 private:
  std::string_view in_;
  size_t size_;
};

Status DecodeMarker(FragmentReader* reader, uint8_t header, int64_t base, RowMarker* marker) {
  CELLFS_RETURN_IF_ERROR(reader->Relative("marker write time", base, &marker->write_time));
  if ((header & kMarkerExpiring) == 0) return Status::Ok();
  CELLFS_RETURN_IF_ERROR(reader->Ttl(&marker->ttl));
  return reader->Relative("marker expiry", PredictedExpiry(marker->write_time, marker->ttl),
                          &marker->expiry);
}

Status DecodeDeletion(FragmentReader* reader, int64_t base, RowDeletion* deletion) {
  CELLFS_RETURN_IF_ERROR(reader->Relative("deletion write time", base, &deletion->write_time));
  return reader->Relative("deletion time", FloorSeconds(deletion->write_time),
                          &deletion->local_deletion_time);
}

Status DecodeCellBody(FragmentReader* reader, uint8_t flags, Cell* cell) {
  switch (cell->kind) {
    case CellKind::kRegular: {
      if ((flags & kCellExpiring) != 0) {
        CELLFS_RETURN_IF_ERROR(reader->Ttl(&cell->ttl));
        CELLFS_RETURN_IF_ERROR(reader->Relative(
            "expiry", PredictedExpiry(cell->write_time, cell->ttl), &cell->local_deletion_time));
      }
      uint64_t length = 0;
      CELLFS_RETURN_IF_ERROR(reader->Unsigned("value length", &length));
      return reader->Bytes(length, &cell->value);
    }
    case CellKind::kTombstone:
      return reader->Relative("deletion time", FloorSeconds(cell->write_time),
                              &cell->local_deletion_time);
    case CellKind::kCounter: {
      int64_t delta = 0;
      CELLFS_RETURN_IF_ERROR(reader->Signed("counter delta", &delta));
      *cell = Cell::Counter(cell->write_time, delta);
      return Status::Ok();
    }
  }
  return reader->Error("unknown cell kind");
}

// `previous` is the previous cell, or null for the first cell.
Status DecodeCell(FragmentReader* reader, int64_t base, const RowCell* previous,
                  RowCell* row_cell) {
  uint8_t flags = 0;
  CELLFS_RETURN_IF_ERROR(reader->Byte("cell flags", &flags));
  const uint8_t kind = flags & kKindMask;
  if ((flags & ~kCellBits) != 0 || kind > static_cast<uint8_t>(CellKind::kCounter) ||
      ((flags & kCellExpiring) != 0 && kind != static_cast<uint8_t>(CellKind::kRegular)) ||
      ((flags & kCellHasPath) != 0 && kind == static_cast<uint8_t>(CellKind::kCounter))) {
    return reader->Error("bad cell flags " + std::to_string(flags));
  }
  uint64_t id = 0;
  CELLFS_RETURN_IF_ERROR(reader->Unsigned("column id", &id));
  if (id > UINT32_MAX) return reader->Error("column id " + std::to_string(id) + " exceeds 32 bits");
  row_cell->column_id = static_cast<uint32_t>(id);
  row_cell->path.clear();
  if ((flags & kCellHasPath) != 0) {
    uint64_t length = 0;
    CELLFS_RETURN_IF_ERROR(reader->Unsigned("path length", &length));
    if (length == 0) return reader->Error("empty element path");
    CELLFS_RETURN_IF_ERROR(reader->Bytes(length, &row_cell->path));
  }
  if (previous != nullptr && !CellBefore(*previous, *row_cell)) {
    if (previous->column_id == id && !row_cell->path.empty()) {
      return reader->Error("element path of column " + std::to_string(id) +
                           " not after the previous");
    }
    return reader->Error("column id " + std::to_string(id) + " not after " +
                         std::to_string(previous->column_id));
  }
  Cell& cell = row_cell->cell;
  cell = Cell();
  cell.kind = static_cast<CellKind>(kind);
  CELLFS_RETURN_IF_ERROR(reader->Relative("cell write time", base, &cell.write_time));
  return DecodeCellBody(reader, flags, &cell);
}

}  // namespace

int64_t ElementShadowThrough(const Cell& head) {
  switch (head.kind) {
    case CellKind::kTombstone:
      return head.write_time;
    case CellKind::kRegular:
      return head.write_time == INT64_MIN ? INT64_MIN : head.write_time - 1;
    case CellKind::kCounter:
      break;
  }
  return INT64_MIN;
}

const RowCell* RowFragment::FindCell(uint32_t column_id) const {
  auto it = std::lower_bound(cells.begin(), cells.end(), column_id,
                             [](const RowCell& cell, uint32_t id) { return cell.column_id < id; });
  return it != cells.end() && it->column_id == column_id ? &*it : nullptr;
}

RowMarker ReconcileMarkers(const RowMarker& a, const RowMarker& b) {
  const auto key = [](const RowMarker& m) {
    return std::tuple(m.write_time, m.is_expiring(), m.expiry, m.ttl);
  };
  return key(a) >= key(b) ? a : b;
}

RowDeletion ReconcileDeletions(const RowDeletion& a, const RowDeletion& b) {
  const auto key = [](const RowDeletion& d) {
    return std::pair(d.write_time, d.local_deletion_time);
  };
  return key(a) >= key(b) ? a : b;
}

void NormalizeRowFragment(RowFragment* fragment) {
  auto& cells = fragment->cells;
  std::stable_sort(cells.begin(), cells.end(), CellBefore);
  size_t kept = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (kept > 0 && SameCellSlot(cells[kept - 1], cells[i])) {
      ReconcileInto(&cells[kept - 1].cell, std::move(cells[i].cell));
    } else if (kept != i) {
      cells[kept++] = std::move(cells[i]);
    } else {
      ++kept;
    }
  }
  cells.resize(kept);
  std::vector<RowCell> unshadowed;
  unshadowed.reserve(cells.size());
  uint32_t head_column = 0;
  int64_t shadow_through = INT64_MIN;
  for (RowCell& cell : cells) {
    PushUnlessElementShadowed(std::move(cell), &unshadowed, &head_column, &shadow_through);
  }
  cells = std::move(unshadowed);
  ApplyDeletion(fragment);
}

void MergeRowFragmentInto(RowFragment* target, RowFragment&& other) {
  if (other.marker) {
    target->marker =
        target->marker ? ReconcileMarkers(*target->marker, *other.marker) : other.marker;
  }
  if (other.deletion) {
    target->deletion =
        target->deletion ? ReconcileDeletions(*target->deletion, *other.deletion) : other.deletion;
  }
  if (target->marker && IsShadowed(target->deletion, target->marker->write_time)) {
    target->marker.reset();
  }
  std::vector<RowCell> merged;
  merged.reserve(target->cells.size() + other.cells.size());
  auto a = target->cells.begin();
  auto b = other.cells.begin();
  // The empty-path cell of the column being merged: its element cells at or
  // below shadow_through are dropped.
  uint32_t head_column = 0;
  int64_t shadow_through = INT64_MIN;
  while (a != target->cells.end() || b != other.cells.end()) {
    RowCell next;
    if (b == other.cells.end() || (a != target->cells.end() && CellBefore(*a, *b))) {
      next = std::move(*a++);
    } else if (a == target->cells.end() || CellBefore(*b, *a)) {
      next = std::move(*b++);
    } else {
      next = std::move(*a++);
      ReconcileInto(&next.cell, std::move(b++->cell));
    }
    if (IsShadowed(target->deletion, next.cell.write_time)) continue;
    PushUnlessElementShadowed(std::move(next), &merged, &head_column, &shadow_through);
  }
  target->cells = std::move(merged);
}

RowFragment MergeRowFragments(const RowFragment& a, const RowFragment& b) {
  RowFragment result = a;
  MergeRowFragmentInto(&result, RowFragment(b));
  return result;
}

bool IsRowLive(const RowFragment& fragment, int64_t now) {
  if (fragment.marker && !IsShadowed(fragment.deletion, fragment.marker->write_time) &&
      IsMarkerLive(*fragment.marker, now)) {
    return true;
  }
  return std::any_of(fragment.cells.begin(), fragment.cells.end(), [&](const RowCell& c) {
    return IsLive(c.cell, now) && !IsShadowed(fragment.deletion, c.cell.write_time);
  });
}

bool PurgeRowFragment(RowFragment* fragment, int64_t now, uint32_t gc_grace_seconds) {
  ApplyDeletion(fragment);
  // Purgeable: local deletion time + gc_grace <= now_s, i.e. <= this.
  const int64_t purge_before_s = FloorSeconds(now) - gc_grace_seconds;
  if (fragment->marker && !IsMarkerLive(*fragment->marker, now) &&
      fragment->marker->expiry <= purge_before_s) {
    fragment->marker.reset();
  }
  if (fragment->deletion && fragment->deletion->local_deletion_time <= purge_before_s) {
    fragment->deletion.reset();
  }
  auto& cells = fragment->cells;
  size_t kept = 0;
  for (size_t i = 0; i < cells.size(); ++i) {
    // A whole collection value stored before element cells existed stands
    // for a collection deletion at its write time - 1: expired, its
    // tombstone must not shadow the elements written at its write time.
    const bool legacy_head = cells[i].path.empty() && cells[i].cell.is_expiring() &&
                             i + 1 < cells.size() && cells[i + 1].column_id == cells[i].column_id &&
                             !cells[i + 1].path.empty();
    const int64_t head_time = cells[i].cell.write_time;
    if (!PurgeCell(&cells[i].cell, now, purge_before_s)) continue;
    if (legacy_head && cells[i].cell.is_tombstone() && head_time != INT64_MIN) {
      cells[i].cell.write_time = head_time - 1;
    }
    if (kept != i) cells[kept] = std::move(cells[i]);
    ++kept;
  }
  cells.resize(kept);
  return !fragment->empty();
}

void EncodeRowFragment(const RowFragment& fragment, std::string* out) {
  uint8_t header = 0;
  if (fragment.marker) header |= kHasMarker;
  if (fragment.marker && fragment.marker->is_expiring()) header |= kMarkerExpiring;
  if (fragment.deletion) header |= kHasDeletion;
  // Sized once for the longest encoding, written through a pointer, cut to
  // what was written.
  const size_t start = out->size();
  out->resize(start + EncodedSizeBound(fragment));
  ByteWriter writer(out->data() + start);
  writer.Byte(header);
  const int64_t base = BaseWriteTime(fragment);
  writer.Signed(base);
  if (const auto& m = fragment.marker) {
    writer.Relative(m->write_time, base);
    if (m->is_expiring()) {
      assert(m->ttl <= kMaxTtlSeconds);
      writer.Unsigned(m->ttl);
      writer.Relative(m->expiry, PredictedExpiry(m->write_time, m->ttl));
    }
  }
  if (const auto& d = fragment.deletion) {
    writer.Relative(d->write_time, base);
    writer.Relative(d->local_deletion_time, FloorSeconds(d->write_time));
  }
  writer.Unsigned(fragment.cells.size());
  for (size_t i = 0; i < fragment.cells.size(); ++i) {
    assert(i == 0 || CellBefore(fragment.cells[i - 1], fragment.cells[i]));
    EncodeCell(fragment.cells[i], base, &writer);
  }
  out->resize(static_cast<size_t>(writer.position() - out->data()));
}

Status DecodeRowFragment(std::string_view bytes, RowFragment* fragment) {
  FragmentReader reader(bytes);
  uint8_t header = 0;
  CELLFS_RETURN_IF_ERROR(reader.Byte("header", &header));
  if ((header & ~kHeaderBits) != 0 ||
      ((header & kMarkerExpiring) != 0 && (header & kHasMarker) == 0)) {
    return Status::Corruption("row fragment: bad header flags " + std::to_string(header));
  }
  int64_t base = 0;
  CELLFS_RETURN_IF_ERROR(reader.Signed("base write time", &base));
  fragment->marker.reset();
  fragment->deletion.reset();
  // Cells are overwritten in place (not cleared), so a fragment decoded
  // into again and again reuses its value strings' memory.
  if ((header & kHasMarker) != 0) {
    CELLFS_RETURN_IF_ERROR(DecodeMarker(&reader, header, base, &fragment->marker.emplace()));
  }
  if ((header & kHasDeletion) != 0) {
    CELLFS_RETURN_IF_ERROR(DecodeDeletion(&reader, base, &fragment->deletion.emplace()));
  }
  uint64_t count = 0;
  CELLFS_RETURN_IF_ERROR(reader.Unsigned("cell count", &count));
  if (count > reader.remaining() / kMinCellBytes) {
    return reader.Error("cell count " + std::to_string(count) + " past the end");
  }
  fragment->cells.resize(static_cast<size_t>(count));
  for (size_t i = 0; i < fragment->cells.size(); ++i) {
    const RowCell* previous = i == 0 ? nullptr : &fragment->cells[i - 1];
    CELLFS_RETURN_IF_ERROR(DecodeCell(&reader, base, previous, &fragment->cells[i]));
  }
  if (reader.remaining() != 0) {
    return reader.Error(std::to_string(reader.remaining()) + " trailing bytes");
  }
  return Status::Ok();
}

Status MergeEncodedRowFragments(std::span<const std::string_view> encoded, RowFragment* merged) {
  *merged = RowFragment();
  RowFragment next;
  for (size_t i = 0; i < encoded.size(); ++i) {
    Status status = DecodeRowFragment(encoded[i], &next);
    if (!status.ok()) return status.WithContext("fragment " + std::to_string(i));
    // The merge drops whatever the merged deletion shadows, including cells
    // a stored fragment's own deletion shadows.
    MergeRowFragmentInto(merged, std::move(next));
  }
  return Status::Ok();
}

}  // namespace cellfs
