// Cell: one column's value in one row, with its write time, optional TTL and
// Cassandra's rules for liveness and for reconciling two versions of a cell.
#pragma once

#include <cstdint>
#include <string>

namespace cellfs {

// CQL's bound on a TTL, in seconds (20 years).
inline constexpr uint32_t kMaxTtlSeconds = 630'720'000;

enum class CellKind : uint8_t {
  kRegular,    // a value, possibly expiring (ttl > 0)
  kTombstone,  // a deletion; no value
  kCounter,    // an int64 delta, 8 bytes big-endian in `value`
};

// A Cell is a plain value type. Times come from the caller (an injected
// clock), never from the real clock. Thread-compatible.
//
// Invariants (asserted by the encoder; the decoder only produces cells that
// hold them):
//   kRegular:   ttl == 0 && local_deletion_time == 0 (live forever), or
//               1 <= ttl <= kMaxTtlSeconds, local_deletion_time = expiry.
//   kTombstone: value empty, ttl == 0, local_deletion_time = when deleted.
//   kCounter:   value is 8 bytes, ttl == 0, local_deletion_time == 0.
struct Cell {
  int64_t write_time = 0;  // microseconds since the epoch; last write wins
  // Seconds since the epoch: for an expiring cell, when it expires; for a
  // tombstone, when the deletion happened (it is purgeable gc_grace after).
  // Cassandra calls both "local deletion time".
  int64_t local_deletion_time = 0;
  uint32_t ttl = 0;  // the original TTL in seconds; 0 = no TTL
  CellKind kind = CellKind::kRegular;
  std::string value;

  static Cell Live(int64_t write_time, std::string value);
  // REQUIRES: 1 <= ttl <= kMaxTtlSeconds. `expiry` is in seconds.
  static Cell Expiring(int64_t write_time, std::string value, uint32_t ttl, int64_t expiry);
  static Cell Tombstone(int64_t write_time, int64_t local_deletion_time);
  static Cell Counter(int64_t write_time, int64_t delta);

  bool is_tombstone() const { return kind == CellKind::kTombstone; }
  bool is_counter() const { return kind == CellKind::kCounter; }
  bool is_expiring() const { return kind == CellKind::kRegular && ttl != 0; }

  friend bool operator==(const Cell&, const Cell&) = default;
};

// floor(micros / 1e6): the second that `micros` falls in, also for negative
// times.
int64_t FloorSeconds(int64_t micros);

// True when `now` (microseconds) is before `expiry` (seconds): something
// expiring at E is dead from now = E * 1'000'000 on. Computed as
// FloorSeconds(now) < expiry, which is equivalent and cannot overflow.
bool IsBeforeExpiry(int64_t now, int64_t expiry);

// True when `cell` is live at `now` (microseconds): not a tombstone, and
// either not expiring or IsBeforeExpiry(now, its expiry).
bool IsLive(const Cell& cell, int64_t now);

// The delta of a counter cell. REQUIRES: cell.is_counter()
int64_t CounterDelta(const Cell& cell);

// True when `a` wins over `b` under the regular (non-counter) rules, a total
// order on cells, so reconciliation is commutative and associative:
//   1. the higher write_time;
//   2. on a tie, tombstone > expiring > live (non-expiring);
//   3. then the greater value, as unsigned bytes;
//   4. then the later local_deletion_time (expiry, or deletion time);
//   5. then the greater ttl.
// Equal under all five means the cells are equal.
bool Supersedes(const Cell& a, const Cell& b);

// Merges `other` into `*target`, leaving the reconciled cell in `*target`.
// Regular cells: the one that Supersedes the other. Counters: two counters
// add (wrapping on int64 overflow, like Java's long) and keep the later
// write time; a tombstone beats a counter whatever their write times, as in
// Cassandra (CASSANDRA-7346). Mixing a counter with a regular live cell in
// one column is a schema violation: the result is deterministic (counted as
// a live cell) but not associative.
//
// Commutative and associative; idempotent for everything but counters, whose
// deltas add: the same counter write must never be merged in twice.
// Moves from `other` only when it wins; no allocation otherwise.
void ReconcileInto(Cell* target, Cell&& other);

// The reconciled cell, by value. See ReconcileInto.
Cell Reconcile(const Cell& a, const Cell& b);

}  // namespace cellfs
