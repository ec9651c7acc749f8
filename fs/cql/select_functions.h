// The native scalar functions and casts a SELECT applies to its selectors
// (Cassandra 4.x's TimeFcts, UuidFcts, BytesConversionFcts and CastFcts;
// the aggregates are select_aggregates.h's):
// resolved against their arguments' types once, when the query is typed,
// then applied to each row's values. Pure functions: thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/cql_type.h"
#include "engine/status.h"

namespace cellfs::fs {

// One resolved function: what it computes and its result type.
struct ScalarFunction {
  enum class Kind {
    kNow,               // now(), currentTimeUUID(): a new timeuuid
    kCurrentTimestamp,  // currentTimestamp()
    kCurrentDate,       // currentDate()
    kCurrentTime,       // currentTime()
    kUuid,              // uuid(): a random (version 4) uuid
    kMinTimeuuid,       // minTimeuuid(timestamp)
    kMaxTimeuuid,       // maxTimeuuid(timestamp)
    kToTimestamp,       // toTimestamp(timeuuid|date), dateOf(timeuuid)
    kToDate,            // toDate(timeuuid|timestamp)
    kToUnixTimestamp,   // toUnixTimestamp(timeuuid|timestamp|date), unixTimestampOf(timeuuid)
    kAsBlob,            // <type>AsBlob(v): the value's bytes
    kBlobAs,            // blobAs<type>(b): the bytes, checked for the type
    kCast,              // CAST(v AS type)
  };
  Kind kind = Kind::kNow;
  TypePtr result;
  std::string name;  // as the result's header shows it: "system.todate", "cast"
};

// Resolves the call `name` (lower-cased unless it was quoted) on arguments
// of `arg_types`. InvalidArgument with Cassandra's words: "Unknown function
// 'f'", "Invalid number of arguments in call to function system.todate: 1
// required but 2 provided", "Type error: v cannot be passed as argument 0
// of function system.dateof of type int" (`arg_names` name the arguments),
// "Invalid call to function todate, none of its type signatures match ...".
// REQUIRES: `name` is no aggregate (select_aggregates.h resolves those).
// An argument of null type is a constant still to be typed: its type is
// then the parameter's (*constant_types, one per argument, null for the
// others).
Status ResolveFunction(const std::string& name, const std::vector<TypePtr>& arg_types,
                       const std::vector<std::string>& arg_names, ScalarFunction* out,
                       std::vector<TypePtr>* constant_types);

// Resolves CAST(arg AS `target`) ("int", "text", ...). InvalidArgument
// "v cannot be cast to boolean" when Cassandra has no such cast. Between
// numbers every cast Cassandra has (any number to any other but counter)
// converts as Cassandra 5.0's CastFcts does:
// to tinyint, smallint, int and bigint Java's byteValue() ... longValue()
// (a varint keeps its low bits, 2^32 + 5 to int is 5; a decimal is first
// truncated toward zero, -7.9 to int is -7; float and double saturate, NaN
// is 0); to float and double the nearest value, rounded once (a decimal or
// varint past the range is Infinity); to varint
// BigInteger.valueOf(longValue()) (a decimal truncated then wrapped to 64
// bits, 1e300 as double saturates to 9223372036854775807); to decimal the
// exact integer, new BigDecimal(Float.toString(f)) for a float (0.1f gives
// 0.1) and BigDecimal.valueOf(d) for a double (Double.toString's value).
// Older CastFcts (3.x, and the 4.x sources read) took every number to decimal
// through BigDecimal.valueOf(doubleValue()); cellfs follows the newer one.
Status ResolveCast(const TypePtr& from, const std::string& target, const std::string& arg_name,
                   ScalarFunction* out);

// Applies `function` to serialized argument values (nullopt: null) of the
// types it was resolved for. Null in, null out, as Cassandra's native
// functions do. InvalidArgument when a blobAs<type> value is not a value of
// the type ("In call to function system.blobasint, value 0x0102 is not a
// valid binary representation for type int"), and when a float or double
// NaN or infinity is cast to decimal ("In call to function
// system.castasdecimal, value NaN cannot be converted to decimal": Java's
// BigDecimal throws NumberFormatException there; cellfs words it as its
// other function errors). An empty varint or decimal (0x) cast to another number
// gives null (Java's cast reads a null there; what Cassandra then answers
// was not checked).
Status ApplyFunction(const ScalarFunction& function, const std::vector<TypePtr>& arg_types,
                     const std::vector<std::optional<std::string>>& args,
                     std::optional<std::string>* out);

// Java's Float.toString / Double.toString of a float or double value (what
// CAST(... AS text) gives): "1.0", "5.2", "1.0E10", "1.0E-4", "NaN",
// "-Infinity". Digits are the shortest that read back to the same value.
std::string JavaFloatingText(TypeKind kind, std::string_view bytes);

}  // namespace cellfs::fs
