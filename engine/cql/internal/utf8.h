// Strict UTF-8 well-formedness (RFC 3629, Unicode table 3-7): the rule CQL
// text values obey. Internal to engine/.
#pragma once

#include <cstddef>
#include <string_view>

namespace cellfs {

// The offset of the first byte that does not start a well-formed UTF-8
// sequence, or std::string_view::npos when all of `text` is well-formed.
// Ill-formed: stray continuation bytes, overlong forms (C0, C1, E0 80..9F,
// F0 80..8F), UTF-16 surrogates (ED A0..BF), code points above U+10FFFF
// (F4 90.., F5..FF) and sequences cut short by the end of `text`.
size_t FindInvalidUtf8(std::string_view text);

}  // namespace cellfs
