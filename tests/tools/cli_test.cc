// The pure parts of `cellfs load` and `cellfs stats`: the progress line's
// text and the SVG drawn from @stats.json.
#include <catch2/catch.hpp>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tools/cellfs/progress.h"
#include "tools/cellfs/stats_plot.h"

namespace cellfs::tools {
namespace {

TEST_CASE("byte counts print in decimal units with one decimal", "[progress]") {
  CHECK(FormatBytes(0) == "0 B");
  CHECK(FormatBytes(999) == "999 B");
  CHECK(FormatBytes(1000) == "1.0 kB");
  CHECK(FormatBytes(1500) == "1.5 kB");
  CHECK(FormatBytes(999'949) == "999.9 kB");
  CHECK(FormatBytes(999'950) == "1.0 MB");  // never "1000.0 kB"
  CHECK(FormatBytes(12'300'000) == "12.3 MB");
  CHECK(FormatBytes(4'000'000'000) == "4.0 GB");
}

TEST_CASE("rates are counts per second, compact", "[progress]") {
  CHECK(FormatRate(100, 0) == "0");
  CHECK(FormatRate(0, 5) == "0");
  CHECK(FormatRate(500, 1) == "500");
  CHECK(FormatRate(1000, 2) == "500");
  CHECK(FormatRate(45'600, 1) == "45.6k");
  CHECK(FormatRate(999'600, 1) == "999.6k");
  CHECK(FormatRate(4'500'000, 1) == "4.5M");
}

TEST_CASE("the ETA extrapolates the rate so far to the bytes left", "[progress]") {
  ProgressState state;
  SECTION("unknown without a total, before any byte or any time") {
    CHECK(FormatEta(state) == "--:--");
    state.bytes_total = 100;
    CHECK(FormatEta(state) == "--:--");
    state.bytes_done = 10;
    CHECK(FormatEta(state) == "--:--");
  }
  SECTION("minutes and seconds, then hours") {
    state.bytes_total = 100;
    state.bytes_done = 50;
    state.seconds = 10;
    CHECK(FormatEta(state) == "0:10");
    state.bytes_done = 1;
    state.seconds = 37;  // 99 bytes left at 1 byte per 37 s: 3663 s
    CHECK(FormatEta(state) == "1:01:03");
  }
  SECTION("done is zero time left, even past the total") {
    state.bytes_total = 100;
    state.seconds = 3;
    state.bytes_done = 100;
    CHECK(FormatEta(state) == "0:00");
    state.bytes_done = 150;
    CHECK(FormatEta(state) == "0:00");
  }
}

TEST_CASE("the progress line shows bar, share, sizes, lines, rates and ETA", "[progress]") {
  ProgressState state{
      .bytes_done = 5'000'000, .bytes_total = 10'000'000, .lines = 40'000, .seconds = 2};
  std::string line = FormatProgressLine("rows.jsonl", state, 200);
  CHECK(line.starts_with("rows.jsonl [###############---------------]"));
  CHECK(line.find(" 50%") != std::string::npos);
  CHECK(line.find("5.0 MB/10.0 MB") != std::string::npos);
  CHECK(line.find("40000 lines") != std::string::npos);
  CHECK(line.find("20.0k lines/s") != std::string::npos);
  CHECK(line.find("2.5 MB/s") != std::string::npos);
  CHECK(line.ends_with("ETA 0:02"));

  SECTION("a narrower line drops the least telling figures first") {
    std::string line80 = FormatProgressLine("rows.jsonl", state, 80);
    CHECK(line80.size() <= 80);
    CHECK(line80.starts_with("rows.jsonl [#"));
    CHECK(line80.find(" 50%") != std::string::npos);
    CHECK(line80.find("20.0k lines/s") != std::string::npos);
    CHECK(line80.find("MB/s") == std::string::npos);
    CHECK(line80.ends_with("ETA 0:02"));
    std::string line30 = FormatProgressLine("rows.jsonl", state, 30);
    CHECK(line30 == "rows.jsonl  50%  ETA 0:02");
  }
  SECTION("without a total: no bar, share or ETA") {
    state.bytes_total = 0;
    std::string piped = FormatProgressLine("stdin", state, 200);
    CHECK(piped.find('[') == std::string::npos);
    CHECK(piped.find('%') == std::string::npos);
    CHECK(piped.find("ETA") == std::string::npos);
    CHECK(piped.find("40000 lines") != std::string::npos);
  }
  SECTION("a long name keeps its end") {
    std::string shortened =
        FormatProgressLine("/a/very/long/directory/name/that/goes/on/rows-2024.jsonl", state, 200);
    CHECK(shortened.starts_with("...es/on/rows-2024.jsonl "));  // 24 columns of name
  }
}

TEST_CASE("the progress line never exceeds the width it is given", "[progress]") {
  std::mt19937_64 random(42);
  for (int i = 0; i < 2000; ++i) {
    ProgressState state;
    state.bytes_total = random() % 3 == 0 ? 0 : random() % 10'000'000'000;
    state.bytes_done =
        state.bytes_total == 0 ? random() % 1'000'000 : random() % (state.bytes_total + 1);
    state.lines = random() % 100'000'000;
    state.seconds = static_cast<double>(random() % 100'000) / 100.0;
    size_t width = 10 + random() % 190;
    std::string label(random() % 60, 'f');
    std::string line = FormatProgressLine(label, state, width);
    INFO(line);
    CHECK(line.size() <= width);
    CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("a load's summary names the file, the counts and the rate", "[progress]") {
  ProgressState state{.bytes_done = 1000, .bytes_total = 1000, .lines = 4002, .seconds = 2};
  CHECK(FormatLoadSummary("rows.csv", 4000, 2, state) ==
        "loaded rows.csv: 4000 rows stored, 2 refused, 2.0k lines/s");
}

std::string ReadAll(FILE* file) {
  std::rewind(file);
  std::string out;
  int c;
  while ((c = std::fgetc(file)) != EOF) out += static_cast<char>(c);
  return out;
}

TEST_CASE("the meter counts what is sent and draws only when asked", "[progress]") {
  FILE* out = std::tmpfile();
  REQUIRE(out != nullptr);
  SECTION("not on a terminal: silent") {
    ProgressMeter meter("f", 100, /*draw=*/false, out);
    meter.Advance(40, 3);
    meter.Advance(60, 2);
    meter.Clear();
    CHECK(meter.State().bytes_done == 100);
    CHECK(meter.State().lines == 5);
    CHECK(meter.State().bytes_total == 100);
    CHECK(ReadAll(out).empty());
  }
  SECTION("on a terminal: the first advance draws, clear erases the line") {
    ProgressMeter meter("f", 100, /*draw=*/true, out);
    meter.Advance(40, 3);
    std::string drawn = ReadAll(out);
    CHECK(drawn.starts_with("\rf ["));
    CHECK(drawn.find("3 lines") != std::string::npos);
    std::fseek(out, 0, SEEK_END);
    meter.Clear();
    CHECK(ReadAll(out).ends_with("\r\033[K"));
  }
  std::fclose(out);
}

// ---- The stats picture.

std::string StatsJson(const std::string& keyspace = "ks") {
  return R"({"keyspace":")" + keyspace + R"(","table":"t","partitions":6,"rows":120,"cells":240,
    "bytes":9000,
    "rows_per_partition":{"p50":0,"p75":10,"p95":20,"p98":20,"p99":30,"min":0,"max":40},
    "bytes_per_partition":{"p50":100,"p75":200,"p95":400,"p98":800,"p99":1600,"min":50,"max":3200},
    "widest":[{"name":"a","token":-5,"rows":40,"bytes":3200}],
    "rings":[{"nodes":3,"partitions":[10,20,30],"bytes":[1,2,3],"partition_skew":1.5,"byte_skew":1.5},
             {"nodes":6,"partitions":[1,1,1,1,1,1],"bytes":[1,1,1,1,1,1],"partition_skew":1.0,"byte_skew":1.0},
             {"nodes":12,"partitions":[0,0,0,0,0,0,0,0,0,0,0,12],"bytes":[0,0,0,0,0,0,0,0,0,0,0,5],
              "partition_skew":12.0,"byte_skew":12.0}],
    "wide_partitions":0,"warnings":[]})";
}

double Attribute(std::string_view element, std::string_view name) {
  std::string key = " " + std::string(name) + "=\"";
  size_t at = element.find(key);
  REQUIRE(at != std::string_view::npos);
  return std::stod(std::string(element.substr(at + key.size())));
}

// Every element named `tag`, each as its text up to its end.
std::vector<std::string> Elements(const std::string& svg, const std::string& tag) {
  std::vector<std::string> out;
  for (size_t at = svg.find("<" + tag + " "); at != std::string::npos;
       at = svg.find("<" + tag + " ", at + 1)) {
    out.push_back(svg.substr(at, svg.find('>', at) - at + 1));
  }
  return out;
}

struct Rect {
  double x, y, width, height;
};

// The bars, in drawing order: rows per partition (6), bytes per partition
// (6), then each ring's nodes (the background is left out).
std::vector<Rect> Bars(const std::string& svg) {
  std::vector<Rect> out;
  for (const std::string& rect : Elements(svg, "rect")) {
    if (rect.find("100%") != std::string::npos) continue;
    out.push_back({Attribute(rect, "x"), Attribute(rect, "y"), Attribute(rect, "width"),
                   Attribute(rect, "height")});
  }
  return out;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_CASE("the stats picture is one SVG document with a bar per percentile and two per node",
          "[stats_plot]") {
  Result<std::string> svg = RenderStatsSvg(StatsJson());
  REQUIRE(svg.ok());
  CHECK(svg->starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
  CHECK(svg->ends_with("</svg>\n"));
  CHECK(Count(*svg, "<svg ") == 1);
  CHECK(Count(*svg, "<text ") == Count(*svg, "</text>"));
  std::vector<Rect> bars = Bars(*svg);
  REQUIRE(bars.size() == 6 + 6 + 2 * (3 + 6 + 12));
  for (const char* label : {">p50<", ">p75<", ">p95<", ">p98<", ">p99<", ">max<"}) {
    CHECK(Count(*svg, label) == 2);
  }
  CHECK(svg->find("3 nodes: partition skew 1.50, byte skew 1.50") != std::string::npos);
  CHECK(svg->find("12 nodes: partition skew 12.00") != std::string::npos);
  CHECK(svg->find("ks.t: partition sizes (6 partitions, 120 rows, 9.0 kB)") != std::string::npos);

  SECTION("percentile bars grow with their values, an empty one is flat") {
    CHECK(bars[0].height == 0);  // p50 of 0 rows
    for (size_t i = 1; i < 6; ++i) CHECK(bars[i].height >= bars[i - 1].height);
    CHECK(bars[5].height > bars[1].height);
    for (size_t i = 7; i < 12; ++i) CHECK(bars[i].height > bars[i - 1].height);
    for (size_t i = 0; i < 12; ++i) {  // standing on their chart's baseline
      const Rect& first = bars[i < 6 ? 0 : 6];
      CHECK(bars[i].y + bars[i].height == Approx(first.y + first.height));
    }
  }
  SECTION("node bars are linear in what each node owns; the dashed mean meets the mean's bar") {
    // Per node a partitions bar, then a bytes bar.
    const Rect* ring3 = &bars[12];
    CHECK(ring3[0].height == Approx(ring3[4].height / 3).margin(0.1));
    CHECK(ring3[2].height == Approx(ring3[4].height * 2 / 3).margin(0.1));
    for (int node = 0; node < 3; ++node) {  // bytes 1, 2, 3: the same multiples of their mean
      CHECK(ring3[2 * node + 1].height == Approx(ring3[2 * node].height).margin(0.1));
      CHECK(ring3[2 * node + 1].x > ring3[2 * node].x);  // beside it
    }
    std::vector<std::string> dashed;
    for (const std::string& line : Elements(*svg, "line")) {
      if (line.find("stroke-dasharray") != std::string::npos) dashed.push_back(line);
    }
    REQUIRE(dashed.size() == 2 + 3);  // the two distributions' means, then the rings'
    CHECK(Attribute(dashed[2], "y1") == Approx(ring3[2].y).margin(0.1));  // mean 20
    const Rect* ring6 = &bars[18];
    CHECK(Attribute(dashed[3], "y1") == Approx(ring6[0].y).margin(0.1));  // all equal: the mean
    const Rect* ring12 = &bars[30];
    CHECK(ring12[22].height == Approx(ring12[23].height).margin(0.1));  // both 12x their mean
    CHECK(ring12[0].height == 0);
  }
  SECTION("each chart has a y axis; the heading has its line to itself") {
    size_t vertical = 0;
    for (const std::string& line : Elements(*svg, "line")) {
      if (Attribute(line, "x1") == Attribute(line, "x2")) ++vertical;
    }
    CHECK(vertical == 2 + 3);
    CHECK(Count(*svg, ">1x<") == 3);
    CHECK(Count(*svg, ">12.0x<") == 1);
    CHECK(svg->find(">mean 20.0<") != std::string::npos);  // rows per partition: 120 / 6
    size_t top_texts = 0;
    for (const std::string& text : Elements(*svg, "text")) {
      if (Attribute(text, "y") < 45) ++top_texts;
    }
    CHECK(top_texts == 1);
  }
}

TEST_CASE("names in the picture are escaped for XML", "[stats_plot]") {
  Result<std::string> svg = RenderStatsSvg(StatsJson("a&b<c"));
  REQUIRE(svg.ok());
  CHECK(svg->find("a&b<c") == std::string::npos);
  CHECK(svg->find("a&amp;b&lt;c.t: partition sizes") != std::string::npos);
}

TEST_CASE("an empty table draws flat charts without a mean line", "[stats_plot]") {
  std::string json = R"({"keyspace":"ks","table":"t","partitions":0,"rows":0,"cells":0,"bytes":0,
    "rows_per_partition":{"p50":0,"p75":0,"p95":0,"p98":0,"p99":0,"min":0,"max":0},
    "bytes_per_partition":{"p50":0,"p75":0,"p95":0,"p98":0,"p99":0,"min":0,"max":0},
    "widest":[],"rings":[{"nodes":3,"partitions":[0,0,0],"bytes":[0,0,0],"partition_skew":0,
    "byte_skew":0}],"wide_partitions":0,"warnings":[]})";
  Result<std::string> svg = RenderStatsSvg(json);
  REQUIRE(svg.ok());
  std::vector<Rect> bars = Bars(*svg);
  REQUIRE(bars.size() == 6 + 6 + 2 * 3);
  for (const Rect& bar : bars) CHECK(bar.height == 0);
  CHECK(svg->find("stroke-dasharray") == std::string::npos);
}

TEST_CASE("input that is not @stats.json is refused naming the problem", "[stats_plot]") {
  SECTION("not JSON") {
    Result<std::string> svg = RenderStatsSvg("partitions: 3");
    REQUIRE_FALSE(svg.ok());
    CHECK(svg.status().code() == StatusCode::kInvalidArgument);
  }
  SECTION("a member missing") {
    std::string json = StatsJson();
    json.replace(json.find("\"rings\""), 7, "\"ringz\"");
    Result<std::string> svg = RenderStatsSvg(json);
    REQUIRE_FALSE(svg.ok());
    CHECK(svg.status().message().find("rings") != std::string::npos);
  }
  SECTION("a negative count") {
    std::string json = StatsJson();
    json.replace(json.find("\"p75\":10"), 8, "\"p75\":-1");
    CHECK_FALSE(RenderStatsSvg(json).ok());
  }
}

TEST_CASE("every bar of any stats stays inside the picture", "[stats_plot]") {
  std::mt19937_64 random(7);
  auto value = [&] {
    // Sizes spanning many decades, zero included.
    return random() % 4 == 0 ? uint64_t{0} : random() >> (random() % 64);
  };
  for (int i = 0; i < 200; ++i) {
    std::string json =
        R"({"keyspace":"k","table":"t","partitions":1,"rows":1,"cells":1,"bytes":1,)";
    for (const char* name : {"rows_per_partition", "bytes_per_partition"}) {
      json += std::string("\"") + name + "\":{";
      for (const char* p : {"p50", "p75", "p95", "p98", "p99", "min", "max"}) {
        json += std::string("\"") + p + "\":" + std::to_string(value()) + ",";
      }
      json.back() = '}';
      json += ",";
    }
    json += R"("rings":[)";
    for (int nodes : {3, 6, 12}) {
      json += "{\"nodes\":" + std::to_string(nodes) + ",\"partitions\":[";
      for (int n = 0; n < nodes; ++n) json += std::to_string(value()) + (n + 1 < nodes ? "," : "");
      json += "],\"bytes\":[],\"partition_skew\":1.5,\"byte_skew\":2}";
      json += nodes == 12 ? "]}" : ",";
    }
    Result<std::string> svg = RenderStatsSvg(json);
    REQUIRE(svg.ok());
    for (const Rect& bar : Bars(*svg)) {
      INFO(json);
      CHECK(bar.height >= 0);
      CHECK(bar.y >= 0);
      CHECK(bar.y + bar.height <= 600.05);
      CHECK(bar.x >= 0);
      CHECK(bar.x + bar.width <= 1000.05);
    }
  }
}

}  // namespace
}  // namespace cellfs::tools
