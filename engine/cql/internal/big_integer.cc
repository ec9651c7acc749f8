// Varint <-> decimal text through GMP's mpz_t.
#include "engine/cql/internal/big_integer.h"

#include <gmp.h>

#include <cstdint>
#include <memory>

namespace cellfs {
namespace {

// Owns an mpz_t for the duration of a scope.
class ScopedMpz {
 public:
  ScopedMpz() { mpz_init(value_); }
  ~ScopedMpz() { mpz_clear(value_); }
  ScopedMpz(const ScopedMpz&) = delete;
  ScopedMpz& operator=(const ScopedMpz&) = delete;
  mpz_ptr get() { return value_; }

 private:
  mpz_t value_;
};

// `bytes` without leading bytes that only repeat the sign (minimal form).
std::string WithoutSignExtension(const std::string& bytes) {
  size_t skip = 0;
  while (skip + 1 < bytes.size()) {
    auto b0 = static_cast<unsigned char>(bytes[skip]);
    auto b1 = static_cast<unsigned char>(bytes[skip + 1]);
    const bool redundant = (b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xff && (b1 & 0x80) != 0);
    if (!redundant) break;
    ++skip;
  }
  return bytes.substr(skip);
}

// Two's-complement bytes of a (possibly negative) integer, minimal length.
std::string ToTwosComplement(mpz_ptr v) {
  const int sign = mpz_sgn(v);
  if (sign == 0) return std::string(1, '\0');
  ScopedMpz magnitude;
  if (sign > 0) {
    mpz_set(magnitude.get(), v);
  } else {
    // For negative v, encode 2^(8n) + v with the smallest n that keeps the
    // sign bit set: work with |v| - 1, whose bytes we invert.
    mpz_neg(magnitude.get(), v);
    mpz_sub_ui(magnitude.get(), magnitude.get(), 1);
  }
  size_t count = 0;
  std::string bytes((mpz_sizeinbase(magnitude.get(), 2) + 7) / 8 + 1, '\0');
  mpz_export(bytes.data() + 1, &count, 1, 1, 1, 0, magnitude.get());
  bytes.resize(count + 1);  // leading 0x00 guards the sign bit
  if (sign < 0) {
    for (char& c : bytes) c = static_cast<char>(~static_cast<unsigned char>(c));
  }
  return WithoutSignExtension(bytes);
}

}  // namespace

Status DecimalDigitsToVarint(std::string_view text, std::string* out) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty())
    return Status::InvalidArgument("'" + std::string(text) + "' is not an integer");
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return Status::InvalidArgument("'" + std::string(text) + "' is not an integer");
    }
  }
  ScopedMpz v;
  std::string owned(digits);
  mpz_set_str(v.get(), owned.c_str(), 10);
  if (negative) mpz_neg(v.get(), v.get());
  *out = ToTwosComplement(v.get());
  return Status::Ok();
}

std::string VarintToDecimalDigits(std::string_view bytes) {
  if (bytes.empty()) return "0";
  const bool negative = (static_cast<unsigned char>(bytes[0]) & 0x80) != 0;
  std::string magnitude(bytes);
  if (negative) {
    for (char& c : magnitude) c = static_cast<char>(~static_cast<unsigned char>(c));
  }
  ScopedMpz v;
  mpz_import(v.get(), magnitude.size(), 1, 1, 1, 0, magnitude.data());
  if (negative) {
    mpz_add_ui(v.get(), v.get(), 1);
    mpz_neg(v.get(), v.get());
  }
  std::unique_ptr<char, void (*)(void*)> text(mpz_get_str(nullptr, 10, v.get()), free);
  return std::string(text.get());
}

std::string Int64ToVarint(int64_t value) {
  std::string bytes(8, '\0');
  auto u = static_cast<uint64_t>(value);
  for (int i = 7; i >= 0; --i, u >>= 8) bytes[static_cast<size_t>(i)] = static_cast<char>(u & 0xff);
  return WithoutSignExtension(bytes);
}

}  // namespace cellfs
