// DdlParser's type expressions (native, collection, tuple, frozen, user
// types) and WITH options (name = value, CLUSTERING ORDER BY, COMPACT STORAGE).
#include <string>

#include "engine/cql/internal/ddl_parser.h"

namespace cellfs {
namespace {

bool IsParameterisedTypeName(const Token& token) {
  return token.IsKeyword("list") || token.IsKeyword("set") || token.IsKeyword("map") ||
         token.IsKeyword("tuple") || token.IsKeyword("frozen");
}

std::string Lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

Status DdlParser::ParseType(TypeExpr* out) {
  const Token& token = Peek();
  out->position = token.position;
  if (token.kind == TokenKind::kString) {
    // Cassandra's 'org.apache...' custom types need Java classes.
    return Status::NotSupported(token.position.ToString() + ": unsupported custom type '" +
                                token.text + "': use a native, collection or user type");
  }
  if (IsParameterisedTypeName(token)) {
    Token name = Take();
    return ParseTypeParams(name, out);
  }
  // A native type name or a user type, possibly keyspace-qualified; the
  // catalog tells them apart. Native names are not reserved words.
  std::string first;
  CELLFS_RETURN_IF_ERROR(ParseName("a type", &first));
  if (TakePunct('.')) {
    out->keyspace = std::move(first);
    return ParseName("a type name", &out->name);
  }
  out->name = std::move(first);
  return Status::Ok();
}

// The <...> of list<T>, set<T>, map<K, V>, tuple<T, ...> and frozen<T>. The
// lexer never forms ">>", so nested closers arrive as separate '>' tokens.
Status DdlParser::ParseTypeParams(const Token& name, TypeExpr* out) {
  if (!Peek().IsPunct('<')) return Expected("'<' after " + name.text);
  if (type_depth_ >= kMaxTypeDepth) {
    return ErrorAt(name.position,
                   "type nested more than " + std::to_string(kMaxTypeDepth) + " levels deep");
  }
  Take();
  ++type_depth_;
  Status status = ParseTypeParamList(name, out);
  --type_depth_;
  return status;
}

Status DdlParser::ParseTypeParamList(const Token& name, TypeExpr* out) {
  auto parse_param = [&]() -> Status {
    TypeExpr param;
    CELLFS_RETURN_IF_ERROR(ParseType(&param));
    out->params.push_back(std::move(param));
    return Status::Ok();
  };
  CELLFS_RETURN_IF_ERROR(parse_param());
  if (name.text == "frozen") {
    // frozen is a flag on the wrapped type, not a type of its own.
    TypeExpr inner = std::move(out->params.front());
    *out = std::move(inner);
    out->frozen = true;
    out->position = name.position;
  } else {
    out->name = name.text;
    if (name.text == "map") {
      CELLFS_RETURN_IF_ERROR(ExpectPunct(','));
      CELLFS_RETURN_IF_ERROR(parse_param());
    } else if (name.text == "tuple") {
      while (TakePunct(',')) CELLFS_RETURN_IF_ERROR(parse_param());
    }
  }
  return ExpectPunct('>');
}

Status DdlParser::ParseOptions(std::vector<TableOption>* options, CreateTable* table) {
  do {
    if (table != nullptr && PeekKeyword("clustering")) {
      CELLFS_RETURN_IF_ERROR(ParseClusteringOrder(table));
    } else if (table != nullptr && PeekKeyword("compact")) {
      const SourcePosition position = Take().position;
      CELLFS_RETURN_IF_ERROR(ExpectKeyword("storage"));
      if (table->compact_storage) return ErrorAt(position, "duplicate option COMPACT STORAGE");
      table->compact_storage = true;
    } else {
      CELLFS_RETURN_IF_ERROR(ParseOption(options));
    }
  } while (TakeKeyword("and"));
  // Catches the common slip of a missing AND with a clearer word than "';'".
  if (!Peek().IsPunct(';') && Peek().kind != TokenKind::kEnd) return Expected("AND or ';'");
  return Status::Ok();
}

Status DdlParser::ParseOption(std::vector<TableOption>* options) {
  const Token& token = Peek();
  if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kQuotedIdentifier) {
    return Expected("an option name");
  }
  const SourcePosition position = token.position;
  TableOption option;
  option.name = Lower(Take().text);
  for (const TableOption& existing : *options) {
    if (existing.name == option.name) {
      return ErrorAt(position, "duplicate option '" + option.name + "'");
    }
  }
  CELLFS_RETURN_IF_ERROR(ExpectPunct('='));
  CELLFS_RETURN_IF_ERROR(ParseOptionValue(&option.value));
  options->push_back(std::move(option));
  return Status::Ok();
}

// CLUSTERING ORDER BY (c1 ASC, c2 DESC, ...); a column without a direction
// is ASC, more lenient than Cassandra, which requires one.
Status DdlParser::ParseClusteringOrder(CreateTable* table) {
  const SourcePosition position = Take().position;  // CLUSTERING
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("order"));
  CELLFS_RETURN_IF_ERROR(ExpectKeyword("by"));
  if (!table->clustering_order.empty()) {
    return ErrorAt(position, "duplicate option CLUSTERING ORDER BY");
  }
  return ParseParenthesisedList("clustering column name", [&]() -> Status {
    ClusteringOrderExpr order;
    order.position = Peek().position;
    CELLFS_RETURN_IF_ERROR(ParseName("clustering column name", &order.column));
    if (TakeKeyword("desc")) {
      order.descending = true;
    } else {
      (void)TakeKeyword("asc");
    }
    table->clustering_order.push_back(std::move(order));
    return Status::Ok();
  });
}

Status DdlParser::ParseOptionValue(OptionValue* out) {
  const Token& token = Peek();
  out->position = token.position;
  switch (token.kind) {
    case TokenKind::kString:
      out->kind = OptionValue::Kind::kString;
      break;
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kUuid:  // table ids: WITH id = 5a1c395e-...
      out->kind = OptionValue::Kind::kNumber;
      break;
    case TokenKind::kIdentifier:
      if (!token.IsKeyword("true") && !token.IsKeyword("false")) {
        return Expected("an option value (a string, number, boolean or map)");
      }
      out->kind = OptionValue::Kind::kBoolean;
      break;
    default:
      if (token.IsPunct('{')) return ParseOptionMap(out);
      return Expected("an option value (a string, number, boolean or map)");
  }
  out->text = Take().text;
  return Status::Ok();
}

// {'k': 'v', 'k2': 3, 'k3': true}, trailing comma allowed; every value is
// kept as text, since option maps are interpreted per option by the catalog.
Status DdlParser::ParseOptionMap(OptionValue* out) {
  out->kind = OptionValue::Kind::kMap;
  Take();  // '{'
  while (!TakePunct('}')) {
    const SourcePosition key_position = Peek().position;
    std::pair<std::string, std::string> entry;
    CELLFS_RETURN_IF_ERROR(ParseMapConstant("a map key", &entry.first));
    for (const auto& existing : out->entries) {
      if (existing.first == entry.first) {
        return ErrorAt(key_position, "duplicate map key '" + entry.first + "'");
      }
    }
    CELLFS_RETURN_IF_ERROR(ExpectPunct(':'));
    CELLFS_RETURN_IF_ERROR(ParseMapConstant("a map value", &entry.second));
    out->entries.push_back(std::move(entry));
    if (!TakePunct(',') && !Peek().IsPunct('}')) return Expected("',' or '}'");
  }
  return Status::Ok();
}

Status DdlParser::ParseMapConstant(std::string_view what, std::string* out) {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kFloat:
    case TokenKind::kUuid:
      break;
    default:
      if (!token.IsKeyword("true") && !token.IsKeyword("false")) return Expected(what);
  }
  *out = Take().text;
  return Status::Ok();
}

}  // namespace cellfs
