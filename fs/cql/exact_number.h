// Java's BigInteger and BigDecimal arithmetic that Cassandra's aggregates
// use, on GMP, read from and written to CQL varint and decimal bytes
// (two's-complement big-endian; decimal: int32 scale, then the unscaled
// varint). Internal to fs/cql (numeric_aggregates.cc). Values are not
// thread-safe; the functions are pure.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace cellfs::fs {

// An mpz_t that cleans up after itself.
class BigInt {
 public:
  BigInt() { mpz_init(value_); }
  explicit BigInt(int64_t v) {
    mpz_init(value_);
    Set(v);
  }
  BigInt(const BigInt& other) { mpz_init_set(value_, other.value_); }
  BigInt& operator=(const BigInt& other) {
    mpz_set(value_, other.value_);
    return *this;
  }
  ~BigInt() { mpz_clear(value_); }

  mpz_ptr get() { return value_; }
  mpz_srcptr get() const { return value_; }

  // mpz_set_si takes a long: 64 bits on every platform cellfs builds for.
  void Set(int64_t v) { mpz_set_si(value_, static_cast<long>(v)); }

 private:
  mpz_t value_;
};

// Java's BigDecimal: unscaled * 10^-scale.
struct Decimal {
  BigInt unscaled;
  int64_t scale = 0;
};

// A varint's value into *out. Empty bytes read as 0.
void ReadVarint(std::string_view bytes, mpz_ptr out);
// The minimal two's-complement bytes of v (0 is one zero byte).
std::string WriteVarint(mpz_srcptr v);
// The low 64 bits of v, as Java's BigInteger.longValue() gives them.
int64_t LowBits(mpz_srcptr v);

// REQUIRES: a valid serialized decimal.
Decimal ReadDecimal(std::string_view bytes);
std::string WriteDecimal(const Decimal& d);

// a + b (sign -1: a - b) at the larger scale, as BigDecimal.add/subtract.
Decimal AddDecimal(Decimal a, Decimal b, int sign = 1);
// BigDecimal.divide(BigDecimal.valueOf(count), RoundingMode.HALF_EVEN):
// the quotient at d's scale, a tie rounded to the even neighbour.
// REQUIRES: count > 0.
Decimal DivideHalfEven(const Decimal& d, uint64_t count);
// BigDecimal.valueOf(double): the value of Java's Double.toString text
// ("1.5", "1.0E10": unscaled 10, scale -9); false for NaN and the
// infinities, which Java refuses.
bool DecimalOfDouble(double value, Decimal* out);
// BigDecimal.doubleValue(): the double nearest the decimal's value.
double DoubleOfDecimal(const Decimal& d);

}  // namespace cellfs::fs
