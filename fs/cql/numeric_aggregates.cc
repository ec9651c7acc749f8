// sum() and avg() per numeric family, on GMP for the exact arithmetic
// (varint, decimal, and the overflow paths of integer and floating avg).
#include "fs/cql/numeric_aggregates.h"

#include <gmp.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "fs/cql/select_functions.h"

namespace cellfs::fs {
namespace {

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

  void Set(int64_t v) {
    // mpz_set_si takes a long; on every platform cellfs builds for that is 64 bits.
    mpz_set_si(value_, static_cast<long>(v));
  }

 private:
  mpz_t value_;
};

uint64_t ReadBits(std::string_view bytes) {
  uint64_t bits = 0;
  for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
  return bits;
}

int64_t ReadInteger(std::string_view bytes) {
  const uint64_t bits = ReadBits(bytes);
  const unsigned shift = static_cast<unsigned>(64 - 8 * bytes.size());
  return shift == 0 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << shift) >> shift;
}

std::string BigEndian(uint64_t value, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; value >>= 8) out[i] = static_cast<char>(value & 0xFF);
  return out;
}

size_t Width(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
      return 4;
    default:
      return 8;
  }
}

// The big-endian bytes of a non-negative integer, none for 0.
std::string Magnitude(mpz_srcptr v) {
  if (mpz_sgn(v) == 0) return {};
  std::string out((mpz_sizeinbase(v, 2) + 7) / 8, '\0');
  size_t written = 0;
  mpz_export(out.data(), &written, 1, 1, 1, 0, v);
  out.resize(written);
  return out;
}

// Two's-complement big-endian bytes (a varint) to and from GMP.
void ReadVarint(std::string_view bytes, mpz_ptr out) {
  mpz_import(out, bytes.size(), 1, 1, 1, 0, bytes.data());
  if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) >= 0x80) {
    BigInt power;
    mpz_ui_pow_ui(power.get(), 2, 8 * bytes.size());
    mpz_sub(out, out, power.get());
  }
}

std::string WriteVarint(mpz_srcptr v) {
  // A negative v is the complement of -v - 1's bits.
  const bool negative = mpz_sgn(v) < 0;
  BigInt magnitude;
  if (negative) {
    mpz_neg(magnitude.get(), v);
    mpz_sub_ui(magnitude.get(), magnitude.get(), 1);
  } else {
    mpz_set(magnitude.get(), v);
  }
  std::string out = Magnitude(magnitude.get());
  if (out.empty() || static_cast<unsigned char>(out[0]) >= 0x80) out.insert(0, 1, '\0');
  if (negative) {
    for (char& c : out) c = static_cast<char>(~static_cast<unsigned char>(c));
  }
  return out;
}

// The low 64 bits of v, as Java's BigInteger.longValue() gives them.
int64_t LowBits(mpz_srcptr v) {
  BigInt low;
  mpz_fdiv_r_2exp(low.get(), v, 64);
  uint64_t bits = 0;
  const std::string bytes = Magnitude(low.get());
  for (char c : bytes) bits = (bits << 8) | static_cast<unsigned char>(c);
  return static_cast<int64_t>(bits);
}

// Java's BigDecimal: unscaled * 10^-scale.
struct Decimal {
  BigInt unscaled;
  int64_t scale = 0;
};

Decimal ReadDecimal(std::string_view bytes) {
  Decimal d;
  d.scale = static_cast<int32_t>(static_cast<uint32_t>(ReadBits(bytes.substr(0, 4))));
  ReadVarint(bytes.substr(4), d.unscaled.get());
  return d;
}

std::string WriteDecimal(const Decimal& d) {
  return BigEndian(static_cast<uint32_t>(d.scale), 4) + WriteVarint(d.unscaled.get());
}

// d at a scale at least its own, its value unchanged.
void Rescale(Decimal* d, int64_t scale) {
  if (scale <= d->scale) return;
  BigInt power;
  mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(scale - d->scale));
  mpz_mul(d->unscaled.get(), d->unscaled.get(), power.get());
  d->scale = scale;
}

// a + b (sign -1: a - b) at the larger scale, as BigDecimal.add/subtract.
Decimal AddDecimal(Decimal a, Decimal b, int sign = 1) {
  const int64_t scale = std::max(a.scale, b.scale);
  Rescale(&a, scale);
  Rescale(&b, scale);
  if (sign > 0) {
    mpz_add(a.unscaled.get(), a.unscaled.get(), b.unscaled.get());
  } else {
    mpz_sub(a.unscaled.get(), a.unscaled.get(), b.unscaled.get());
  }
  return a;
}

// BigDecimal.divide(BigDecimal.valueOf(count), HALF_EVEN): d's scale kept.
Decimal DivideHalfEven(const Decimal& d, uint64_t count) {
  Decimal q;
  q.scale = d.scale;
  BigInt remainder;
  mpz_tdiv_qr_ui(q.unscaled.get(), remainder.get(), d.unscaled.get(), count);
  // |remainder| against count / 2: above rounds away from zero, a tie to even.
  mpz_abs(remainder.get(), remainder.get());
  mpz_mul_2exp(remainder.get(), remainder.get(), 1);
  const int half = mpz_cmp_ui(remainder.get(), count);
  if (half > 0 || (half == 0 && mpz_odd_p(q.unscaled.get()))) {
    if (mpz_sgn(d.unscaled.get()) < 0) {
      mpz_sub_ui(q.unscaled.get(), q.unscaled.get(), 1);
    } else {
      mpz_add_ui(q.unscaled.get(), q.unscaled.get(), 1);
    }
  }
  return q;
}

// BigDecimal.valueOf(double): the value of Java's Double.toString text
// ("1.5", "1.0E10"); false for NaN and the infinities, which Java refuses.
bool DecimalOfDouble(double value, Decimal* out) {
  if (!std::isfinite(value)) return false;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const std::string text = JavaFloatingText(TypeKind::kDouble, BigEndian(bits, 8));
  std::string digits;
  int64_t fraction_digits = 0;
  bool in_fraction = false;
  size_t i = 0;
  for (; i < text.size() && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      in_fraction = true;
    } else {
      digits += text[i];
      if (in_fraction) ++fraction_digits;
    }
  }
  const int64_t exponent = i < text.size() ? std::strtoll(text.c_str() + i + 1, nullptr, 10) : 0;
  mpz_set_str(out->unscaled.get(), digits.c_str(), 10);
  out->scale = fraction_digits - exponent;
  return true;
}

// BigDecimal.doubleValue(): the double nearest the decimal's value.
double DoubleOfDecimal(const Decimal& d) {
  char* digits = mpz_get_str(nullptr, 10, d.unscaled.get());
  const std::string text = std::string(digits) + "e" + std::to_string(-d.scale);
  void (*release)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &release);
  release(digits, std::strlen(digits) + 1);
  return std::strtod(text.c_str(), nullptr);
}

std::string WriteFloating(TypeKind kind, double value) {
  if (kind == TypeKind::kFloat) {
    const auto f = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return BigEndian(bits, 4);
  }
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return BigEndian(bits, 8);
}

double ReadFloating(TypeKind kind, std::string_view bytes) {
  if (kind == TypeKind::kFloat) {
    const auto bits = static_cast<uint32_t>(ReadBits(bytes));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  const uint64_t bits = ReadBits(bytes);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// tinyint, smallint, int, bigint and counter sums: Java's wrapping `+=`.
class IntegerSum final : public NumericAggregate {
 public:
  explicit IntegerSum(TypeKind kind) : width_(Width(kind)) {}
  void Add(std::string_view value) override { sum_ += static_cast<uint64_t>(ReadInteger(value)); }
  Status Result(std::string* out) const override {
    *out = BigEndian(sum_, width_);
    return Status::Ok();
  }

 private:
  size_t width_;
  uint64_t sum_ = 0;
};

// Their avg: the exact sum (a long, then a big integer past its range)
// divided by the count, truncated, narrowed to the width.
class IntegerAvg final : public NumericAggregate {
 public:
  explicit IntegerAvg(TypeKind kind) : width_(Width(kind)) {}
  void Add(std::string_view value) override {
    const int64_t v = ReadInteger(value);
    ++count_;
    int64_t next = 0;
    if (!overflow_ && !__builtin_add_overflow(sum_, v, &next)) {
      sum_ = next;
      return;
    }
    if (!overflow_) {
      overflow_ = true;
      big_sum_.Set(sum_);
    }
    mpz_add(big_sum_.get(), big_sum_.get(), BigInt(v).get());
  }
  Status Result(std::string* out) const override {
    int64_t avg = 0;
    if (overflow_) {
      BigInt quotient;
      mpz_tdiv_q(quotient.get(), big_sum_.get(), BigInt(static_cast<int64_t>(count_)).get());
      avg = LowBits(quotient.get());
    } else if (count_ > 0) {
      avg = sum_ / static_cast<int64_t>(count_);
    }
    *out = BigEndian(static_cast<uint64_t>(avg), width_);
    return Status::Ok();
  }

 private:
  size_t width_;
  int64_t sum_ = 0;
  uint64_t count_ = 0;
  bool overflow_ = false;
  BigInt big_sum_;
};

// Kahan's compensated sum in double, as Cassandra keeps it.
struct KahanSum {
  double sum = 0;
  double compensation = 0;
  double simple_sum = 0;

  void Add(double v) {
    simple_sum += v;
    const double tmp = v - compensation;
    const double rounded = sum + tmp;
    compensation = (rounded - sum) - tmp;
    sum = rounded;
  }
  // A NaN from adding same-signed infinities is the plain sum's infinity.
  double Total() const {
    const double total = sum + compensation;
    return std::isnan(total) && std::isinf(simple_sum) ? simple_sum : total;
  }
};

class FloatingSum final : public NumericAggregate {
 public:
  explicit FloatingSum(TypeKind kind) : kind_(kind) {}
  void Add(std::string_view value) override { kahan_.Add(ReadFloating(kind_, value)); }
  Status Result(std::string* out) const override {
    *out = WriteFloating(kind_, kahan_.Total());
    return Status::Ok();
  }

 private:
  TypeKind kind_;
  KahanSum kahan_;
};

class FloatingAvg final : public NumericAggregate {
 public:
  explicit FloatingAvg(TypeKind kind) : kind_(kind) {}
  void Add(std::string_view value) override {
    const double v = ReadFloating(kind_, value);
    ++count_;
    if (overflow_) {
      AddExact(v);
      return;
    }
    const double before = kahan_.sum;
    kahan_.Add(v);
    if (std::isinf(kahan_.sum) && !std::isinf(v)) {
      // The double sum overflowed on finite values: from here the decimal
      // text of the sum before and of each value, summed exactly.
      overflow_ = true;
      if (!DecimalOfDouble(before, &big_sum_)) Refuse(before);
      AddExact(v);
    }
  }
  Status Result(std::string* out) const override {
    if (!refused_.empty()) {
      return Status::InvalidArgument("Character " + refused_ +
                                     " is neither a decimal digit number, decimal point, nor "
                                     "\"e\" notation exponential mark.");
    }
    double avg = 0;
    if (overflow_) {
      avg = DoubleOfDecimal(DivideHalfEven(big_sum_, count_));
    } else if (count_ > 0) {
      avg = kahan_.Total() / static_cast<double>(count_);
    }
    *out = WriteFloating(kind_, avg);
    return Status::Ok();
  }

 private:
  void AddExact(double v) {
    Decimal d;
    if (!DecimalOfDouble(v, &d)) return Refuse(v);
    big_sum_ = AddDecimal(big_sum_, d);
  }
  void Refuse(double v) {
    if (refused_.empty()) refused_ = std::isnan(v) ? "N" : "I";
  }

  TypeKind kind_;
  KahanSum kahan_;
  uint64_t count_ = 0;
  bool overflow_ = false;
  Decimal big_sum_;
  std::string refused_;  // the character Java's BigDecimal refused
};

class VarintAggregate final : public NumericAggregate {
 public:
  explicit VarintAggregate(Op op) : op_(op) {}
  void Add(std::string_view value) override {
    BigInt v;
    ReadVarint(value, v.get());
    mpz_add(sum_.get(), sum_.get(), v.get());
    ++count_;
  }
  Status Result(std::string* out) const override {
    if (op_ == Op::kSum || count_ == 0) {
      *out = WriteVarint(sum_.get());
      return Status::Ok();
    }
    BigInt quotient;
    mpz_tdiv_q(quotient.get(), sum_.get(), BigInt(static_cast<int64_t>(count_)).get());
    *out = WriteVarint(quotient.get());
    return Status::Ok();
  }

 private:
  Op op_;
  BigInt sum_;
  uint64_t count_ = 0;
};

class DecimalAggregate final : public NumericAggregate {
 public:
  explicit DecimalAggregate(Op op) : op_(op) {}
  void Add(std::string_view value) override {
    const Decimal v = ReadDecimal(value);
    if (op_ == Op::kSum) {
      value_ = AddDecimal(value_, v);
      return;
    }
    ++count_;
    value_ = AddDecimal(value_, DivideHalfEven(AddDecimal(v, value_, -1), count_));
  }
  Status Result(std::string* out) const override {
    *out = WriteDecimal(value_);
    return Status::Ok();
  }

 private:
  Op op_;
  Decimal value_;  // the sum, or the running mean
  uint64_t count_ = 0;
};

}  // namespace

std::unique_ptr<NumericAggregate> NumericAggregate::Make(Op op, TypeKind kind) {
  switch (kind) {
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      if (op == Op::kSum) return std::make_unique<FloatingSum>(kind);
      return std::make_unique<FloatingAvg>(kind);
    case TypeKind::kVarint:
      return std::make_unique<VarintAggregate>(op);
    case TypeKind::kDecimal:
      return std::make_unique<DecimalAggregate>(op);
    default:
      if (op == Op::kSum) return std::make_unique<IntegerSum>(kind);
      return std::make_unique<IntegerAvg>(kind);
  }
}

}  // namespace cellfs::fs
