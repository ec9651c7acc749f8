// KeyReader: a bounds-checked cursor over encoded key bytes that undoes a DESC
// column's inversion as it reads, so every decoder sees the ascending grammar
// of docs/FORMAT.md ("Key components") without copying the input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cellfs {

// Not thread-safe; one reader per decode call.
class KeyReader {
 public:
  // `invert`: the bytes were written inverted (a DESC column).
  KeyReader(std::string_view data, bool invert) : data_(data), mask_(invert ? 0xFF : 0x00) {}

  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool inverted() const { return mask_ != 0; }

  // Reads one byte of the ascending form; false at the end of the input.
  bool ReadByte(uint8_t* b) {
    if (pos_ >= data_.size()) return false;
    *b = static_cast<uint8_t>(static_cast<uint8_t>(data_[pos_++]) ^ mask_);
    return true;
  }

  // Reads `n` bytes of the ascending form into `dst`; false (and nothing
  // consumed) when fewer remain.
  bool ReadBytes(size_t n, uint8_t* dst) {
    if (n > remaining()) return false;
    for (size_t i = 0; i < n; ++i) dst[i] = static_cast<uint8_t>(Raw(pos_ + i) ^ mask_);
    pos_ += n;
    return true;
  }

  // Appends `n` bytes of the ascending form to `*out`, each XORed with
  // `extra_mask` too (negative numbers store inverted magnitudes).
  bool AppendBytes(size_t n, std::string* out, uint8_t extra_mask = 0) {
    if (n > remaining()) return false;
    const auto mask = static_cast<uint8_t>(mask_ ^ extra_mask);
    const size_t old_size = out->size();
    out->append(data_.substr(pos_, n));
    if (mask != 0) {
      for (size_t i = old_size; i < out->size(); ++i) {
        (*out)[i] = static_cast<char>(static_cast<uint8_t>((*out)[i]) ^ mask);
      }
    }
    pos_ += n;
    return true;
  }

  // Offset from position() of the next byte whose ascending value is
  // `ascending`, or std::string_view::npos.
  size_t Find(uint8_t ascending) const {
    const auto target = static_cast<uint8_t>(ascending ^ mask_);
    const void* hit = std::memchr(data_.data() + pos_, target, remaining());
    if (hit == nullptr) return std::string_view::npos;
    return static_cast<size_t>(static_cast<const char*>(hit) - (data_.data() + pos_));
  }

  // Three-way memcmp of the ascending forms of two already-read ranges
  // [a_begin, a_end) and [b_begin, b_end) of this input. Used to check that
  // set elements and map keys arrive strictly increasing.
  int CompareSpans(size_t a_begin, size_t a_end, size_t b_begin, size_t b_end) const {
    const int c =
        data_.substr(a_begin, a_end - a_begin).compare(data_.substr(b_begin, b_end - b_begin));
    const int raw = (c > 0) - (c < 0);
    // Inverting every byte of prefix-free strings reverses their order.
    return mask_ != 0 ? -raw : raw;
  }

 private:
  uint8_t Raw(size_t i) const { return static_cast<uint8_t>(data_[i]); }

  std::string_view data_;
  size_t pos_ = 0;
  uint8_t mask_;
};

// "0x07": how error messages name an offending byte.
inline std::string KeyByteHex(uint8_t b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string{'0', 'x', kDigits[b >> 4], kDigits[b & 0xF]};
}

}  // namespace cellfs
