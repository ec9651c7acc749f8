// LikePattern: LikeRestriction.makeSpecific and SASI's term matching.
#include "engine/cql/like_pattern.h"

namespace cellfs {

Status ParseLikePattern(std::string_view value, LikePattern* out) {
  const bool leading = !value.empty() && value.front() == '%';
  const bool trailing = !value.empty() && value.back() == '%';
  size_t begin = 0;
  size_t end = value.size();
  if (trailing && leading) {
    out->kind = LikePattern::Kind::kContains;
    begin = 1;
    end = value.size() - 1;
  } else if (trailing) {
    out->kind = LikePattern::Kind::kPrefix;
    end = value.size() - 1;
  } else if (leading) {
    out->kind = LikePattern::Kind::kSuffix;
    begin = 1;
  } else {
    out->kind = LikePattern::Kind::kMatches;
  }
  // '%' alone is both leading and trailing: nothing is left between.
  if (end <= begin) return Status::InvalidArgument("LIKE value can't be empty.");
  out->term.assign(value.substr(begin, end - begin));
  return Status::Ok();
}

bool LikeMatches(const LikePattern& pattern, std::string_view value) {
  switch (pattern.kind) {
    case LikePattern::Kind::kPrefix:
      return value.starts_with(pattern.term);
    case LikePattern::Kind::kSuffix:
      return value.ends_with(pattern.term);
    case LikePattern::Kind::kContains:
      return value.find(pattern.term) != std::string_view::npos;
    case LikePattern::Kind::kMatches:
      break;
  }
  return value == pattern.term;
}

std::string_view LikeKindText(LikePattern::Kind kind) {
  switch (kind) {
    case LikePattern::Kind::kPrefix:
      return "LIKE '<term>%'";
    case LikePattern::Kind::kSuffix:
      return "LIKE '%<term>'";
    case LikePattern::Kind::kContains:
      return "LIKE '%<term>%'";
    case LikePattern::Kind::kMatches:
      break;
  }
  return "LIKE '<term>'";
}

bool SasiModeAnswersLike(SasiOptions::Mode mode, LikePattern::Kind kind) {
  switch (mode) {
    case SasiOptions::Mode::kPrefix:
      return kind == LikePattern::Kind::kPrefix || kind == LikePattern::Kind::kMatches;
    case SasiOptions::Mode::kContains:
      return true;
    case SasiOptions::Mode::kSparse:
      break;
  }
  return false;
}

}  // namespace cellfs
