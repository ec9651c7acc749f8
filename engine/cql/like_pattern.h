// LikePattern: a LIKE relation's value split into its form and its term, as
// Cassandra's LikeRestriction does once the value is bound: 'abc%' is a
// prefix, '%abc' a suffix, '%abc%' a substring, 'abc' the whole value; only
// one leading and one trailing % are wildcards, any other % is itself.
#pragma once

#include <string>
#include <string_view>

#include "engine/cql/sasi_options.h"
#include "engine/status.h"

namespace cellfs {

struct LikePattern {
  enum class Kind { kPrefix, kSuffix, kContains, kMatches };
  Kind kind = Kind::kMatches;
  std::string term;  // the value without its wildcards; never empty
};

// Splits serialized text `value`. InvalidArgument "LIKE value can't be
// empty." when no term is left ('', '%', '%%').
Status ParseLikePattern(std::string_view value, LikePattern* out);

// Whether `value` matches: starts with, ends with, contains, or equals the
// term, byte for byte (SASI's comparison of an unanalysed literal).
bool LikeMatches(const LikePattern& pattern, std::string_view value);

// How Cassandra prints the form in messages: Operator's LIKE_PREFIX as
// "LIKE '<term>%'", LIKE_SUFFIX "LIKE '%<term>'", LIKE_CONTAINS
// "LIKE '%<term>%'", LIKE_MATCHES "LIKE '<term>'".
std::string_view LikeKindText(LikePattern::Kind kind);

// Whether a SASI index in `mode` answers the form (OnDiskIndexBuilder.Mode:
// PREFIX answers prefixes and whole values, CONTAINS all four, SPARSE none).
bool SasiModeAnswersLike(SasiOptions::Mode mode, LikePattern::Kind kind);

}  // namespace cellfs
