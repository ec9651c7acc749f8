// A forward-only reader over literal text: the fixed-layout grammars of the
// temporal and duration literals are scanned with it. Internal to engine/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/cql/internal/decimal_digits.h"

namespace cellfs {

// Reads a string_view front to back; never copies. A failed Consume or
// FixedDigits leaves the position unchanged. Not thread-safe (a value type
// used on one thread).
class TextScanner {
 public:
  explicit TextScanner(std::string_view text) : rest_(text) {}

  bool AtEnd() const { return rest_.empty(); }
  // The next character, or '\0' at the end.
  char Peek() const { return rest_.empty() ? '\0' : rest_[0]; }
  // What is left to read.
  std::string_view rest() const { return rest_; }

  // Consumes `c` if it comes next.
  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    rest_.remove_prefix(1);
    return true;
  }

  // REQUIRES: count <= rest().size()
  void Skip(size_t count) { rest_.remove_prefix(count); }

  // Exactly `count` digits into *value; false (nothing consumed, *value
  // untouched) otherwise.
  bool FixedDigits(size_t count, int64_t* value) {
    if (rest_.size() < count) return false;
    int64_t v = 0;
    for (size_t i = 0; i < count; ++i) {
      if (!IsDigit(rest_[i])) return false;
      v = v * 10 + (rest_[i] - '0');
    }
    rest_.remove_prefix(count);
    *value = v;
    return true;
  }

  // The longest run of digits (possibly empty), consumed.
  std::string_view Digits() {
    size_t n = 0;
    while (n < rest_.size() && IsDigit(rest_[n])) ++n;
    std::string_view digits = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return digits;
  }

 private:
  std::string_view rest_;
};

}  // namespace cellfs
