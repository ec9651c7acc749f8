// Runs of ASCII decimal digits: the lexical pieces shared by the numeric and
// temporal literal parsers. Internal to engine/.
#pragma once

#include <cstdint>
#include <string_view>

namespace cellfs {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// True for a non-empty run of digits and nothing else.
inline bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// An optional '+' or '-' followed by AllDigits.
inline bool IsSignedDigits(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return AllDigits(text);
}

// The value of a run of digits into `*value`; false (and `*value` untouched)
// when it exceeds `limit`. REQUIRES: AllDigits(digits) or digits empty (0).
inline bool DigitsUpTo(std::string_view digits, uint64_t limit, uint64_t* value) {
  uint64_t v = 0;
  for (char c : digits) {
    const auto d = static_cast<uint64_t>(c - '0');
    if (d > limit || v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *value = v;
  return true;
}

}  // namespace cellfs
