// The picture of `cellfs stats --plot FILE.svg`: a table's partition-size
// distribution and token spread (TABLE/@stats.json), drawn as plain SVG.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::tools {

// Renders the JSON object of TABLE/@stats.json (the shape of
// fs::FormatStatsJson, fs/formats/table_stats.h) as a standalone SVG document:
// left, bars for the p50..p99 and max rows per partition and bytes per
// partition (log scale); right, one chart per ring in "rings" with a bar
// per node (partitions it would own), a dashed line at the mean and the
// skew in the chart's title. An empty table draws empty charts.
// InvalidArgument, naming the problem, when `stats_json` is not JSON or
// lacks a member of that shape. Members it does not draw are ignored.
Result<std::string> RenderStatsSvg(std::string_view stats_json);

}  // namespace cellfs::tools
