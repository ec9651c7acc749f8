// DdlParser's clauses of data statements: USING, WHERE relations, SET
// assignments, column references with elements (l[i], m[k], u.f), and
// value terms kept as source text.
#include <charconv>
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {

bool CqlTerm::is_null() const {
  if (text.size() != 4) return false;
  for (size_t i = 0; i < 4; ++i) {
    if ((text[i] | 0x20) != "null"[i]) return false;
  }
  return true;
}

Status DdlParser::ParseUsing(bool allow_ttl, UsingClause* out) {
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("using"));
  do {
    const SourcePosition at = Peek().position;
    if (allow_ttl && TakeKeyword("ttl")) {
      if (out->ttl) return ErrorAt(at, "Multiple definitions found for TTL");
      out->ttl_position = at;
      out->ttl.emplace();
      CELLFS_RETURN_IF_ERROR(ParseUsingInteger("a TTL in seconds", &*out->ttl));
    } else if (TakeKeyword("timestamp")) {
      if (out->timestamp) return ErrorAt(at, "Multiple definitions found for TIMESTAMP");
      out->timestamp_position = at;
      out->timestamp.emplace();
      CELLFS_RETURN_IF_ERROR(ParseUsingInteger("a timestamp in microseconds", &*out->timestamp));
    } else {
      return Expected(allow_ttl ? "TTL or TIMESTAMP" : "TIMESTAMP");
    }
  } while (TakeKeyword("and"));
  return Status::Ok();
}

Status DdlParser::ParseUsingInteger(std::string_view what, int64_t* out) {
  const Token& token = Peek();
  if (token.kind != TokenKind::kInteger) return Expected(what);
  const std::string& text = token.text;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (error != std::errc() || end != text.data() + text.size()) {
    return ErrorAt(token.position, "Unable to make long from '" + text + "'");
  }
  Take();
  return Status::Ok();
}

Status DdlParser::ParseWhere(std::vector<Relation>* out, SourcePosition* where) {
  *where = Peek().position;
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("where"));
  do {
    out->emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseRelation(&out->back()));
  } while (TakeKeyword("and"));
  return Status::Ok();
}

Status DdlParser::ParseRelation(Relation* out) {
  out->position = Peek().position;
  if (Peek().IsPunct('(') || PeekKeyword("token")) {
    return Status::NotSupported(Peek().position.ToString() +
                                ": multi-column and token() relations are not supported by cellfs");
  }
  CELLFS_RETURN_IF_ERROR(ParseName("column name", &out->column));
  return ParseRelationTail(out);
}

Status DdlParser::ParseRelationTail(Relation* out) {
  if (TakeKeyword("in")) {
    out->op = Relation::Op::kIn;
    CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
    if (TakePunct(')')) return Status::Ok();
    do {
      out->in_values.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseTermText(&out->in_values.back()));
    } while (TakePunct(','));
    return ExpectPunct(')');
  }
  if (TakePunct('=')) {
    out->op = Relation::Op::kEq;
  } else if (TakePunct('<')) {
    out->op = TakePunct('=') ? Relation::Op::kLe : Relation::Op::kLt;
  } else if (TakePunct('>')) {
    out->op = TakePunct('=') ? Relation::Op::kGe : Relation::Op::kGt;
  } else {
    return Expected("'=', '<', '<=', '>', '>=' or IN");
  }
  return ParseTermText(&out->value);
}

Status DdlParser::ParseColumnRef(ColumnRef* out) {
  out->position = Peek().position;
  CELLFS_RETURN_IF_ERROR(ParseName("column name", &out->name));
  if (TakePunct('[')) {
    out->index.emplace();
    CELLFS_RETURN_IF_ERROR(ParseTermText(&*out->index));
    return ExpectPunct(']');
  }
  if (TakePunct('.')) return ParseName("field name", &out->field);
  return Status::Ok();
}

// c = v; c = c + v; c = c - v; l = v + l; l[i] = v; m[k] = v; u.f = v.
Status DdlParser::ParseAssignment(Assignment* out) {
  CELLFS_RETURN_IF_ERROR(ParseColumnRef(&out->target));
  CELLFS_RETURN_IF_ERROR(ExpectPunct('='));
  const ColumnRef& target = out->target;
  const bool whole = !target.index && target.field.empty();
  const Token& next = Peek();
  const bool names_target =
      (next.kind == TokenKind::kIdentifier || next.kind == TokenKind::kQuotedIdentifier) &&
      next.text == target.name;
  if (whole && names_target) {
    const Token name = Take();
    if (!Peek().IsPunct('(')) {  // not a function call spelled like the column
      if (TakePunct('+')) {
        out->kind = Assignment::Kind::kAdd;
      } else if (TakePunct('-')) {
        out->kind = Assignment::Kind::kSubtract;
      } else if ((Peek().kind == TokenKind::kInteger || Peek().kind == TokenKind::kFloat) &&
                 Peek().text[0] == '-') {
        out->kind = Assignment::Kind::kAdd;  // c -1 lexes as c, -1
      } else {
        return Expected("'+' or '-'");
      }
      return ParseTermText(&out->value);
    }
    // A call such as now(): the term starts at the name.
    out->value.position = name.position;
    CELLFS_RETURN_IF_ERROR(SkipBracketed());
    out->value.text = std::string(
        lexer_.input().substr(name.position.offset, consumed_end_ - name.position.offset));
  } else {
    CELLFS_RETURN_IF_ERROR(ParseTermText(&out->value));
  }
  out->kind = Assignment::Kind::kSet;
  if (!whole || !TakePunct('+')) return Status::Ok();
  std::string again;
  const SourcePosition at = Peek().position;
  CELLFS_RETURN_IF_ERROR(ParseName("column name", &again));
  if (again != target.name) {
    return ErrorAt(at, "Only expressions of the form X = <value> + X are supported.");
  }
  out->kind = Assignment::Kind::kPrepend;
  return Status::Ok();
}

Status DdlParser::ParseConditions(ConditionClause* out) {
  out->position = Peek().position;
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("if"));
  if (TakeKeyword("exists")) {
    out->kind = ConditionClause::Kind::kIfExists;
    return Status::Ok();
  }
  out->kind = ConditionClause::Kind::kColumns;
  do {
    out->columns.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseCondition(&out->columns.back()));
  } while (TakeKeyword("and"));
  return Status::Ok();
}

// c op v, c IN (v, ...), with c a column, l[i], m[k] or u.f; op one of
// = != < <= > >=.
Status DdlParser::ParseCondition(Condition* out) {
  using Op = Condition::Op;
  CELLFS_RETURN_IF_ERROR(ParseColumnRef(&out->target));
  out->op_position = Peek().position;
  if (TakePunct('=')) {
    out->op = Op::kEq;
  } else if (TakePunct('<')) {
    out->op = TakePunct('=') ? Op::kLe : Op::kLt;
  } else if (TakePunct('>')) {
    out->op = TakePunct('=') ? Op::kGe : Op::kGt;
  } else if (Peek().kind == TokenKind::kPunct && Peek().text == "!=") {
    Take();
    out->op = Op::kNe;
  } else if (TakeKeyword("in")) {
    out->op = Op::kIn;
    CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
    if (TakePunct(')')) return Status::Ok();
    do {
      out->values.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseTermText(&out->values.back()));
    } while (TakePunct(','));
    return ExpectPunct(')');
  } else {
    return Expected("'=', '<', '<=', '>', '>=', '!=' or IN");
  }
  return ParseTermText(&out->value);
}

Status DdlParser::ParseTermText(CqlTerm* out) {
  const Token& first = Peek();
  if (first.kind == TokenKind::kEnd || first.kind == TokenKind::kError ||
      (first.kind == TokenKind::kPunct && !first.IsPunct('(') && !first.IsPunct('[') &&
       !first.IsPunct('{') && !first.IsPunct('-'))) {
    return Expected("a value");
  }
  if (first.kind == TokenKind::kQuotedIdentifier) return Expected("a value");
  out->position = first.position;
  const size_t start = first.position.offset;
  if (first.IsPunct('(') || first.IsPunct('[') || first.IsPunct('{')) {
    CELLFS_RETURN_IF_ERROR(SkipBracketed());
  } else {
    const bool minus = first.IsPunct('-');
    Token word = Take();
    if (minus) {  // -Infinity, -NaN, -P1D
      if (Peek().kind != TokenKind::kIdentifier) return Expected("a value");
      word = Take();
    }
    if (word.kind == TokenKind::kIdentifier && Peek().IsPunct('(')) {
      CELLFS_RETURN_IF_ERROR(SkipBracketed());  // a function call
    } else if (word.kind == TokenKind::kIdentifier && word.text[0] == 'p') {
      // An unquoted ISO 8601 duration lexes as several adjacent tokens.
      while (Peek().kind != TokenKind::kEnd && Peek().position.offset == consumed_end_ &&
             !Peek().IsPunct(',') && !Peek().IsPunct(')') && !Peek().IsPunct(';') &&
             !Peek().IsPunct(']') && !Peek().IsPunct('}')) {
        Take();
      }
    }
  }
  out->text = std::string(lexer_.input().substr(start, consumed_end_ - start));
  return Status::Ok();
}

Status DdlParser::SkipBracketed() {
  std::string closers;  // the closing brackets expected, innermost last
  do {
    const Token& token = Peek();
    if (token.kind == TokenKind::kError) return ErrorAt(token.position, token.text);
    if (token.kind == TokenKind::kEnd || token.IsPunct(';')) {
      return Expected(closers.empty() ? "a value" : std::string("'") + closers.back() + "'");
    }
    if (token.IsPunct('(')) closers += ')';
    if (token.IsPunct('[')) closers += ']';
    if (token.IsPunct('{')) closers += '}';
    if (token.IsPunct(')') || token.IsPunct(']') || token.IsPunct('}')) {
      if (closers.empty() || token.text[0] != closers.back()) {
        return Expected(closers.empty() ? "a value" : std::string("'") + closers.back() + "'");
      }
      closers.pop_back();
    }
    Take();
  } while (!closers.empty());
  return Status::Ok();
}

}  // namespace cellfs
