// Strict UTF-8 validation, one well-formed sequence at a time.
#include "engine/cql/internal/utf8.h"

#include <cstdint>
#include <cstring>

namespace cellfs {
namespace {

unsigned char Byte(std::string_view s, size_t i) { return static_cast<unsigned char>(s[i]); }

// The length of the well-formed sequence starting at `i`, or 0 when the
// bytes there are ill-formed. The second byte's allowed range is what rules
// out overlong forms, surrogates and code points beyond U+10FFFF.
size_t SequenceLength(std::string_view s, size_t i) {
  const unsigned char lead = Byte(s, i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // below: overlong
    if (lead == 0xED) high = 0x9F;  // above: surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // below: overlong
    if (lead == 0xF4) high = 0x8F;  // above: beyond U+10FFFF
  } else {
    return 0;  // continuation byte, C0/C1 overlong leads, F5..FF
  }
  if (s.size() - i < length) return 0;
  const unsigned char second = Byte(s, i + 1);
  if (second < low || second > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((Byte(s, i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

size_t FindInvalidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // Eight ASCII bytes at a time: most text is ASCII.
    if (text.size() - i >= 8) {
      uint64_t word = 0;
      std::memcpy(&word, text.data() + i, sizeof word);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    const size_t length = SequenceLength(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

}  // namespace cellfs
