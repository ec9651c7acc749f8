// The picture of `cellfs stats --plot FILE.svg`: a table's partition-size
// distribution and token spread (TABLE/@stats.json), drawn as plain SVG.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace cellfs::tools {

// Renders the JSON object of TABLE/@stats.json (the shape of
// fs::FormatStatsJson, fs/formats/table_stats.h) as a standalone SVG document:
// a heading on its own line; left, bars for the p50..p99 and max rows per
// partition and bytes per partition (log scale, a y axis at the powers of
// ten, the mean dashed); right, one chart per ring in "rings" with two bars
// per node, the partitions it would own and their bytes, each as a multiple
// of its mean (a y axis in "x mean", the mean dashed at 1x), and both skews
// in the chart's title. An empty table draws empty charts.
// InvalidArgument, naming the problem, when `stats_json` is not JSON or
// lacks a member of that shape. Members it does not draw are ignored.
Result<std::string> RenderStatsSvg(std::string_view stats_json);

}  // namespace cellfs::tools
