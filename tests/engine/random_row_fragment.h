// Random cells and row fragments for property tests of reconciliation and
// merging: small domains, so that ties on every tie-break rule are common.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/store/cell.h"
#include "engine/store/row_fragment.h"

namespace cellfs::testing {

class RandomFragments {
 public:
  explicit RandomFragments(uint32_t seed) : rng_(seed) {}

  int64_t Pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool Coin() { return Pick(0, 1) == 1; }

  // A live, expiring or tombstone cell (never a counter).
  Cell RegularOrTombstone() {
    static const std::vector<std::string> kValues = {
        "", "a", "ab", "b", std::string("\x80", 1), std::string("\0", 1)};
    const int64_t write_time = Pick(1, 4);
    switch (Pick(0, 2)) {
      case 0:
        return Cell::Live(write_time, kValues[static_cast<size_t>(Pick(0, 5))]);
      case 1:
        return Cell::Expiring(write_time, kValues[static_cast<size_t>(Pick(0, 5))],
                              static_cast<uint32_t>(Pick(1, 2)), Pick(10, 11));
      default:
        return Cell::Tombstone(write_time, Pick(10, 11));
    }
  }

  Cell CounterOrTombstone() {
    if (Pick(0, 4) == 0) return Cell::Tombstone(Pick(1, 4), Pick(10, 11));
    return Cell::Counter(Pick(1, 4), Pick(-1'000, 1'000));
  }

  // A normalised fragment over column ids 0..7; counters only if asked.
  RowFragment Fragment(bool counters = false, bool deletions = true) {
    RowFragment fragment;
    if (Coin()) {
      fragment.marker = RowMarker{Pick(1, 4), 0, 0};
      if (Coin()) {
        fragment.marker->ttl = static_cast<uint32_t>(Pick(1, 2));
        fragment.marker->expiry = Pick(10, 11);
      }
    }
    if (deletions && Pick(0, 2) == 0) fragment.deletion = RowDeletion{Pick(1, 4), Pick(10, 11)};
    for (uint32_t id = 0; id < 8; ++id) {
      if (!Coin()) continue;
      fragment.cells.push_back({id, counters ? CounterOrTombstone() : RegularOrTombstone()});
    }
    NormalizeRowFragment(&fragment);
    return fragment;
  }

  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
};

}  // namespace cellfs::testing
