// Test support: bytes <-> hex text, for expected values and failure messages.
#pragma once

#include <string>
#include <string_view>

namespace cellfs::testing {

// "00 7f" or "007F" -> the bytes 0x00 0x7f; spaces are ignored.
inline std::string FromHex(std::string_view hex) {
  std::string bytes;
  int high = -1;
  for (char c : hex) {
    if (c == ' ') continue;
    const int nibble = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    if (high < 0) {
      high = nibble;
    } else {
      bytes.push_back(static_cast<char>(high * 16 + nibble));
      high = -1;
    }
  }
  return bytes;
}

// Lower-case hex of `bytes`, `separator` between bytes ("007f" or "00 7f").
inline std::string ToHex(std::string_view bytes, std::string_view separator = "") {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (!hex.empty()) hex += separator;
    hex += kDigits[b >> 4];
    hex += kDigits[b & 0xf];
  }
  return hex;
}

}  // namespace cellfs::testing
