// Key-codec bodies for the fixed-width and byte-string types: integers,
// temporal types, floats, boolean, uuids, text and blobs. Grammar in
// docs/FORMAT.md ("Key components"). Internal to engine/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cql/internal/key_reader.h"
#include "engine/status.h"

namespace cellfs {

// Big-endian fixed-width values. `first_byte_flip` is 0x80 for signed
// integers (two's complement sorts like offset binary once the sign bit is
// flipped) and 0x00 for values Cassandra compares as unsigned bytes.
// A value of the wrong width (REQUIRES excludes it) is zero-padded or cut.
void AppendFixedKeyBody(std::string_view value, size_t width, uint8_t first_byte_flip,
                        std::string* out);
Status ReadFixedKeyBody(KeyReader* in, size_t width, uint8_t first_byte_flip, std::string* value);

// IEEE 754 big-endian float (width 4) or double (width 8), in the order of
// Java's Float.compare / Double.compare; every NaN becomes Java's canonical NaN.
void AppendFloatingKeyBody(std::string_view value, size_t width, std::string* out);
Status ReadFloatingKeyBody(KeyReader* in, size_t width, std::string* value);

// false (0x00) < true (any other byte, as Cassandra reads it; decodes as 0x01).
void AppendBooleanKeyBody(std::string_view value, std::string* out);
Status ReadBooleanKeyBody(KeyReader* in, std::string* value);

// Cassandra's UUIDType order: version, then the time for version 1 or the
// high 8 bytes otherwise, then the low 8 bytes unsigned.
void AppendUuidKeyBody(std::string_view value, std::string* out);
Status ReadUuidKeyBody(KeyReader* in, std::string* value);

// Cassandra's TimeUUIDType order: the reassembled 60-bit time (as a signed
// long with the version), then the low 8 bytes as signed bytes.
void AppendTimeuuidKeyBody(std::string_view value, std::string* out);
Status ReadTimeuuidKeyBody(KeyReader* in, std::string* value);

// Unsigned bytes, a prefix first: 0x00 escaped as 0x00 0xFF, ended by 0x00 0x01.
void AppendEscapedKeyBody(std::string_view value, std::string* out);
Status ReadEscapedKeyBody(KeyReader* in, std::string* value);

}  // namespace cellfs
