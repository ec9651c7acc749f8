// StartSelect: a SELECT's result as a transcript stream of cqlsh pages.
#include "fs/cql/select_executor.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "engine/cql/select_plan.h"
#include "fs/cql/cqlsh_table.h"
#include "fs/cql/dml_writer.h"
#include "fs/cql/select_query.h"
#include "fs/cql/select_rows.h"
#include "fs/formats/row_json.h"

namespace cellfs::fs {
namespace {

std::string BigEndian(uint64_t value, size_t width) {
  std::string out(width, '\0');
  for (size_t i = width; i-- > 0; value >>= 8) out[i] = static_cast<char>(value & 0xFF);
  return out;
}

// `text` (whole lines) as one transcript entry: "OUTPUT n" and its lines.
void AppendOutputBlock(std::string_view text, std::string* out) {
  if (text.empty()) return;
  *out += "OUTPUT " + std::to_string(std::count(text.begin(), text.end(), '\n')) + "\n";
  out->append(text);
}

class SelectStream final : public ResultStream {
 public:
  SelectStream(SelectQuery query, ReadView view)
      : outputs_(query.outputs),
        json_(query.json),
        aggregate_(query.aggregate),
        printer_(Columns(query), Options(query)),
        reader_(std::move(view), ReaderQuery(query)) {}

  bool Next(std::string* out) override {
    if (finished_) return false;
    std::vector<CqlshRow> page;
    SelectRow row;
    if (aggregate_) {
      // count(*): one row, the other selectors from the first row counted.
      uint64_t count = 0;
      SelectRow first;
      while (reader_.Next(&row)) {
        if (count++ == 0) first = row;
      }
      if (!reader_.status().ok()) return Failed(out);
      page.push_back(Printed(AggregateRow(first, count)));
    } else {
      while (page.size() < kCqlshPageSize && reader_.Next(&row)) page.push_back(Printed(row));
      if (!reader_.status().ok()) return Failed(out);
    }
    std::string text;
    if (!page.empty()) printer_.PrintPage(page, &text);
    if (aggregate_ || page.size() < kCqlshPageSize) {
      printer_.Finish(&text);
      finished_ = true;
    }
    AppendOutputBlock(text, out);
    return true;
  }

 private:
  static std::vector<CqlshColumn> Columns(const SelectQuery& query) {
    if (query.json) return {{"[json]", CqlType::Native(TypeKind::kText)}};
    std::vector<CqlshColumn> columns;
    for (const OutputColumn& output : query.outputs) columns.push_back({output.name, output.type});
    return columns;
  }

  static CqlshPrintOptions Options(const SelectQuery& query) {
    CqlshPrintOptions options;
    options.layout = query.json ? CqlshLayout::kJsonLines : CqlshLayout::kTable;
    return options;
  }

  // The reader reads the row selectors; count(*) is this stream's.
  static SelectQuery ReaderQuery(SelectQuery query) {
    std::erase_if(query.outputs, [](const OutputColumn& output) {
      return output.source == OutputColumn::Source::kCount;
    });
    return query;
  }

  SelectRow AggregateRow(const SelectRow& first, uint64_t count) const {
    SelectRow row;
    size_t from_reader = 0;
    for (const OutputColumn& output : outputs_) {
      if (output.source == OutputColumn::Source::kCount) {
        row.push_back(BigEndian(count, 8));
      } else {
        row.push_back(from_reader < first.size() ? first[from_reader] : std::nullopt);
        ++from_reader;
      }
    }
    return row;
  }

  // A row as the printer takes it: as it is, or SELECT JSON's one object.
  CqlshRow Printed(const SelectRow& row) const {
    if (!json_) return row;
    std::string object = "{";
    for (size_t i = 0; i < outputs_.size(); ++i) {
      if (i > 0) object += ", ";
      AppendJsonText(outputs_[i].name, &object);
      object += ": ";
      if (row[i]) {
        AppendJsonValue(*outputs_[i].type, *row[i], &object);
      } else {
        object += "null";
      }
    }
    object += "}";
    return {std::move(object)};
  }

  bool Failed(std::string* out) {
    finished_ = true;
    // A function's refusal (blobAsInt of a value of another width) in
    // Cassandra's words; a storage error with its kind.
    const Status& status = reader_.status();
    *out += "ERROR " +
            (status.code() == StatusCode::kInvalidArgument ? status.message() : status.ToString()) +
            "\n";
    return true;
  }

  std::vector<OutputColumn> outputs_;
  bool json_;
  bool aggregate_;
  CqlshResultPrinter printer_;
  SelectRowReader reader_;
  bool finished_ = false;
};

}  // namespace

Status StartSelect(Engine* engine, const Statement& statement, const std::string& keyspace,
                   std::unique_ptr<ResultStream>* out) {
  const auto& select = std::get<SelectStatement>(statement.body);
  TableHandle table;
  CELLFS_RETURN_IF_ERROR(
      ResolveTable(engine, keyspace, select.keyspace, select.table, select.table_position, &table));
  SelectPlan plan;
  Status planned = PlanSelect(table->def, select, &plan);
  if (!planned.ok()) return ErrorAt(statement.position, planned.message());
  SelectQuery query;
  CELLFS_RETURN_IF_ERROR(BuildSelectQuery(table, plan, &query));
  ReadView view = engine->NewReadView();
  // A scan reads past the block cache, as exports do (read_view.h).
  if (query.partitions != SelectPlan::Partitions::kKeys) view = view.ForScan();
  *out = std::make_unique<SelectStream>(std::move(query), std::move(view));
  return Status::Ok();
}

}  // namespace cellfs::fs
