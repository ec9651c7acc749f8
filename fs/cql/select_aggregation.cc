// SelectAggregation: outputs compiled into row-level inputs, aggregators
// and the functions applied to their results.
#include "fs/cql/select_aggregation.h"

#include <utility>

#include "engine/cql/big_endian.h"

namespace cellfs::fs {
namespace {}  // namespace

SelectAggregation::SelectAggregation(std::vector<OutputColumn> outputs)
    : outputs_(std::move(outputs)) {
  for (const OutputColumn& output : outputs_) nodes_.push_back(Compile(output));
}

SelectAggregation::Node SelectAggregation::Compile(const OutputColumn& column) {
  using Source = OutputColumn::Source;
  Node node;
  node.column = &column;
  if (column.source == Source::kCount) {
    node.kind = Node::Kind::kRowCount;
  } else if (column.source == Source::kAggregate) {
    node.kind = Node::Kind::kAggregate;
    node.index = aggregators_.size();
    aggregators_.emplace_back(column.aggregate);
    aggregator_inputs_.push_back(inputs_.size());
    inputs_.push_back(column.args[0]);
  } else if (HasAggregate(column)) {
    node.kind = Node::Kind::kFunction;  // only functions hold other outputs
    for (const OutputColumn& arg : column.args) node.args.push_back(Compile(arg));
  } else {
    node.kind = Node::Kind::kFirstRow;
    node.index = inputs_.size();
    inputs_.push_back(column);
  }
  return node;
}

void SelectAggregation::Add(const SelectRow& row) {
  if (rows_++ == 0) first_ = row;
  for (size_t i = 0; i < aggregators_.size(); ++i) {
    aggregators_[i].Add(row[aggregator_inputs_[i]]);
  }
}

Status SelectAggregation::Evaluate(const Node& node, std::optional<std::string>* out) const {
  out->reset();
  switch (node.kind) {
    case Node::Kind::kFirstRow:
      if (rows_ > 0) *out = first_[node.index];
      return Status::Ok();
    case Node::Kind::kRowCount:
      *out = BigEndianBytes(rows_, 8);
      return Status::Ok();
    case Node::Kind::kAggregate:
      return aggregators_[node.index].Result(out);
    case Node::Kind::kFunction: {
      std::vector<std::optional<std::string>> args(node.args.size());
      std::vector<TypePtr> types;
      for (size_t i = 0; i < node.args.size(); ++i) {
        CELLFS_RETURN_IF_ERROR(Evaluate(node.args[i], &args[i]));
        types.push_back(node.args[i].column->type);
      }
      return ApplyFunction(node.column->function, types, args, out);
    }
  }
  return Status::Ok();
}

Status SelectAggregation::Result(SelectRow* out) const {
  out->assign(nodes_.size(), std::nullopt);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    CELLFS_RETURN_IF_ERROR(Evaluate(nodes_[i], &(*out)[i]));
  }
  return Status::Ok();
}

}  // namespace cellfs::fs
