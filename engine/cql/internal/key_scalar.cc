// Fixed-width and byte-string key bodies: sign-flipped big-endian integers,
// Java-ordered floats, reordered uuids and escaped byte strings.
// See docs/FORMAT.md, "Key components".
#include "engine/cql/internal/key_scalar.h"

#include <array>

#include "engine/cql/big_endian.h"

namespace cellfs {
namespace {

// The byte order of a version-1 uuid's time fields, most significant first:
// time_hi_and_version (bytes 6-7), time_mid (4-5), time_low (0-3).
constexpr std::array<size_t, 8> kTimeOrder = {6, 7, 4, 5, 0, 1, 2, 3};
constexpr size_t kUuidWidth = 16;

// Missing trailing bytes read as zero, so a malformed value still encodes.
uint64_t ReadPaddedBigEndian(std::string_view value, size_t width) {
  uint64_t bits = 0;
  for (size_t i = 0; i < width; ++i) {
    const uint8_t b = i < value.size() ? static_cast<uint8_t>(value[i]) : 0;
    bits = (bits << 8) | b;
  }
  return bits;
}

struct FloatLayout {
  uint64_t sign;
  uint64_t exponent;
  uint64_t mantissa;
  uint64_t canonical_nan;  // what Java's floatToIntBits / doubleToLongBits return
  uint64_t all;
};

constexpr FloatLayout kFloatLayout = {0x80000000, 0x7F800000, 0x007FFFFF, 0x7FC00000, 0xFFFFFFFF};
constexpr FloatLayout kDoubleLayout = {0x8000000000000000, 0x7FF0000000000000, 0x000FFFFFFFFFFFFF,
                                       0x7FF8000000000000, 0xFFFFFFFFFFFFFFFF};

bool IsNan(uint64_t bits, const FloatLayout& f) {
  return (bits & f.exponent) == f.exponent && (bits & f.mantissa) != 0;
}

// A uuid of the wrong width (REQUIRES excludes it) reads zero-padded.
std::array<uint8_t, kUuidWidth> UuidBytes(std::string_view value) {
  std::array<uint8_t, kUuidWidth> b{};
  for (size_t i = 0; i < b.size() && i < value.size(); ++i) b[i] = static_cast<uint8_t>(value[i]);
  return b;
}

void AppendBytes(const uint8_t* b, size_t n, std::string* out) {
  out->append(reinterpret_cast<const char*>(b), n);
}

}  // namespace

void AppendFixedKeyBody(std::string_view value, size_t width, uint8_t first_byte_flip,
                        std::string* out) {
  const size_t start = out->size();
  out->append(value.substr(0, width));
  out->resize(start + width, '\0');
  (*out)[start] = static_cast<char>(static_cast<uint8_t>((*out)[start]) ^ first_byte_flip);
}

Status ReadFixedKeyBody(KeyReader* in, size_t width, uint8_t first_byte_flip, std::string* value) {
  value->clear();
  if (!in->AppendBytes(width, value)) {
    return Status::Corruption("truncated: needs " + std::to_string(width) + " bytes, " +
                              std::to_string(in->remaining()) + " left");
  }
  (*value)[0] = static_cast<char>(static_cast<uint8_t>((*value)[0]) ^ first_byte_flip);
  return Status::Ok();
}

void AppendFloatingKeyBody(std::string_view value, size_t width, std::string* out) {
  const FloatLayout& f = width == 4 ? kFloatLayout : kDoubleLayout;
  uint64_t bits = ReadPaddedBigEndian(value, width);
  if (IsNan(bits, f)) bits = f.canonical_nan;
  // Negatives: inverting orders larger magnitudes first and puts -0.0 just
  // below +0.0; positives: setting the sign bit lifts them above all negatives.
  bits = (bits & f.sign) != 0 ? ~bits & f.all : bits | f.sign;
  AppendBigEndian(bits, width, out);
}

Status ReadFloatingKeyBody(KeyReader* in, size_t width, std::string* value) {
  const FloatLayout& f = width == 4 ? kFloatLayout : kDoubleLayout;
  uint8_t raw[8];
  if (!in->ReadBytes(width, raw)) return Status::Corruption("truncated floating-point key");
  uint64_t bits = 0;
  for (size_t i = 0; i < width; ++i) bits = (bits << 8) | raw[i];
  bits = (bits & f.sign) != 0 ? bits & ~f.sign : ~bits & f.all;
  if (IsNan(bits, f) && bits != f.canonical_nan) {
    return Status::Corruption("non-canonical NaN in floating-point key");
  }
  value->clear();
  AppendBigEndian(bits, width, value);
  return Status::Ok();
}

void AppendBooleanKeyBody(std::string_view value, std::string* out) {
  const bool truth = !value.empty() && value[0] != '\0';
  out->push_back(truth ? '\x01' : '\x00');
}

Status ReadBooleanKeyBody(KeyReader* in, std::string* value) {
  uint8_t b = 0;
  if (!in->ReadByte(&b)) return Status::Corruption("truncated boolean key");
  if (b > 1) return Status::Corruption("bad boolean key byte " + KeyByteHex(b));
  value->assign(1, static_cast<char>(b));
  return Status::Ok();
}

void AppendUuidKeyBody(std::string_view value, std::string* out) {
  const auto b = UuidBytes(value);
  const auto version = static_cast<uint8_t>(b[6] >> 4);
  out->push_back(static_cast<char>(version));
  for (size_t i = 0; i < 8; ++i) {
    out->push_back(static_cast<char>(version == 1 ? b[kTimeOrder[i]] : b[i]));
  }
  AppendBytes(b.data() + 8, 8, out);
}

Status ReadUuidKeyBody(KeyReader* in, std::string* value) {
  uint8_t version = 0;
  uint8_t raw[kUuidWidth];
  if (!in->ReadByte(&version) || !in->ReadBytes(kUuidWidth, raw)) {
    return Status::Corruption("truncated uuid key");
  }
  std::array<uint8_t, kUuidWidth> b{};
  for (size_t i = 0; i < 8; ++i) b[version == 1 ? kTimeOrder[i] : i] = raw[i];
  for (size_t i = 8; i < kUuidWidth; ++i) b[i] = raw[i];
  if ((b[6] >> 4) != version) {
    return Status::Corruption("uuid key version byte " + KeyByteHex(version) +
                              " does not match the uuid's version nibble");
  }
  value->clear();
  AppendBytes(b.data(), b.size(), value);
  return Status::Ok();
}

void AppendTimeuuidKeyBody(std::string_view value, std::string* out) {
  const auto b = UuidBytes(value);
  // Cassandra compares the reordered time as a signed long, and the low 8
  // bytes as signed bytes: flipping a byte's top bit makes memcmp agree.
  for (size_t i = 0; i < 8; ++i) {
    const uint8_t flip = i == 0 ? 0x80 : 0x00;
    out->push_back(static_cast<char>(b[kTimeOrder[i]] ^ flip));
  }
  for (size_t i = 8; i < kUuidWidth; ++i) out->push_back(static_cast<char>(b[i] ^ 0x80));
}

Status ReadTimeuuidKeyBody(KeyReader* in, std::string* value) {
  uint8_t raw[kUuidWidth];
  if (!in->ReadBytes(kUuidWidth, raw)) return Status::Corruption("truncated timeuuid key");
  std::array<uint8_t, kUuidWidth> b{};
  for (size_t i = 0; i < 8; ++i) {
    const uint8_t flip = i == 0 ? 0x80 : 0x00;
    b[kTimeOrder[i]] = static_cast<uint8_t>(raw[i] ^ flip);
  }
  for (size_t i = 8; i < kUuidWidth; ++i) b[i] = static_cast<uint8_t>(raw[i] ^ 0x80);
  value->clear();
  AppendBytes(b.data(), b.size(), value);
  return Status::Ok();
}

void AppendEscapedKeyBody(std::string_view value, std::string* out) {
  out->reserve(out->size() + value.size() + 2);
  for (size_t zero = value.find('\0'); zero != std::string_view::npos; zero = value.find('\0')) {
    out->append(value.substr(0, zero));
    out->append("\x00\xFF", 2);
    value.remove_prefix(zero + 1);
  }
  out->append(value);
  out->append("\x00\x01", 2);
}

Status ReadEscapedKeyBody(KeyReader* in, std::string* value) {
  value->clear();
  while (true) {
    const size_t run = in->Find(0x00);
    if (run == std::string_view::npos) return Status::Corruption("unterminated byte string");
    in->AppendBytes(run, value);
    uint8_t escape = 0;
    uint8_t next = 0;
    if (!in->ReadByte(&escape) || !in->ReadByte(&next)) {
      return Status::Corruption("truncated escape in byte string");
    }
    if (next == 0x01) return Status::Ok();
    if (next != 0xFF) {
      return Status::Corruption("bad escape 0x00 " + KeyByteHex(next) + " in byte string");
    }
    value->push_back('\0');
  }
}

}  // namespace cellfs
