// StartSelect: a SELECT's result as a transcript stream of cqlsh pages.
#include "fs/cql/select_executor.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "engine/cql/select_plan.h"
#include "fs/cql/cqlsh_table.h"
#include "fs/cql/dml_writer.h"
#include "fs/cql/select_aggregation.h"
#include "fs/cql/select_query.h"
#include "fs/cql/select_rows.h"
#include "fs/formats/row_json.h"

namespace cellfs::fs {
namespace {

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
        printer_(Columns(query), Options(query)),
        aggregation_(query.aggregate ? std::make_unique<SelectAggregation>(query.outputs)
                                     : nullptr),
        reader_(std::move(view), ReaderQuery(std::move(query), aggregation_.get())) {}

  bool Next(std::string* out) override {
    if (finished_) return false;
    std::vector<CqlshRow> page;
    SelectRow row;
    if (aggregation_ != nullptr) {
      // One row: the aggregates over every row read.
      while (reader_.Next(&row)) aggregation_->Add(row);
      if (!reader_.status().ok()) return Failed(reader_.status(), out);
      SelectRow result;
      Status computed = aggregation_->Result(&result);
      if (!computed.ok()) return Failed(computed, out);
      page.push_back(Printed(result));
    } else {
      while (page.size() < kCqlshPageSize && reader_.Next(&row)) page.push_back(Printed(row));
      if (!reader_.status().ok()) return Failed(reader_.status(), out);
    }
    std::string text;
    if (!page.empty()) printer_.PrintPage(page, &text);
    if (aggregation_ != nullptr || page.size() < kCqlshPageSize) {
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

  // The reader reads the outputs, or for an aggregate the row-level parts
  // of every row: as in Cassandra (SelectStatement.getDataLimits, no row
  // limit when everything is aggregated), LIMIT bounds the one result row,
  // not the rows aggregated.
  static SelectQuery ReaderQuery(SelectQuery query, const SelectAggregation* aggregation) {
    if (aggregation != nullptr) {
      query.outputs = aggregation->inputs();
      query.limit = 0;
    }
    return query;
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

  bool Failed(const Status& status, std::string* out) {
    finished_ = true;
    // A function's refusal (blobAsInt of a value of another width) in
    // Cassandra's words; a storage error with its kind.
    *out += "ERROR " +
            (status.code() == StatusCode::kInvalidArgument ? status.message() : status.ToString()) +
            "\n";
    return true;
  }

  std::vector<OutputColumn> outputs_;
  bool json_;
  CqlshResultPrinter printer_;
  std::unique_ptr<SelectAggregation> aggregation_;  // null unless the query aggregates
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
