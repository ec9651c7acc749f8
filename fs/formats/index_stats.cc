// Index statistics from a walk of each index in value order.
#include "fs/formats/index_stats.h"

#include <memory>

#include "engine/cql/key_codec.h"
#include "engine/cql/literal.h"
#include "engine/store/index_iterator.h"

namespace cellfs::fs {
namespace {

// The literal text of an index's value component; hex when it is not one
// value of the indexed type (an ENTRIES index keys a key and a value).
std::string ValueText(const TableSchema& table, const IndexSchema& index,
                      std::string_view component) {
  TypePtr type = IndexedValueType(table, index);
  std::string_view in = component;
  std::string value;
  if (type != nullptr && DecodeKeyComponent(*type, SortOrder::kAsc, &in, &value).ok() &&
      in.empty()) {
    return FormatLiteral(*type, value);
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex = "0x";
  for (char c : component) {
    hex += kDigits[static_cast<uint8_t>(c) >> 4];
    hex += kDigits[static_cast<uint8_t>(c) & 0xF];
  }
  return hex;
}

Status Walk(const ReadView& view, const TableHandle& table, size_t number, IndexStats* stats) {
  auto made = view.NewIndexIterator(table, number, IndexBounds{});
  if (!made.ok()) return made.status();
  IndexIterator& it = *made.value();
  std::string current;
  uint64_t current_matches = 0;
  auto close_value = [&] {
    if (current_matches > stats->widest_matches) {
      stats->widest_matches = current_matches;
      stats->widest_value = ValueText(*table, table->indexes[number], current);
    }
  };
  for (; it.Valid(); it.Next()) {
    ++stats->matches;
    if (stats->values == 0 || it.value() != current) {
      if (stats->values != 0) close_value();
      current.assign(it.value());
      current_matches = 0;
      ++stats->values;
    }
    ++current_matches;
  }
  if (stats->values != 0) close_value();
  stats->high_cardinality =
      stats->matches >= kHighCardinalityMatches && stats->values * 2 > stats->matches;
  return it.status();
}

}  // namespace

Status ComputeIndexStats(const ReadView& view, const TableHandle& table,
                         std::vector<IndexStats>* out) {
  out->clear();
  for (size_t i = 0; i < table->indexes.size() && i < table->def.indexes.size(); ++i) {
    IndexStats stats;
    stats.name = table->def.indexes[i].name;
    stats.target = IndexTargetText(table->def.indexes[i]);
    stats.built = table->indexes[i].built;
    if (stats.built) CELLFS_RETURN_IF_ERROR(Walk(view, table, i, &stats));
    out->push_back(std::move(stats));
  }
  return Status::Ok();
}

std::string FormatIndexStatsText(const std::vector<IndexStats>& indexes) {
  if (indexes.empty()) return "";
  std::string text = "Indexes (distinct values / matches, widest value):\n";
  std::string warnings;
  for (const IndexStats& index : indexes) {
    text += "  " + index.name + " (" + index.target + "): ";
    if (!index.built) {
      text += "being built\n";
      continue;
    }
    text +=
        std::to_string(index.values) + " values / " + std::to_string(index.matches) + " matches";
    if (index.widest_matches != 0) {
      text += ", widest " + index.widest_value + " with " + std::to_string(index.widest_matches);
    }
    text += "\n";
    if (index.high_cardinality) {
      warnings += "  index " + index.name + " has " + std::to_string(index.values) +
                  " distinct values over " + std::to_string(index.matches) +
                  " matches: a high-cardinality index; a lookup by a table keyed by the column "
                  "(or a materialized view) reads one partition instead\n";
    }
  }
  return text + warnings;
}

}  // namespace cellfs::fs
