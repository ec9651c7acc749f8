// CREATE [CUSTOM] INDEX and DROP INDEX: the grammar of Cassandra's index
// statements, SASI and SAI forms included (USING 'class' WITH OPTIONS).
#include <algorithm>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {
namespace {

// KEYS(c), VALUES(c), ENTRIES(c), FULL(c): the function forms of a target.
bool TargetFunction(const Token& token, IndexTargetKind* kind) {
  if (token.kind != TokenKind::kIdentifier) return false;
  if (token.text == "keys")
    *kind = IndexTargetKind::kKeys;
  else if (token.text == "values")
    *kind = IndexTargetKind::kValues;
  else if (token.text == "entries")
    *kind = IndexTargetKind::kEntries;
  else if (token.text == "full")
    *kind = IndexTargetKind::kFull;
  else
    return false;
  return true;
}

}  // namespace

// After CREATE [CUSTOM] INDEX.
Status DdlParser::ParseCreateIndex(bool custom, StatementBody* body) {
  CreateIndex create;
  create.custom = custom;
  create.position = statement_position_;
  CELLFS_RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  if (!PeekKeyword("on")) CELLFS_RETURN_IF_ERROR(ParseQualifiedName("index name", &create.index));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("on"));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("table name", &create.table));
  CELLFS_RETURN_IF_ERROR(ExpectPunct('('));
  while (!Peek().IsPunct(')')) {
    CreateIndex::Target target;
    target.position = Peek().position;
    IndexTargetKind kind = IndexTargetKind::kSimple;
    if (TargetFunction(Peek(), &kind)) {
      Token function = Take();
      if (TakePunct('(')) {
        target.kind = kind;
        CELLFS_RETURN_IF_ERROR(ParseName("column name", &target.column));
        CELLFS_RETURN_IF_ERROR(ExpectPunct(')'));
      } else if (kind == IndexTargetKind::kValues) {
        return ErrorAt(function.position, "expected '(' after VALUES");
      } else {
        target.column = function.text;  // a column named keys, entries or full
      }
    } else {
      CELLFS_RETURN_IF_ERROR(ParseName("column name", &target.column));
    }
    create.targets.push_back(std::move(target));
    if (!TakePunct(',') && !Peek().IsPunct(')')) return Expected("',' or ')'");
  }
  Take();  // ')'
  if (TakeKeyword("using")) {
    if (Peek().kind != TokenKind::kString) return Expected("the index class, a string");
    create.using_class = Take().text;
    if (TakeKeyword("with")) {
      CELLFS_RETURN_IF_ERROR(ExpectKeyword("options"));
      CELLFS_RETURN_IF_ERROR(ExpectPunct('='));
      if (!Peek().IsPunct('{')) return Expected("a map of options");
      OptionValue options;
      CELLFS_RETURN_IF_ERROR(ParseOptionMap(&options));
      create.options = std::move(options.entries);
    }
  } else if (custom) {
    return Expected("USING 'class'");
  }
  *body = std::move(create);
  return Status::Ok();
}

// After DROP INDEX.
Status DdlParser::ParseDropIndex(StatementBody* body) {
  DropIndex drop;
  CELLFS_RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  CELLFS_RETURN_IF_ERROR(ParseQualifiedName("index name", &drop.index));
  *body = std::move(drop);
  return Status::Ok();
}

}  // namespace cellfs
