// Small helpers the engine-level benchmarks share: a steady clock's elapsed
// seconds, the median of a sample, exit-on-error, big-endian key bytes.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/status.h"

namespace cellfs::bench {

using Clock = std::chrono::steady_clock;

inline double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// The median (the upper one of an even sample). REQUIRES: !v.empty().
inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Exits with the status's message when it is not ok: a benchmark that
// failed to write or read measured nothing.
inline void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

// `v` as `width` big-endian bytes (a bigint or int key's serialized value).
inline std::string BigEndian(uint64_t v, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

}  // namespace cellfs::bench
