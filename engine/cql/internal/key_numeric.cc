// Varint and decimal key bodies: a sign-and-length header before the
// magnitude (varint); sign, base-100 exponent and base-100 digits with a
// continuation bit (decimal, after SQLite4's key format). docs/FORMAT.md.
#include "engine/cql/internal/key_numeric.h"

#include <cstdint>
#include <limits>

#include "engine/cql/big_endian.h"
#include "engine/cql/internal/big_integer.h"

namespace cellfs {
namespace {

// Signed-magnitude header values (ascending form of a non-negative number;
// negative numbers store the whole field inverted).
constexpr uint8_t kZeroHeader = 0x80;
constexpr size_t kMaxShortLength = 126;  // 0x81..0xFE carry the length inline
constexpr uint8_t kLongHeader = 0xFF;    // then an 8-byte big-endian length

// Decimal body class bytes: negatives sort before zero before positives.
constexpr uint8_t kDecimalNegative = 0x01;
constexpr uint8_t kDecimalZero = 0x02;
constexpr uint8_t kDecimalPositive = 0x03;

// Far beyond any legitimate exponent (a decimal's base-10 exponent spans
// about +-2^33); small enough that scale arithmetic cannot overflow int64.
constexpr uint64_t kMaxDecimalExponent = uint64_t{1} << 40;
// Trailing zeros a decoded decimal may need to keep its scale >= INT32_MIN.
constexpr int64_t kMaxDecimalPadding = int64_t{1} << 20;

void InvertFrom(size_t start, std::string* out) {
  for (size_t i = start; i < out->size(); ++i) {
    (*out)[i] = static_cast<char>(~static_cast<uint8_t>((*out)[i]));
  }
}

void StripLeadingZeroBytes(std::string* bytes) {
  size_t skip = 0;
  while (skip < bytes->size() && (*bytes)[skip] == '\0') ++skip;
  bytes->erase(0, skip);
}

// Appends the ordered signed-magnitude form of a number whose magnitude is
// `magnitude` (big-endian, no leading zero byte, empty for zero).
void AppendSignedMagnitude(bool negative, std::string_view magnitude, std::string* out) {
  const size_t start = out->size();
  const size_t n = magnitude.size();
  if (n == 0) {
    out->push_back(static_cast<char>(kZeroHeader));
    return;
  }
  if (n <= kMaxShortLength) {
    out->push_back(static_cast<char>(kZeroHeader + n));
  } else {
    out->push_back(static_cast<char>(kLongHeader));
    for (int shift = 56; shift >= 0; shift -= 8) {
      out->push_back(static_cast<char>((uint64_t{n} >> shift) & 0xFF));
    }
  }
  out->append(magnitude);
  // Among negatives a longer or larger magnitude is smaller: invert it all.
  if (negative) InvertFrom(start, out);
}

// Reads a signed-magnitude field whose bytes are additionally XORed with
// `outer` (a negative decimal stores its exponent inverted). `*magnitude`
// receives the magnitude bytes; at most `max_length` of them.
Status ReadSignedMagnitude(KeyReader* in, uint8_t outer, size_t max_length, const char* what,
                           bool* negative, std::string* magnitude) {
  uint8_t header = 0;
  if (!in->ReadByte(&header)) return Status::Corruption(std::string("truncated ") + what);
  header = static_cast<uint8_t>(header ^ outer);
  magnitude->clear();
  *negative = header < kZeroHeader;
  if (header == kZeroHeader) return Status::Ok();
  const auto flip = static_cast<uint8_t>((*negative ? 0xFF : 0x00) ^ outer);
  const auto ascending = static_cast<uint8_t>(*negative ? ~header : header);
  uint64_t n = static_cast<uint64_t>(ascending - kZeroHeader);
  if (n == 0) return Status::Corruption(std::string("negative zero header in ") + what);
  if (ascending == kLongHeader) {
    uint8_t length[8];
    if (!in->ReadBytes(8, length)) return Status::Corruption(std::string("truncated ") + what);
    n = 0;
    for (uint8_t b : length) n = (n << 8) | static_cast<uint8_t>(b ^ flip);
    if (n <= kMaxShortLength) {
      return Status::Corruption(std::string("long length form for a short magnitude in ") + what);
    }
  }
  if (n > max_length) return Status::Corruption(std::string("magnitude too long in ") + what);
  if (n > in->remaining()) return Status::Corruption(std::string("truncated ") + what);
  in->AppendBytes(static_cast<size_t>(n), magnitude, flip);
  if ((*magnitude)[0] == '\0') {
    return Status::Corruption(std::string("leading zero byte in the magnitude of ") + what);
  }
  return Status::Ok();
}

std::string MagnitudeBytes(uint64_t v) {
  std::string bytes;
  for (int shift = 56; shift >= 0; shift -= 8) {
    const auto b = static_cast<char>((v >> shift) & 0xFF);
    if (!bytes.empty() || b != '\0') bytes.push_back(b);
  }
  return bytes;
}

bool IsZeroVarint(std::string_view bytes) {
  for (char c : bytes) {
    if (c != '\0') return false;
  }
  return true;
}

// Appends the base-100 digits of 0.`digits` (decimal digits, even count,
// first and last pair non-zero): 2d+1 for each digit but the last, 2d for
// the last, so the encoding ends itself and a shorter prefix sorts first.
void AppendCentimalDigits(std::string_view digits, std::string* out) {
  for (size_t i = 0; i < digits.size(); i += 2) {
    const int d = (digits[i] - '0') * 10 + (digits[i + 1] - '0');
    const bool last = i + 2 == digits.size();
    out->push_back(static_cast<char>(2 * d + (last ? 0 : 1)));
  }
}

// Reads base-100 digits up to the one with a clear continuation bit and
// appends them as decimal digit pairs.
Status ReadCentimalDigits(KeyReader* in, uint8_t outer, std::string* digits) {
  while (true) {
    uint8_t b = 0;
    if (!in->ReadByte(&b)) return Status::Corruption("truncated decimal digits");
    b = static_cast<uint8_t>(b ^ outer);
    const int d = b >> 1;
    if (d > 99) return Status::Corruption("decimal digit byte " + std::to_string(b) + " above 199");
    digits->push_back(static_cast<char>('0' + d / 10));
    digits->push_back(static_cast<char>('0' + d % 10));
    if ((b & 1) == 0) return Status::Ok();
  }
}

}  // namespace

void AppendVarintKeyBody(std::string_view twos_complement, std::string* out) {
  const bool negative =
      !twos_complement.empty() && (static_cast<uint8_t>(twos_complement[0]) & 0x80) != 0;
  std::string magnitude(twos_complement);
  if (negative) {
    // |v| = ~v + 1; never carries out of the top byte since v < 0.
    InvertFrom(0, &magnitude);
    for (size_t i = magnitude.size(); i-- > 0;) {
      const auto b = static_cast<uint8_t>(magnitude[i] + 1);
      magnitude[i] = static_cast<char>(b);
      if (b != 0) break;
    }
  }
  StripLeadingZeroBytes(&magnitude);
  AppendSignedMagnitude(negative, magnitude, out);
}

Status ReadVarintKeyBody(KeyReader* in, std::string* value) {
  bool negative = false;
  CELLFS_RETURN_IF_ERROR(ReadSignedMagnitude(in, 0x00, std::numeric_limits<size_t>::max(),
                                             "varint key", &negative, value));
  if (value->empty()) {
    value->assign(1, '\0');
    return Status::Ok();
  }
  if (!negative) {
    if ((static_cast<uint8_t>((*value)[0]) & 0x80) != 0) value->insert(0, 1, '\0');
    return Status::Ok();
  }
  // v = -|v| = ~|v| + 1; a non-zero magnitude never carries out.
  InvertFrom(0, value);
  for (size_t i = value->size(); i-- > 0;) {
    const auto b = static_cast<uint8_t>((*value)[i] + 1);
    (*value)[i] = static_cast<char>(b);
    if (b != 0) break;
  }
  if ((static_cast<uint8_t>((*value)[0]) & 0x80) == 0) value->insert(0, 1, '\xFF');
  return Status::Ok();
}

void AppendDecimalKeyBody(std::string_view serialized, std::string* out) {
  // REQUIRES a valid serialization; a short one reads as zero rather than
  // reading out of bounds.
  if (serialized.size() < 4 || IsZeroVarint(serialized.substr(4))) {
    out->push_back(static_cast<char>(kDecimalZero));
    return;
  }
  uint32_t raw_scale = 0;
  for (size_t i = 0; i < 4; ++i) raw_scale = (raw_scale << 8) | static_cast<uint8_t>(serialized[i]);
  const auto scale = static_cast<int32_t>(raw_scale);
  std::string digits = VarintToDecimalDigits(serialized.substr(4));
  const bool negative = digits[0] == '-';
  if (negative) digits.erase(0, 1);
  // value = 0.<digits> * 10^e10; stripping trailing zeros keeps e10.
  int64_t e10 = static_cast<int64_t>(digits.size()) - scale;
  digits.erase(digits.find_last_not_of('0') + 1);
  if (e10 % 2 != 0) {  // align to base 100: 0.d * 10^e10 = 0.0d * 10^(e10+1)
    digits.insert(0, 1, '0');
    ++e10;
  }
  if (digits.size() % 2 != 0) digits.push_back('0');
  const int64_t exponent = e10 / 2;

  out->push_back(static_cast<char>(negative ? kDecimalNegative : kDecimalPositive));
  const size_t start = out->size();
  const uint64_t exponent_magnitude = exponent < 0 ? uint64_t{0} - static_cast<uint64_t>(exponent)
                                                   : static_cast<uint64_t>(exponent);
  AppendSignedMagnitude(exponent < 0, MagnitudeBytes(exponent_magnitude), out);
  AppendCentimalDigits(digits, out);
  // Among negatives a larger magnitude is smaller: invert exponent and digits.
  if (negative) InvertFrom(start, out);
}

Status ReadDecimalKeyBody(KeyReader* in, std::string* value) {
  uint8_t cls = 0;
  if (!in->ReadByte(&cls)) return Status::Corruption("truncated decimal key");
  if (cls == kDecimalZero) {
    value->assign(5, '\0');
    return Status::Ok();
  }
  if (cls != kDecimalNegative && cls != kDecimalPositive) {
    return Status::Corruption("bad decimal sign byte " + std::to_string(cls));
  }
  const bool negative = cls == kDecimalNegative;
  const uint8_t outer = negative ? 0xFF : 0x00;
  bool exponent_negative = false;
  std::string exponent_bytes;
  CELLFS_RETURN_IF_ERROR(
      ReadSignedMagnitude(in, outer, 8, "decimal exponent", &exponent_negative, &exponent_bytes));
  uint64_t exponent_magnitude = 0;
  for (char c : exponent_bytes)
    exponent_magnitude = (exponent_magnitude << 8) | static_cast<uint8_t>(c);
  if (exponent_magnitude > kMaxDecimalExponent) {
    return Status::Corruption("decimal exponent out of range");
  }
  const int64_t exponent = exponent_negative ? -static_cast<int64_t>(exponent_magnitude)
                                             : static_cast<int64_t>(exponent_magnitude);
  std::string digits;
  CELLFS_RETURN_IF_ERROR(ReadCentimalDigits(in, outer, &digits));
  const auto pairs = static_cast<int64_t>(digits.size() / 2);
  if (digits.compare(0, 2, "00") == 0 || digits.compare(digits.size() - 2, 2, "00") == 0) {
    return Status::Corruption("decimal digits not normalised (a leading or trailing zero pair)");
  }
  // value = 0.<digits> * 100^exponent = <digits> * 10^(2*exponent - 2*pairs).
  int64_t scale = 2 * pairs - 2 * exponent;
  if (digits.back() == '0') {
    digits.pop_back();
    --scale;
  }
  if (scale > std::numeric_limits<int32_t>::max()) {
    return Status::Corruption("decimal scale " + std::to_string(scale) + " out of range");
  }
  if (scale < std::numeric_limits<int32_t>::min()) {
    // Keep trailing zeros in the unscaled part so the scale fits int32.
    const int64_t padding = int64_t{std::numeric_limits<int32_t>::min()} - scale;
    if (padding > kMaxDecimalPadding) {
      return Status::Corruption("decimal scale " + std::to_string(scale) + " out of range");
    }
    digits.append(static_cast<size_t>(padding), '0');
    scale = std::numeric_limits<int32_t>::min();
  }
  if (negative) digits.insert(0, 1, '-');
  std::string unscaled;
  CELLFS_RETURN_IF_ERROR(DecimalDigitsToVarint(digits, &unscaled));
  value->clear();
  AppendBigEndian(static_cast<uint32_t>(static_cast<int32_t>(scale)), 4, value);
  value->append(unscaled);
  return Status::Ok();
}

}  // namespace cellfs
