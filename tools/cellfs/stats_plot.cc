// `cellfs stats --plot`: @stats.json read with nlohmann::json, drawn as SVG
// text by hand (rectangles, lines and labels need no library).
#include "tools/cellfs/stats_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tools/cellfs/progress.h"

namespace cellfs::tools {
namespace {

using nlohmann::json;

constexpr double kWidth = 1000, kHeight = 600;
constexpr const char* kRowsColor = "#4e79a7";
constexpr const char* kBytesColor = "#f28e2b";
constexpr const char* kNodeColor = "#59a14f";
constexpr const char* kMeanColor = "#e15759";
constexpr double kMeanLabelWidth = 70;  // right of a chart's bars
constexpr double kAxisWidth = 46;       // left of a chart's bars: the y axis and its labels
constexpr const char* kPercentiles[] = {"p50", "p75", "p95", "p98", "p99", "max"};

struct Ring {
  uint64_t nodes = 0;
  std::vector<uint64_t> partitions;  // per node
  std::vector<uint64_t> bytes;       // per node (missing entries: 0)
  double partition_skew = 0, byte_skew = 0;
};

struct PlotData {
  std::string keyspace, table;
  uint64_t partitions = 0, rows = 0, bytes = 0;
  std::vector<uint64_t> rows_per_partition;   // in kPercentiles order
  std::vector<uint64_t> bytes_per_partition;  // in kPercentiles order
  double rows_mean = 0, bytes_mean = 0;       // per partition
  std::vector<Ring> rings;
};

// The parsers below throw nlohmann::json's exceptions for a missing member
// or a wrong type, and std::invalid_argument for a count below zero (which
// nlohmann::json would silently wrap around).
uint64_t CountOf(const json& value, std::string_view name) {
  if (!value.is_number_unsigned()) {
    throw std::invalid_argument("'" + std::string(name) + "' is not a count: " + value.dump());
  }
  return value.get<uint64_t>();
}

uint64_t CountMember(const json& object, const char* name) {
  return CountOf(object.at(name), name);
}

std::vector<uint64_t> ParsePercentiles(const json& object) {
  std::vector<uint64_t> out;
  for (const char* name : kPercentiles) out.push_back(CountMember(object, name));
  return out;
}

std::vector<uint64_t> ParseCounts(const json& array, const char* name) {
  if (!array.is_array()) throw std::invalid_argument(std::string("'") + name + "' is not an array");
  std::vector<uint64_t> out;
  for (const json& value : array) out.push_back(CountOf(value, name));
  return out;
}

PlotData ParsePlotData(const json& stats) {
  PlotData data;
  data.keyspace = stats.at("keyspace").get<std::string>();
  data.table = stats.at("table").get<std::string>();
  data.partitions = CountMember(stats, "partitions");
  data.rows = CountMember(stats, "rows");
  data.bytes = CountMember(stats, "bytes");
  data.rows_per_partition = ParsePercentiles(stats.at("rows_per_partition"));
  data.bytes_per_partition = ParsePercentiles(stats.at("bytes_per_partition"));
  const json& rings = stats.at("rings");
  if (!rings.is_array()) throw std::invalid_argument("'rings' is not an array");
  for (const json& ring : rings) {
    data.rings.push_back(
        {CountMember(ring, "nodes"), ParseCounts(ring.at("partitions"), "partitions"),
         ParseCounts(ring.at("bytes"), "bytes"), ring.at("partition_skew").get<double>(),
         ring.at("byte_skew").get<double>()});
  }
  if (data.partitions > 0) {
    data.rows_mean = static_cast<double>(data.rows) / static_cast<double>(data.partitions);
    data.bytes_mean = static_cast<double>(data.bytes) / static_cast<double>(data.partitions);
  }
  return data;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Number(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, value);
  return buf;
}

// Counts as labels: exact below 10000, then "12.3k", "4.5M", "1.2G".
std::string Compact(uint64_t count) {
  if (count < 10'000) return std::to_string(count);
  auto value = static_cast<double>(count);
  if (value < 999'950.0) return Number("%.1fk", value / 1e3);
  if (value < 999'950'000.0) return Number("%.1fM", value / 1e6);
  return Number("%.1fG", value / 1e9);
}

struct Box {
  double x, y, width, height;
};

// The body of an SVG document, element by element.
class Svg {
 public:
  void Rect(double x, double y, double width, double height, std::string_view fill) {
    body_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(width) +
             "\" height=\"" + Num(height) + "\" fill=\"" + std::string(fill) + "\"/>\n";
  }
  void Line(double x1, double y1, double x2, double y2, std::string_view stroke, bool dashed) {
    body_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" +
             Num(y2) + "\" stroke=\"" + std::string(stroke) + "\" stroke-width=\"" +
             (dashed ? "2\" stroke-dasharray=\"6 4\"" : "1\"") + "/>\n";
  }
  void Text(double x, double y, std::string_view text, std::string_view anchor = "middle",
            int size = 11, bool bold = false) {
    body_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" +
             std::string(anchor) + "\" font-size=\"" + std::to_string(size) + "\"" +
             (bold ? " font-weight=\"bold\"" : "") + ">" + XmlEscape(text) + "</text>\n";
  }
  std::string Document(std::string_view title) const {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           Num(kWidth) + "\" height=\"" + Num(kHeight) + "\" viewBox=\"0 0 " + Num(kWidth) + " " +
           Num(kHeight) + "\" font-family=\"sans-serif\">\n<title>" + XmlEscape(title) +
           "</title>\n" + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body_ +
           "</svg>\n";
  }

 private:
  static std::string Num(double value) { return Number("%.1f", value); }
  std::string body_;
};

// The y axis of a chart: its line, and a tick and label at each of `ticks`
// (heights above `base`).
void DrawAxis(Svg& svg, double x, double top, double base,
              const std::vector<std::pair<double, std::string>>& ticks) {
  svg.Line(x, top, x, base, "#333", false);
  for (const auto& [height, label] : ticks) {
    svg.Line(x - 4, base - height, x, base - height, "#333", false);
    svg.Text(x - 6, base - height + 4, label, "end", 10);
  }
}

// Bars for p50..max on a log scale (partition sizes span decades), with a
// y axis at the powers of ten and the mean dashed.
void DrawDistribution(Svg& svg, const Box& box, std::string_view title,
                      const std::vector<uint64_t>& values, double mean,
                      std::string (*label)(uint64_t), const char* color) {
  svg.Text(box.x, box.y + 14, title, "start", 13, true);
  const double top = box.y + 40, base = box.y + box.height - 20;
  const double left = box.x + kAxisWidth, width = box.width - kAxisWidth - kMeanLabelWidth;
  const double max = static_cast<double>(*std::max_element(values.begin(), values.end()));
  auto scaled = [&](double value) {
    return max > 0 ? std::log10(1 + value) / std::log10(1 + max) * (base - top) : 0;
  };
  std::vector<std::pair<double, std::string>> ticks = {{0, "0"}};
  const int decades = max > 0 ? static_cast<int>(std::floor(std::log10(max))) : -1;
  const int step = std::max(1, (decades + 1 + 4) / 5);  // at most 5 labels above 0
  for (int d = 0; d <= decades; d += step) {
    const auto power = static_cast<uint64_t>(std::llround(std::pow(10.0, d)));
    ticks.emplace_back(scaled(static_cast<double>(power)), label(power));
  }
  DrawAxis(svg, left, top, base, ticks);
  const double slot = width / static_cast<double>(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    double height = scaled(static_cast<double>(values[i]));
    double x = left + static_cast<double>(i) * slot;
    svg.Rect(x + slot * 0.2, base - height, slot * 0.6, height, color);
    svg.Text(x + slot / 2, base - height - 4, label(values[i]));
    svg.Text(x + slot / 2, base + 14, kPercentiles[i]);
  }
  svg.Line(left, base, left + width, base, "#333", false);
  if (max == 0) return;
  const double y = base - scaled(mean);
  svg.Line(left, y, left + width, y, kMeanColor, true);
  svg.Text(left + width + 6, y + 4, "mean " + Number("%.1f", mean), "start", 10);
}

// Per node, two bars side by side: the partitions it would own and their
// bytes, each as a multiple of its mean over the nodes (so the tallest of
// each is its skew); the mean (1x) dashed.
void DrawRing(Svg& svg, const Box& box, const Ring& ring) {
  svg.Text(box.x, box.y + 14,
           std::to_string(ring.nodes) + " nodes: partition skew " +
               Number("%.2f", ring.partition_skew) + ", byte skew " +
               Number("%.2f", ring.byte_skew),
           "start", 12, true);
  const double top = box.y + 34, base = box.y + box.height - 18;
  const double left = box.x + kAxisWidth, width = box.width - kAxisWidth - kMeanLabelWidth;
  const std::vector<uint64_t>& counts = ring.partitions;
  const size_t nodes = counts.size();
  auto mean_of = [&](const std::vector<uint64_t>& values) {
    double sum = 0;
    for (uint64_t value : values) sum += static_cast<double>(value);
    return nodes == 0 ? 0.0 : sum / static_cast<double>(nodes);
  };
  const double partition_mean = mean_of(counts), byte_mean = mean_of(ring.bytes);
  auto byte_count = [&](size_t i) { return i < ring.bytes.size() ? ring.bytes[i] : 0; };
  auto ratio = [](uint64_t value, double mean) {
    return mean > 0 ? static_cast<double>(value) / mean : 0.0;
  };
  double top_ratio = 0;
  for (size_t i = 0; i < nodes; ++i) {
    top_ratio =
        std::max({top_ratio, ratio(counts[i], partition_mean), ratio(byte_count(i), byte_mean)});
  }
  auto scaled = [&](double r) { return top_ratio > 0 ? r / top_ratio * (base - top) : 0; };
  std::vector<std::pair<double, std::string>> ticks = {{0, "0x"}};
  if (top_ratio > 0) {
    ticks.emplace_back(scaled(1), "1x");
    if (top_ratio >= 1.5) ticks.emplace_back(scaled(top_ratio), Number("%.1fx", top_ratio));
  }
  DrawAxis(svg, left, top, base, ticks);
  const double slot = nodes == 0 ? width : width / static_cast<double>(nodes);
  for (size_t i = 0; i < nodes; ++i) {
    const double x = left + static_cast<double>(i) * slot;
    const double partitions = scaled(ratio(counts[i], partition_mean));
    const double bytes = scaled(ratio(byte_count(i), byte_mean));
    svg.Rect(x + slot * 0.1, base - partitions, slot * 0.4, partitions, kNodeColor);
    svg.Rect(x + slot * 0.5, base - bytes, slot * 0.4, bytes, kBytesColor);
    if (nodes <= 6) {
      svg.Text(x + slot * 0.3, base - partitions - 3, Compact(counts[i]), "middle", 10);
    }
    svg.Text(x + slot / 2, base + 13, std::to_string(i + 1), "middle", 10);
  }
  svg.Line(left, base, left + width, base, "#333", false);
  if (top_ratio == 0) return;
  const double y = base - scaled(1);
  svg.Line(left, y, left + width, y, kMeanColor, true);
  svg.Text(left + width + 6, y + 4, "mean", "start", 10);
}

std::string Render(const PlotData& data) {
  Svg svg;
  std::string name = data.keyspace + "." + data.table;
  // The heading has a line of its own, above both panels.
  svg.Text(20, 26,
           name + ": partition sizes (" + std::to_string(data.partitions) + " partitions, " +
               std::to_string(data.rows) + " rows, " + FormatBytes(data.bytes) + ")",
           "start", 15, true);
  DrawDistribution(svg, {20, 50, 450, 270}, "rows per partition (log scale)",
                   data.rows_per_partition, data.rows_mean, Compact, kRowsColor);
  DrawDistribution(svg, {20, 325, 450, 270}, "bytes per partition (log scale)",
                   data.bytes_per_partition, data.bytes_mean, FormatBytes, kBytesColor);
  svg.Text(530, 64, "token spread per node, as a multiple of the mean:", "start", 13, true);
  svg.Text(530, 80, "partitions owned (green), their bytes (orange)", "start", 11);
  if (data.rings.empty()) svg.Text(530, 110, "no rings in the statistics", "start", 12);
  const double ring_height =
      data.rings.empty() ? 0 : 505.0 / static_cast<double>(data.rings.size());
  for (size_t i = 0; i < data.rings.size(); ++i) {
    DrawRing(svg, {530, 90 + static_cast<double>(i) * ring_height, 450, ring_height - 10},
             data.rings[i]);
  }
  return svg.Document(name + " statistics");
}

}  // namespace

Result<std::string> RenderStatsSvg(std::string_view stats_json) {
  PlotData data;
  try {
    data = ParsePlotData(json::parse(stats_json));
  } catch (const json::exception& e) {
    return Status::InvalidArgument(std::string("not the JSON of @stats.json: ") + e.what());
  } catch (const std::invalid_argument& e) {
    return Status::InvalidArgument(std::string("not the JSON of @stats.json: ") + e.what());
  }
  return Render(data);
}

}  // namespace cellfs::tools
