// Cell liveness and reconciliation: Cassandra's last-write-wins rules.
#include "engine/store/cell.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "engine/cql/big_endian.h"

namespace cellfs {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;

// Tie-break rank among cells of equal write time: tombstone > expiring > live.
int Rank(const Cell& cell) {
  if (cell.is_tombstone()) return 2;
  return cell.is_expiring() ? 1 : 0;
}

// Writes `value` over the 8 bytes of a counter cell, in place.
void StoreDelta(int64_t value, std::string* bytes) {
  auto bits = static_cast<uint64_t>(value);
  for (size_t i = 8; i-- > 0; bits >>= 8) (*bytes)[i] = static_cast<char>(bits & 0xff);
}

int64_t AddWrapping(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

}  // namespace

Cell Cell::Live(int64_t write_time, std::string value) {
  Cell cell;
  cell.write_time = write_time;
  cell.value = std::move(value);
  return cell;
}

Cell Cell::Expiring(int64_t write_time, std::string value, uint32_t ttl, int64_t expiry) {
  assert(ttl >= 1 && ttl <= kMaxTtlSeconds);
  Cell cell = Live(write_time, std::move(value));
  cell.ttl = ttl;
  cell.local_deletion_time = expiry;
  return cell;
}

Cell Cell::Tombstone(int64_t write_time, int64_t local_deletion_time) {
  Cell cell;
  cell.write_time = write_time;
  cell.local_deletion_time = local_deletion_time;
  cell.kind = CellKind::kTombstone;
  return cell;
}

Cell Cell::Counter(int64_t write_time, int64_t delta) {
  Cell cell;
  cell.write_time = write_time;
  cell.kind = CellKind::kCounter;
  cell.value = BigEndianBytes(static_cast<uint64_t>(delta), 8);
  return cell;
}

int64_t FloorSeconds(int64_t micros) {
  int64_t seconds = micros / kMicrosPerSecond;
  if (micros % kMicrosPerSecond < 0) --seconds;
  return seconds;
}

bool IsBeforeExpiry(int64_t now, int64_t expiry) { return FloorSeconds(now) < expiry; }

bool IsLive(const Cell& cell, int64_t now) {
  if (cell.is_tombstone()) return false;
  return !cell.is_expiring() || IsBeforeExpiry(now, cell.local_deletion_time);
}

int64_t CounterDelta(const Cell& cell) {
  assert(cell.is_counter() && cell.value.size() == 8);
  return static_cast<int64_t>(ReadBigEndian(cell.value));
}

bool Supersedes(const Cell& a, const Cell& b) {
  if (a.write_time != b.write_time) return a.write_time > b.write_time;
  if (Rank(a) != Rank(b)) return Rank(a) > Rank(b);
  // std::char_traits<char> compares as unsigned char, so this is byte order.
  if (const int c = a.value.compare(b.value); c != 0) return c > 0;
  if (a.local_deletion_time != b.local_deletion_time) {
    return a.local_deletion_time > b.local_deletion_time;
  }
  return a.ttl > b.ttl;
}

void ReconcileInto(Cell* target, Cell&& other) {
  if (target->is_counter() && other.is_counter()) {
    const int64_t sum = AddWrapping(CounterDelta(*target), CounterDelta(other));
    target->write_time = std::max(target->write_time, other.write_time);
    StoreDelta(sum, &target->value);
    return;
  }
  // A tombstone always beats a counter; its own write time is irrelevant.
  if (target->is_counter() && other.is_tombstone()) {
    *target = std::move(other);
    return;
  }
  if (other.is_counter() && target->is_tombstone()) return;
  if (Supersedes(other, *target)) *target = std::move(other);
}

Cell Reconcile(const Cell& a, const Cell& b) {
  Cell result = a;
  ReconcileInto(&result, Cell(b));
  return result;
}

}  // namespace cellfs
