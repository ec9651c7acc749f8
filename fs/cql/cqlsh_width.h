// Display width of text as cqlsh measures it, to align its result tables:
// the wcwidth that cqlsh bundles (pylib/cqlshlib/wcwidth.py, Markus Kuhn's
// mk_wcwidth, free to use, with its Unicode 5.0 tables), not the C
// library's wcwidth(3), whose answer depends on the locale and on a newer
// Unicode (emoji, for one, are 2 columns there and 1 in cqlsh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cellfs::fs {

// The columns code point `c` takes, by cqlsh's rules:
//   U+0000: 0; other C0/C1 controls and DEL (< U+0020, U+007F..U+009F): -1;
//   non-spacing and enclosing marks, format characters (Cf) other than
//   U+00AD, U+200B and the Hangul Jamo medial vowels and final consonants
//   (U+1160..U+11FF): 0;
//   East Asian Wide and Fullwidth (U+1100..U+115F, U+2329, U+232A,
//   U+2E80..U+A4CF except U+303F, U+AC00..U+D7A3, U+F900..U+FAFF,
//   U+FE10..U+FE19, U+FE30..U+FE6F, U+FF00..U+FF60, U+FFE0..U+FFE6,
//   U+20000..U+2FFFD, U+30000..U+3FFFD): 2; everything else: 1.
int CqlshCharWidth(char32_t c);

// The columns of UTF-8 `text` (cqlsh's wcswidth): the sum of CqlshCharWidth
// over its code points, or -1 when any of them is -1 (a control character).
// REQUIRES: `text` is valid UTF-8.
int CqlshTextWidth(std::string_view text);

// Python's len(): the number of code points of UTF-8 `text`, the width
// cqlsh gives every value that is not text (blob, numbers, ...).
// REQUIRES: `text` is valid UTF-8.
size_t CodePointCount(std::string_view text);

// Decodes the code point that starts at text[*pos] and advances *pos past
// it. REQUIRES: *pos < text.size() and `text` is valid UTF-8.
char32_t NextCodePoint(std::string_view text, size_t* pos);

}  // namespace cellfs::fs
