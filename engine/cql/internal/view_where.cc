// A view's WHERE clause: typing its relations, printing them as Cassandra
// 4.x's DESCRIBE does, and renaming a column through the printed text.
#include "engine/cql/internal/view_where.h"

#include <vector>

#include "engine/cql/cql_identifier.h"
#include "engine/cql/cql_term.h"
#include "engine/cql/internal/cql_lexer.h"
#include "engine/cql/internal/schema_options.h"

namespace cellfs {
namespace {

// A term as Cassandra's Term.Raw prints it: a string constant re-quoted,
// anything else as written.
std::string TermText(const CqlTerm& term) {
  CqlLexer lexer(term.text);
  const Token first = lexer.Next();
  if (first.kind == TokenKind::kString && lexer.Peek().kind == TokenKind::kEnd) {
    return QuoteString(first.text);
  }
  return term.text;
}

const char* OperatorText(Relation::Op op) {
  switch (op) {
    case Relation::Op::kEq:
      return "=";
    case Relation::Op::kLt:
      return "<";
    case Relation::Op::kLe:
      return "<=";
    case Relation::Op::kGt:
      return ">";
    case Relation::Op::kGe:
      return ">=";
    case Relation::Op::kIn:
      return "IN";
  }
  return "=";
}

ViewRestriction::Op RestrictionOp(Relation::Op op) {
  switch (op) {
    case Relation::Op::kEq:
      return ViewRestriction::Op::kEq;
    case Relation::Op::kLt:
      return ViewRestriction::Op::kLt;
    case Relation::Op::kLe:
      return ViewRestriction::Op::kLe;
    case Relation::Op::kGt:
      return ViewRestriction::Op::kGt;
    case Relation::Op::kGe:
      return ViewRestriction::Op::kGe;
    case Relation::Op::kIn:
      return ViewRestriction::Op::kIn;
  }
  return ViewRestriction::Op::kEq;
}

}  // namespace

std::string ViewRelationText(const ViewRelation& relation) {
  const Relation& r = relation.relation;
  std::string out = QuoteIdentifier(r.column);
  if (relation.is_not_null) return out + " IS NOT NULL";
  if (r.op != Relation::Op::kIn) return out + " " + OperatorText(r.op) + " " + TermText(r.value);
  out += " IN (";
  for (size_t i = 0; i < r.in_values.size(); ++i) {
    if (i > 0) out += ", ";
    out += TermText(r.in_values[i]);
  }
  return out + ")";
}

Status TypeViewRelation(const ColumnDef& column, const Relation& relation, ViewRestriction* out) {
  out->column = column.name;
  out->op = RestrictionOp(relation.op);
  std::vector<CqlTerm> terms =
      relation.op == Relation::Op::kIn ? relation.in_values : std::vector<CqlTerm>{relation.value};
  for (const CqlTerm& term : terms) {
    std::string value;
    bool is_null = false;
    CELLFS_RETURN_IF_ERROR(ParseValueTerm(*column.type, term, column.name, &value, &is_null));
    if (is_null) {
      return Status::InvalidArgument("Invalid null value in condition for column " + column.name);
    }
    out->values.push_back(std::move(value));
  }
  return Status::Ok();
}

Status ViewRelationMerger::Add(const ViewRelation& relation, const std::string& column) {
  auto [it, added] = seen_.try_emplace(column);
  Seen& seen = it->second;
  const Relation::Op op = relation.relation.op;
  const bool slice = !relation.is_not_null && op != Relation::Op::kEq && op != Relation::Op::kIn;
  const bool start = slice && (op == Relation::Op::kGt || op == Relation::Op::kGe);
  if (!added) {
    if (seen.not_null) {
      return Status::InvalidArgument(
          column + " cannot be restricted by a relation if it includes an IS NOT NULL clause");
    }
    if (seen.eq) {
      return Status::InvalidArgument(
          column + " cannot be restricted by more than one relation if it includes an Equal");
    }
    if (seen.in) {
      return Status::InvalidArgument(
          column + " cannot be restricted by more than one relation if it includes a IN");
    }
    if (!slice) {
      return Status::InvalidArgument(
          "Column \"" + column +
          "\" cannot be restricted by both an equality and an inequality relation");
    }
    if (start ? seen.start : seen.end) {
      return Status::InvalidArgument("More than one restriction was found for the " +
                                     std::string(start ? "start" : "end") + " bound on " + column);
    }
  }
  seen.not_null = relation.is_not_null;
  seen.eq = !relation.is_not_null && op == Relation::Op::kEq;
  seen.in = !relation.is_not_null && op == Relation::Op::kIn;
  if (slice) (start ? seen.start : seen.end) = true;
  return Status::Ok();
}

void RenameViewColumn(const std::string& from, const std::string& to, TableDef* view) {
  for (ColumnDef& c : view->columns) {
    if (c.name == from) c.name = to;
  }
  for (ViewRestriction& r : view->view->restrictions) {
    if (r.column == from) r.column = to;
  }
  // Each relation starts the text or follows a top-level AND; its first
  // token is the column, printed by QuoteIdentifier.
  const std::string text = view->view->where_text;
  std::string renamed;
  size_t copied = 0;
  CqlLexer lexer(text);
  bool at_relation = true;
  for (Token token = lexer.Next(); token.kind != TokenKind::kEnd; token = lexer.Next()) {
    const bool is_name =
        token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kQuotedIdentifier;
    if (at_relation && is_name && token.text == from) {
      renamed += text.substr(copied, token.position.offset - copied) + QuoteIdentifier(to);
      copied = lexer.position().offset;
    }
    at_relation = token.IsKeyword("and");
  }
  view->view->where_text = renamed + text.substr(copied);
}

}  // namespace cellfs
