// DdlParser's SELECT: the selection list, WHERE relations (single-column,
// multi-column tuples, token()), ORDER BY, PER PARTITION LIMIT, LIMIT and
// ALLOW FILTERING, kept as written (engine/cql/select_statement.h).
#include <string>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {
namespace {

bool IsName(const Token& token) {
  return token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kQuotedIdentifier;
}

// Tokens that start a constant selector (SELECT 'x', 1, 0xff ... FROM).
bool StartsConstant(const Token& token) {
  switch (token.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kHexBlob:
    case TokenKind::kUuid:
    case TokenKind::kDuration:
      return true;
    default:
      return token.IsPunct('[') || token.IsPunct('{');
  }
}

}  // namespace

Status DdlParser::ParseSelect(SelectStatement* out) {
  if (TakeKeyword("json")) out->json = true;
  if (TakeKeyword("distinct")) out->distinct = true;
  if (TakePunct('*')) {
    out->wildcard = true;
  } else {
    do {
      out->selectors.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseSelector(&out->selectors.back()));
      if (TakeKeyword("as")) {
        CELLFS_RETURN_IF_ERROR(ParseName("an alias", &out->selectors.back().alias));
      }
    } while (TakePunct(','));
  }
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("from"));
  QualifiedName name;
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &name));
  out->keyspace = std::move(name.keyspace);
  out->table = std::move(name.name);
  out->table_position = name.position;
  if (TakeKeyword("where")) {
    do {
      out->where.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseSelectRelation(&out->where.back()));
    } while (TakeKeyword("and"));
  }
  if (PeekKeyword("group")) {
    return Status::NotSupported(Peek().position.ToString() +
                                ": GROUP BY is not supported by cellfs");
  }
  if (TakeKeyword("order")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("by"));
    do {
      Ordering ordering;
      ordering.position = Peek().position;
      CELLFS_RETURN_IF_ERROR(ParseName("column name", &ordering.column));
      if (TakeKeyword("desc")) {
        ordering.descending = true;
      } else {
        TakeKeyword("asc");
      }
      out->order_by.push_back(std::move(ordering));
    } while (TakePunct(','));
  }
  if (TakeKeyword("per")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("partition"));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("limit"));
    CELLFS_RETURN_IF_ERROR(ParseLimit(&out->per_partition_limit.emplace()));
  }
  if (TakeKeyword("limit")) CELLFS_RETURN_IF_ERROR(ParseLimit(&out->limit.emplace()));
  if (TakeKeyword("allow")) {
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("filtering"));
    out->allow_filtering = true;
  }
  return Status::Ok();
}

Status DdlParser::ParseLimit(CqlTerm* out) {
  if (Peek().kind != TokenKind::kInteger) return Expected("an integer");
  out->position = Peek().position;
  out->text = Take().text;
  return Status::Ok();
}

Status DdlParser::ParseSelector(Selector* out) {
  using Kind = Selector::Kind;
  out->position = Peek().position;
  if (StartsConstant(Peek()) || Peek().IsPunct('-')) {
    out->kind = Kind::kTerm;
    return ParseTermText(&out->term);
  }
  // Reserved words are not column names; token is a function name.
  const Token& first = Peek();
  if (!IsName(first) || (first.kind == TokenKind::kIdentifier && IsReservedKeyword(first.text) &&
                         first.text != "token")) {
    return Expected("a selector");
  }
  const bool quoted = Peek().kind == TokenKind::kQuotedIdentifier;
  out->name = Take().text;
  if (!TakePunct('(')) {
    if (!quoted && out->name == "token") {
      return ErrorAt(out->position, "expected a selector, found reserved keyword 'token'");
    }
    out->kind = Kind::kColumn;
    return Status::Ok();
  }
  const std::string& name = out->name;
  if (!quoted && name == "count" && (Peek().IsPunct('*') || Peek().text == "1")) {
    Take();
    out->kind = Kind::kCountRows;
    return ExpectPunct(')');
  }
  if (!quoted && (name == "writetime" || name == "ttl")) {
    out->kind = name == "ttl" ? Kind::kTtl : Kind::kWriteTime;
    CELLFS_RETURN_IF_ERROR(ParseName("column name", &out->name));
    return ExpectPunct(')');
  }
  if (!quoted && name == "cast") {
    out->kind = Kind::kCast;
    out->args.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseSelector(&out->args.back()));
    CELLFS_RETURN_IF_ERROR(ExpectKeyword("as"));
    TypeExpr type;
    CELLFS_RETURN_IF_ERROR(ParseType(&type));
    out->name = type.name;
    return ExpectPunct(')');
  }
  out->kind = !quoted && name == "token" ? Kind::kToken : Kind::kFunction;
  if (TakePunct(')')) return Status::Ok();
  do {
    out->args.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseSelector(&out->args.back()));
  } while (TakePunct(','));
  return ExpectPunct(')');
}

Status DdlParser::ParseSelectRelation(SelectRelation* out) {
  using Target = SelectRelation::Target;
  out->position = Peek().position;
  if (PeekKeyword("token") || Peek().IsPunct('(')) {
    out->target = TakeKeyword("token") ? Target::kToken : Target::kMultiColumn;
    CELLFS_RETURN_IF_ERROR(ParseParenthesisedList("column name", [&]() -> Status {
      out->columns.emplace_back();
      return ParseName("column name", &out->columns.back());
    }));
  } else {
    out->columns.emplace_back();
    CELLFS_RETURN_IF_ERROR(ParseName("column name", &out->columns.back()));
    if (TakePunct('[')) {  // m[key] = value
      out->map_key.emplace();
      CELLFS_RETURN_IF_ERROR(ParseTermText(&*out->map_key));
      CELLFS_RETURN_IF_ERROR(ExpectPunct(']'));
    }
  }
  return ParseRelationOperator(out);
}

Status DdlParser::ParseRelationOperator(SelectRelation* out) {
  using Op = SelectRelation::Op;
  // token(...) and m[key] take Cassandra's relationType only.
  const bool token = out->target == SelectRelation::Target::kToken || out->map_key.has_value();
  const bool single = out->target == SelectRelation::Target::kColumn && !token;
  if (TakePunct('=')) {
    out->op = Op::kEq;
  } else if (TakePunct('<')) {
    out->op = TakePunct('=') ? Op::kLe : Op::kLt;
  } else if (TakePunct('>')) {
    out->op = TakePunct('=') ? Op::kGe : Op::kGt;
  } else if (Peek().kind == TokenKind::kPunct && Peek().text == "!=") {
    Take();
    out->op = Op::kNe;
  } else if (!token && TakeKeyword("in")) {
    out->op = Op::kIn;
    CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
    if (TakePunct(')')) return Status::Ok();  // IN (): selects nothing
    do {
      out->in_list.emplace_back();
      CELLFS_RETURN_IF_ERROR(ParseTermText(&out->in_list.back()));
    } while (TakePunct(','));
    return ExpectPunct(')');
  } else if (single && TakeKeyword("contains")) {
    out->op = TakeKeyword("key") ? Op::kContainsKey : Op::kContains;
  } else if (single && TakeKeyword("like")) {
    out->op = Op::kLike;
  } else {
    return Expected(token    ? "'=', '<', '<=', '>', '>=' or '!='"
                    : single ? "'=', '<', '<=', '>', '>=', '!=', IN, CONTAINS or LIKE"
                             : "'=', '<', '<=', '>', '>=', '!=' or IN");
  }
  return ParseTermText(&out->value);
}

}  // namespace cellfs
