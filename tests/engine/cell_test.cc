// Cells: liveness at an injected time, Cassandra's tie rules for
// reconciliation, the merge laws (property tests), and counters.
#include "engine/store/cell.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/engine/random_row_fragment.h"

namespace cellfs {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kSecond = 1'000'000;

// Checks that `winner` wins over `loser` from both sides.
void CheckWins(const Cell& winner, const Cell& loser) {
  CHECK(Supersedes(winner, loser));
  CHECK_FALSE(Supersedes(loser, winner));
  CHECK(Reconcile(winner, loser) == winner);
  CHECK(Reconcile(loser, winner) == winner);
}

TEST_CASE("cell factories set the kind, times and value", "[cell]") {
  SECTION("live") {
    const Cell c = Cell::Live(7, "v");
    CHECK(c.kind == CellKind::kRegular);
    CHECK(c.write_time == 7);
    CHECK(c.ttl == 0);
    CHECK(c.local_deletion_time == 0);
    CHECK(c.value == "v");
    CHECK_FALSE(c.is_expiring());
  }
  SECTION("expiring") {
    const Cell c = Cell::Expiring(7, "v", 60, 1'000);
    CHECK(c.is_expiring());
    CHECK(c.ttl == 60);
    CHECK(c.local_deletion_time == 1'000);
  }
  SECTION("tombstone") {
    const Cell c = Cell::Tombstone(7, 99);
    CHECK(c.is_tombstone());
    CHECK(c.value.empty());
    CHECK(c.local_deletion_time == 99);
    CHECK_FALSE(c.is_expiring());
  }
  SECTION("counter holds its delta as 8 big-endian bytes") {
    const Cell c = Cell::Counter(7, -2);
    CHECK(c.is_counter());
    CHECK(c.value == std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));
    CHECK(CounterDelta(c) == -2);
  }
}

TEST_CASE("a live cell without TTL is live at every time", "[cell]") {
  const Cell c = Cell::Live(5, "v");
  CHECK(IsLive(c, kMin));
  CHECK(IsLive(c, 0));
  CHECK(IsLive(c, kMax));
  CHECK(IsLive(Cell::Counter(5, 1), kMax));
}

TEST_CASE("a tombstone is never live", "[cell]") {
  CHECK_FALSE(IsLive(Cell::Tombstone(5, 10), kMin));
  CHECK_FALSE(IsLive(Cell::Tombstone(5, 10), 0));
}

TEST_CASE("an expiring cell dies at the first microsecond of its expiry second", "[cell]") {
  const Cell c = Cell::Expiring(0, "v", 100, 100);
  CHECK(IsLive(c, 0));
  CHECK(IsLive(c, 100 * kSecond - 1));
  CHECK_FALSE(IsLive(c, 100 * kSecond));
  CHECK_FALSE(IsLive(c, 100 * kSecond + 1));
  SECTION("negative expiries work the same way") {
    const Cell old = Cell::Expiring(0, "v", 1, -5);
    CHECK(IsLive(old, -5 * kSecond - 1));
    CHECK_FALSE(IsLive(old, -5 * kSecond));
  }
}

TEST_CASE("expiry checks hold at the ends of the int64 range", "[cell]") {
  CHECK(IsBeforeExpiry(kMax, kMax));
  CHECK(IsBeforeExpiry(kMin, kMin / kSecond));
  CHECK_FALSE(IsBeforeExpiry(kMin, kMin));
  CHECK_FALSE(IsBeforeExpiry(kMax, kMax / kSecond));
  CHECK(IsBeforeExpiry(kMax, kMax / kSecond + 1));
  CHECK(IsLive(Cell::Expiring(0, "v", 1, kMax), kMax));
  CHECK_FALSE(IsLive(Cell::Expiring(0, "v", 1, kMin), kMin));
}

TEST_CASE("FloorSeconds rounds toward negative infinity", "[cell]") {
  CHECK(FloorSeconds(0) == 0);
  CHECK(FloorSeconds(999'999) == 0);
  CHECK(FloorSeconds(1'000'000) == 1);
  CHECK(FloorSeconds(-1) == -1);
  CHECK(FloorSeconds(-1'000'000) == -1);
  CHECK(FloorSeconds(-1'000'001) == -2);
  CHECK(FloorSeconds(kMin) == kMin / kSecond - 1);
  CHECK(FloorSeconds(kMax) == kMax / kSecond);
}

struct TieCase {
  const char* rule;
  Cell winner;
  Cell loser;
};

TEST_CASE("reconciliation follows every tie rule in order", "[cell]") {
  const std::vector<TieCase> cases = {
      // 1. The higher write time wins, whatever the kinds.
      {"newer live beats older live", Cell::Live(2, "a"), Cell::Live(1, "z")},
      {"newer live beats older tombstone", Cell::Live(2, "a"), Cell::Tombstone(1, 99)},
      {"newer tombstone beats older live", Cell::Tombstone(2, 0), Cell::Live(1, "z")},
      {"newer live beats older expiring", Cell::Live(2, ""), Cell::Expiring(1, "z", 5, 99)},
      {"write times compare as signed", Cell::Live(1, "a"), Cell::Live(-1, "z")},
      {"extreme write times", Cell::Live(kMax, ""), Cell::Tombstone(kMin, 0)},
      // 2. Tie: tombstone > expiring > live.
      {"tombstone beats live", Cell::Tombstone(5, 0), Cell::Live(5, "z")},
      {"tombstone beats expiring", Cell::Tombstone(5, 0), Cell::Expiring(5, "z", 5, 99)},
      {"expiring beats live with a greater value", Cell::Expiring(5, "a", 5, 1),
       Cell::Live(5, "z")},
      // 3. Then the greater value, unsigned bytes.
      {"greater value", Cell::Live(5, "b"), Cell::Live(5, "a")},
      {"a longer value beats its prefix", Cell::Live(5, "ab"), Cell::Live(5, "a")},
      {"any value beats the empty value", Cell::Live(5, std::string("\0", 1)), Cell::Live(5, "")},
      {"bytes compare unsigned", Cell::Live(5, "\x80"), Cell::Live(5, "\x7f")},
      {"value before expiry", Cell::Expiring(5, "b", 5, 1), Cell::Expiring(5, "a", 5, 99)},
      // 4. Then the later expiry (or deletion time).
      {"later expiry", Cell::Expiring(5, "a", 5, 20), Cell::Expiring(5, "a", 5, 10)},
      {"later deletion time", Cell::Tombstone(5, 20), Cell::Tombstone(5, 10)},
      // 5. Then the greater ttl.
      {"greater ttl", Cell::Expiring(5, "a", 6, 20), Cell::Expiring(5, "a", 5, 20)},
  };
  for (const TieCase& c : cases) {
    INFO(c.rule);
    CheckWins(c.winner, c.loser);
  }
}

TEST_CASE("a cell does not supersede an equal cell", "[cell]") {
  const Cell c = Cell::Expiring(5, "a", 5, 20);
  CHECK_FALSE(Supersedes(c, c));
  CHECK(Reconcile(c, c) == c);
}

TEST_CASE("ReconcileInto leaves the loser unmoved and the winner in place", "[cell]") {
  Cell target = Cell::Live(9, "winner");
  Cell other = Cell::Live(1, "loser");
  ReconcileInto(&target, std::move(other));
  CHECK(target.value == "winner");
  CHECK(other.value == "loser");  // NOLINT: documented not to be moved from
  ReconcileInto(&target, Cell::Live(10, "newer"));
  CHECK(target == Cell::Live(10, "newer"));
}

TEST_CASE("regular reconciliation is commutative, associative and idempotent", "[cell]") {
  testing::RandomFragments random(20240601);
  for (int i = 0; i < 20'000; ++i) {
    const Cell a = random.RegularOrTombstone();
    const Cell b = random.RegularOrTombstone();
    const Cell c = random.RegularOrTombstone();
    CHECK(Reconcile(a, b) == Reconcile(b, a));
    CHECK(Reconcile(Reconcile(a, b), c) == Reconcile(a, Reconcile(b, c)));
    CHECK(Reconcile(a, a) == a);
    const Cell winner = Reconcile(a, b);
    CHECK((winner == a || winner == b));
  }
}

TEST_CASE("Supersedes is a strict total order on distinct cells", "[cell]") {
  testing::RandomFragments random(7);
  for (int i = 0; i < 20'000; ++i) {
    const Cell a = random.RegularOrTombstone();
    const Cell b = random.RegularOrTombstone();
    if (a == b) {
      CHECK_FALSE(Supersedes(a, b));
    } else {
      CHECK(Supersedes(a, b) != Supersedes(b, a));
    }
  }
}

TEST_CASE("counters add their deltas and keep the later write time", "[cell][counter]") {
  SECTION("positive") {
    CHECK(Reconcile(Cell::Counter(1, 2), Cell::Counter(3, 5)) == Cell::Counter(3, 7));
  }
  SECTION("negative") {
    CHECK(Reconcile(Cell::Counter(4, -2), Cell::Counter(3, 5)) == Cell::Counter(4, 3));
  }
  SECTION("an older write time still adds") {
    CHECK(CounterDelta(Reconcile(Cell::Counter(100, 1), Cell::Counter(1, 1))) == 2);
  }
  SECTION("overflow wraps like Java's long") {
    CHECK(CounterDelta(Reconcile(Cell::Counter(1, kMax), Cell::Counter(1, 1))) == kMin);
    CHECK(CounterDelta(Reconcile(Cell::Counter(1, kMin), Cell::Counter(1, -1))) == kMax);
  }
  SECTION("merging a counter write with itself counts it twice") {
    CHECK(CounterDelta(Reconcile(Cell::Counter(1, 5), Cell::Counter(1, 5))) == 10);
  }
}

TEST_CASE("a tombstone beats a counter whatever their write times", "[cell][counter]") {
  const Cell tombstone = Cell::Tombstone(1, 10);
  const Cell counter = Cell::Counter(100, 5);
  CHECK(Reconcile(tombstone, counter) == tombstone);
  CHECK(Reconcile(counter, tombstone) == tombstone);
  SECTION("between tombstones the regular rules apply") {
    CHECK(Reconcile(Cell::Tombstone(2, 1), Cell::Tombstone(1, 9)) == Cell::Tombstone(2, 1));
  }
}

TEST_CASE("counter reconciliation is commutative and associative", "[cell][counter]") {
  testing::RandomFragments random(99);
  for (int i = 0; i < 20'000; ++i) {
    const Cell a = random.CounterOrTombstone();
    const Cell b = random.CounterOrTombstone();
    const Cell c = random.CounterOrTombstone();
    CHECK(Reconcile(a, b) == Reconcile(b, a));
    CHECK(Reconcile(Reconcile(a, b), c) == Reconcile(a, Reconcile(b, c)));
  }
}

TEST_CASE("CounterDelta reads back every delta", "[cell][counter]") {
  for (int64_t delta : {int64_t{0}, int64_t{1}, int64_t{-1}, kMin, kMax, int64_t{1} << 40}) {
    CHECK(CounterDelta(Cell::Counter(0, delta)) == delta);
  }
}

}  // namespace
}  // namespace cellfs
