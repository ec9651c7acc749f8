// Fuzz target for the order-preserving key codec (engine/cql/key_codec.h).
//
// Input: byte 0 picks a key-capable type (modulo the list in fuzz_util.h);
// the rest is used two ways:
//  1. as encoded bytes, decoded in both sort orders, component after
//     component while decoding succeeds: it must fail with Corruption or
//     yield a value that re-encodes to exactly the bytes it consumed
//     (docs/FORMAT.md, "Decoding");
//  2. as a literal for ParseLiteral: when it parses, encoding in either order
//     and decoding consumes the whole encoding and gives the value back (in
//     canonical form for types with several spellings of one value), and the
//     canonical value encodes identically.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "tests/fuzz/fuzz_util.h"

namespace cellfs::fuzz {
namespace {

constexpr SortOrder kOrders[] = {SortOrder::kAsc, SortOrder::kDesc};

// Decoding checks canonical form only (FORMAT.md), not ValidateValue: it
// accepts, say, text that is not UTF-8 or a timeuuid of another version.
// The engine validates every key before it is written, so stored keys are
// valid unless the store's bytes were damaged underneath LevelDB. Setting
// this to true checks the stronger property and fails within seconds; it is
// kept to show the gap (docs/RELIABILITY.md, "Limits").
constexpr bool kDecodedKeysMustValidate = false;

std::string Where(const CqlType& type, SortOrder order, std::string_view bytes) {
  return type.ToCql() + (order == SortOrder::kAsc ? " ASC" : " DESC") + " bytes " + Hex(bytes);
}

// Types whose decoding may differ from the parsed value in bytes but not in
// meaning: decimals normalise their scale, tuples and UDTs drop trailing nulls.
bool HasNonCanonicalSpellings(const CqlType& type) {
  if (type.kind() == TypeKind::kDecimal || type.kind() == TypeKind::kTuple ||
      type.kind() == TypeKind::kUdt) {
    return true;
  }
  for (const TypePtr& param : type.params()) {
    if (HasNonCanonicalSpellings(*param)) return true;
  }
  return false;
}

void CheckDecodeArbitrary(const CqlType& type, SortOrder order, std::string_view bytes) {
  std::string_view in = bytes;
  // A few components, as a composite key of this type repeated would hold.
  for (int component = 0; component < 4 && !in.empty(); ++component) {
    const std::string_view before = in;
    std::string value;
    Status status = DecodeKeyComponent(type, order, &in, &value);
    if (!status.ok()) {
      if (status.code() != StatusCode::kCorruption) {
        Fail("decoding fails only with Corruption", Where(type, order, bytes) + status.ToString());
      }
      return;
    }
    if (in.size() >= before.size() || in.data() != before.data() + (before.size() - in.size())) {
      Fail("decoding consumes a prefix", Where(type, order, bytes));
    }
    const std::string_view consumed = before.substr(0, before.size() - in.size());
    if (kDecodedKeysMustValidate) {
      Status valid = ValidateValue(type, value);
      if (!valid.ok()) {
        Fail("decoded values validate",
             Where(type, order, consumed) + " value " + Hex(value) + " " + valid.ToString());
      }
    }
    // Encoding an invalid value is allowed (key_codec.h); FORMAT.md promises
    // that whatever decodes re-encodes to exactly the bytes consumed.
    std::string encoded;
    EncodeKeyComponent(type, value, order, &encoded);
    if (encoded != consumed) {
      Fail("only canonical encodings decode", Where(type, order, consumed) + " value " +
                                                  Hex(value) + " re-encodes as " + Hex(encoded));
    }
  }
}

void CheckRoundTrip(const CqlType& type, SortOrder order, const std::string& value) {
  std::string encoded = "\x01";  // a preceding component's byte must not matter
  EncodeKeyComponent(type, value, order, &encoded);
  if (encoded.empty() || encoded[0] != '\x01') Fail("encoding appends", Where(type, order, value));
  std::string_view in = std::string_view(encoded).substr(1);
  const std::string_view whole = in;
  std::string decoded;
  Status status = DecodeKeyComponent(type, order, &in, &decoded);
  if (!status.ok()) {
    Fail("encodings decode",
         Where(type, order, value) + " encoded " + Hex(whole) + " " + status.ToString());
  }
  if (!in.empty()) Fail("decoding consumes the whole encoding", Where(type, order, value));
  if (!ValidateValue(type, decoded).ok()) {
    Fail("decoded values validate", Where(type, order, value) + " decoded " + Hex(decoded));
  }
  if (decoded != value && !HasNonCanonicalSpellings(type)) {
    Fail("decoding gives the value back", Where(type, order, value) + " decoded " + Hex(decoded));
  }
  std::string reencoded;
  EncodeKeyComponent(type, decoded, order, &reencoded);
  if (reencoded != whole) {
    Fail("equal values encode alike", Where(type, order, value) + " decoded " + Hex(decoded));
  }
}

}  // namespace
}  // namespace cellfs::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cellfs;  // NOLINT: harness shorthand
  if (size < 1) return 0;
  const CqlType& type = *fuzz::KeyTypes()[data[0] % fuzz::KeyTypes().size()];
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  for (SortOrder order : fuzz::kOrders) fuzz::CheckDecodeArbitrary(type, order, rest);
  Result<std::string> value = ParseLiteral(type, rest);
  if (value.ok()) {
    if (!ValidateValue(type, *value).ok()) {
      fuzz::Fail("parsed literals validate", type.ToCql() + " " + fuzz::Hex(rest));
    }
    for (SortOrder order : fuzz::kOrders) fuzz::CheckRoundTrip(type, order, *value);
  }
  return 0;
}
