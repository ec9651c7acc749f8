// The cqlsh text of the native kinds whose text differs from cellfs's
// canonical text (engine/cql/literal.h): numbers in floating point and
// decimal, and the temporal kinds. Each takes the serialized value and
// applies the rule cqlsh_value.h states. Internal to cqlsh_value.cc.
#pragma once

#include <string>
#include <string_view>

namespace cellfs::fs {

// float (4 bytes) or double (8 bytes), at `precision` (kCqlsh*Precision).
// REQUIRES: a valid, non-empty float or double value.
std::string CqlshFloating(bool is_float, std::string_view value, int precision);

// REQUIRES: a valid, non-empty decimal value.
std::string CqlshDecimal(std::string_view value);

// REQUIRES: a valid, non-empty timestamp value.
std::string CqlshTimestamp(std::string_view value);

// REQUIRES: a valid, non-empty date value.
std::string CqlshDate(std::string_view value);

// REQUIRES: a valid, non-empty duration value.
std::string CqlshDuration(std::string_view value);

}  // namespace cellfs::fs
