// Query paths past the primary key (docs/FILESYSTEM.md "Queries past the
// key"): @count, a table's @limit=N, @where/col=value, @columns=a,b,
// checked against a model of what the test wrote (deleted rows, expired
// TTL rows and a partition holding only static cells included).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/fs/filesystem_test_util.h"

namespace cellfs::testing {
namespace {

using Names = std::vector<std::string>;

// One live row of the model.
struct ModelRow {
  int pk = 0;
  int ck = 0;
  std::string country;
  int n = 0;
};

// The written data and what a reader must see. The table:
//   ks.u (pk int, ck int, s text static, country text, n int, PRIMARY KEY (pk, ck))
//   ks.flat (id int PRIMARY KEY, country text)
class Model {
 public:
  explicit Model(FsDriver& d) : d_(d) {
    REQUIRE(d.Mkdir("ks") == 0);
    d.Ddl(
        "CREATE TABLE ks.u (pk int, ck int, s text static, country text, n int, "
        "PRIMARY KEY (pk, ck));"
        "CREATE TABLE ks.flat (id int PRIMARY KEY, country text);");
    const char* countries[] = {"US", "FR", "DE"};
    std::string cql;
    for (int pk = 0; pk < 8; ++pk) {
      for (int ck = 0; ck < 6; ++ck) {
        std::string country = countries[(pk * 7 + ck) % 3];
        int n = (pk + ck) % 4;
        cql += "INSERT INTO ks.u (pk, ck, country, n) VALUES (" + std::to_string(pk) + ", " +
               std::to_string(ck) + ", '" + country + "', " + std::to_string(n) + ");";
        rows_[{pk, ck}] = ModelRow{pk, ck, country, n};
      }
    }
    for (int id = 0; id < 10; ++id) {
      cql += "INSERT INTO ks.flat (id, country) VALUES (" + std::to_string(id) + ", '" +
             countries[id % 3] + "');";
      flat_[id] = countries[id % 3];
    }
    // Deleted: one row, one whole partition, one flat row.
    cql += "DELETE FROM ks.u WHERE pk = 1 AND ck = 2;";
    rows_.erase({1, 2});
    cql += "DELETE FROM ks.u WHERE pk = 2;";
    for (int ck = 0; ck < 6; ++ck) rows_.erase({2, ck});
    cql += "DELETE FROM ks.flat WHERE id = 4;";
    flat_.erase(4);
    // Statics: on a partition with rows, and a partition with nothing else.
    cql += "UPDATE ks.u SET s = 'zero' WHERE pk = 0;";
    statics_[0] = "zero";
    cql += "UPDATE ks.u SET s = 'lonely' WHERE pk = 100;";
    statics_[100] = "lonely";
    // Rows that expire (US, so filters would show them if they were live).
    for (int ck = 10; ck < 13; ++ck) {
      cql += "INSERT INTO ks.u (pk, ck, country, n) VALUES (3, " + std::to_string(ck) +
             ", 'US', 1) USING TTL 10;";
    }
    cql += "INSERT INTO ks.flat (id, country) VALUES (50, 'US') USING TTL 10;";
    std::string transcript;
    REQUIRE(d.Cql(cql, &transcript) == 0);
    d.clock().AdvanceSeconds(11);
    // Token order of the partitions, from the table's listing.
    for (const std::string& name : d.Ls("ks/u")) partitions_.push_back(std::stoi(name));
    for (const std::string& name : d.Ls("ks/flat")) flat_order_.push_back(std::stoi(name));
  }

  // SELECT's rows in token then clustering order: a partition holding only
  // static cells is one row with ck null (nullopt), unless `rows_only`.
  struct Entry {
    int pk = 0;
    std::optional<ModelRow> row;
  };
  std::vector<Entry> Select(bool rows_only) const {
    std::vector<Entry> out;
    for (int pk : partitions_) {
      bool any = false;
      for (const auto& [key, row] : rows_) {
        if (key.first != pk) continue;
        out.push_back({pk, row});
        any = true;
      }
      if (!any && !rows_only && statics_.count(pk)) out.push_back({pk, std::nullopt});
    }
    return out;
  }
  std::string Static(int pk) const {
    auto it = statics_.find(pk);
    return it == statics_.end() ? "" : it->second;
  }
  static std::string Name(const Entry& e) {
    return std::to_string(e.pk) + "," + std::to_string(e.row->ck);
  }
  std::string Json(const Entry& e) const {
    std::string s = Static(e.pk).empty() ? "null" : "\"" + Static(e.pk) + "\"";
    if (!e.row) {
      return "{\"pk\": " + std::to_string(e.pk) + ", \"ck\": null, \"s\": " + s +
             ", \"country\": null, \"n\": null}\n";
    }
    return "{\"pk\": " + std::to_string(e.pk) + ", \"ck\": " + std::to_string(e.row->ck) +
           ", \"s\": " + s + ", \"country\": \"" + e.row->country +
           "\", \"n\": " + std::to_string(e.row->n) + "}\n";
  }

  const std::map<int, std::string>& flat() const { return flat_; }
  const std::vector<int>& flat_order() const { return flat_order_; }

 private:
  FsDriver& d_;
  std::map<std::pair<int, int>, ModelRow> rows_;
  std::map<int, std::string> statics_;
  std::map<int, std::string> flat_;
  std::vector<int> partitions_;
  std::vector<int> flat_order_;
};

std::string Count(size_t n) { return std::to_string(n) + "\n"; }

}  // namespace

TEST_CASE("@count is the number of rows SELECT count(*) gives, on a table, partition and slice",
          "[filesystem][query]") {
  FsDriver d;
  Model m(d);
  const auto all = m.Select(false);
  CHECK(d.Cat("ks/u/@count") == Count(all.size()));
  CHECK(d.Cat("ks/u/0/@count") == "6\n");
  CHECK(d.Cat("ks/u/1/@count") == "5\n");          // one row deleted
  CHECK(d.Cat("ks/u/3/@count") == "6\n");          // the TTL rows expired
  CHECK(d.Cat("ks/u/100/@count") == "1\n");        // static only: one row, as SELECT
  CHECK(d.Cat("ks/u/100/@ge=0/@count") == "0\n");  // but no row in a slice
  CHECK(d.Cat("ks/u/0/@ge=2/@lt=5/@count") == "3\n");
  CHECK(d.Cat("ks/u/0/@limit=2/@count") == "2\n");
  CHECK(d.Cat("ks/flat/@count") == Count(m.flat().size()));  // rows = partitions
  SECTION("@count is never listed and is read-only") {
    for (const std::string& name : d.Ls("ks/u/0")) CHECK(name[0] != '@');
    CHECK(d.Write("ks/u/@count", "3\n") == EACCES);
  }
}

TEST_CASE("a table's @limit=N lists its first N rows in token order, named by full primary key",
          "[filesystem][query]") {
  FsDriver d;
  Model m(d);
  const auto rows = m.Select(true);
  for (size_t n : {size_t{1}, size_t{7}, rows.size(), rows.size() + 5}) {
    Names expected;
    for (size_t i = 0; i < std::min(n, rows.size()); ++i) expected.push_back(Model::Name(rows[i]));
    INFO("@limit=" << n);
    CHECK(d.Ls("ks/u/@limit=" + std::to_string(n)) == expected);
    CHECK(d.Ls("ks/u/@limit=" + std::to_string(n), true) == expected);
  }
  SECTION("its @json and @count follow SELECT ... LIMIT N") {
    const auto all = m.Select(false);
    std::string json;
    for (size_t i = 0; i < 9; ++i) json += m.Json(all[i]);
    CHECK(d.Cat("ks/u/@limit=9/@json") == json);
    CHECK(d.Cat("ks/u/@limit=9/@count") == "9\n");
    CHECK(d.Cat("ks/u/@limit=100000/@count") == Count(all.size()));
  }
  SECTION("an entry reads like the row directory") {
    const std::string first = Model::Name(rows[0]);
    CHECK(d.Ls("ks/u/@limit=1/" + first) == Names{"country", "n"});
    CHECK(d.Cat("ks/u/@limit=1/" + first + "/country") == rows[0].row->country + "\n");
    CHECK(d.Cat("ks/u/@limit=1/" + first + "/@json") == m.Json(rows[0]));
  }
  SECTION("a table without clustering columns: entries are its partitions") {
    Names expected;
    for (size_t i = 0; i < 3; ++i) expected.push_back(std::to_string(m.flat_order()[i]));
    CHECK(d.Ls("ks/flat/@limit=3") == expected);
    CHECK(d.Cat("ks/flat/@limit=3/" + expected[0] + "/country") ==
          m.flat().at(m.flat_order()[0]) + "\n");
  }
  SECTION("bad limits") {
    fs::NodeAttr attr;
    CHECK(d.Stat("ks/u/@limit=0", &attr) == EINVAL);
    CHECK(d.Stat("ks/u/@limit=01", &attr) == EINVAL);
  }
}

TEST_CASE("@where/col=value lists the rows whose column equals the value, by scan",
          "[filesystem][query]") {
  FsDriver d;
  Model m(d);
  const auto rows = m.Select(true);
  const auto all = m.Select(false);
  auto matching = [&](auto pred) {
    Names names;
    for (const auto& e : rows)
      if (pred(e)) names.push_back(Model::Name(e));
    return names;
  };
  const Names us = matching([](const Model::Entry& e) { return e.row->country == "US"; });
  REQUIRE(!us.empty());
  CHECK(d.Ls("ks/u/@where/country=US") == us);
  CHECK(d.Ls("ks/u/@where/country=US", true) == us);
  CHECK(d.Cat("ks/u/@where/country=US/@count") == Count(us.size()));
  CHECK(d.Ls("ks/u/@where/country=XX").empty());
  CHECK(d.Ls("ks/u/@where").empty());  // terms are never listed
  SECTION("nested filters combine with AND, in any order") {
    const Names both =
        matching([](const Model::Entry& e) { return e.row->country == "US" && e.row->n == 1; });
    CHECK(d.Ls("ks/u/@where/country=US/@where/n=1") == both);
    CHECK(d.Ls("ks/u/@where/n=1/@where/country=US") == both);
    CHECK(d.Cat("ks/u/@where/n=1/@where/country=US/@count") == Count(both.size()));
  }
  SECTION("key and static columns filter too; a static-only partition counts as SELECT does") {
    CHECK(d.Ls("ks/u/@where/ck=3") ==
          matching([](const Model::Entry& e) { return e.row->ck == 3; }));
    CHECK(d.Ls("ks/u/@where/pk=0").size() == 6);
    CHECK(d.Ls("ks/u/@where/s=zero").size() == 6);
    CHECK(d.Ls("ks/u/@where/s=lonely").empty());  // no row directory
    CHECK(d.Cat("ks/u/@where/s=lonely/@count") == "1\n");
    CHECK(d.Cat("ks/u/@where/s=lonely/@json") ==
          "{\"pk\": 100, \"ck\": null, \"s\": \"lonely\", \"country\": null, \"n\": null}\n");
  }
  SECTION("@json and @csv export the matching rows") {
    std::string json;
    for (const auto& e : all)
      if (e.row && e.row->country == "FR") json += m.Json(e);
    CHECK(d.Cat("ks/u/@where/country=FR/@json") == json);
    std::string csv = d.Cat("ks/u/@where/country=FR/@csv");
    CHECK(std::count(csv.begin(), csv.end(), '\n') ==
          1 + std::count(json.begin(), json.end(), '\n'));
  }
  SECTION("inside a partition and a slice, entries are named by clustering key") {
    Names expected;
    for (const auto& e : rows)
      if (e.pk == 0 && e.row->country == "US") expected.push_back(std::to_string(e.row->ck));
    CHECK(d.Ls("ks/u/0/@where/country=US") == expected);
    Names sliced;
    for (const std::string& ck : expected)
      if (std::stoi(ck) >= 2) sliced.push_back(ck);
    CHECK(d.Ls("ks/u/0/@ge=2/@where/country=US") == sliced);
    CHECK(d.Cat("ks/u/0/@ge=2/@where/country=US/@count") == Count(sliced.size()));
    CHECK(d.Cat("ks/u/0/@where/country=US/" + expected[0] + "/country") == "US\n");
    // The same row by two paths is two nodes (a directory has one parent).
    uint64_t table_wide = 0, in_partition = 0;
    REQUIRE(d.Resolve("ks/u/@where/country=US/0," + expected[0], &table_wide) == 0);
    REQUIRE(d.Resolve("ks/u/0/@where/country=US/" + expected[0], &in_partition) == 0);
    CHECK(table_wide != in_partition);
  }
  SECTION("an entry reads like the row; a row that does not match is not there") {
    const std::string name = us[0];
    CHECK(d.Ls("ks/u/@where/country=US/" + name) == Names{"country", "n"});
    CHECK(d.Cat("ks/u/@where/country=US/" + name + "/country") == "US\n");
    const Names fr = matching([](const Model::Entry& e) { return e.row->country == "FR"; });
    fs::NodeAttr attr;
    CHECK(d.Stat("ks/u/@where/country=US/" + fr[0], &attr) == ENOENT);
    CHECK(d.Stat("ks/u/@where/country=US/1,2", &attr) == ENOENT);  // deleted
  }
  SECTION("a table-wide filter with a first N") {
    Names first(us.begin(), us.begin() + 2);
    CHECK(d.Ls("ks/u/@where/country=US/@limit=2") == first);
    CHECK(d.Ls("ks/u/@limit=2/@where/country=US") == first);
  }
  SECTION("the flat table: its partitions are its rows") {
    Names expected;
    for (int id : m.flat_order())
      if (m.flat().at(id) == "US") expected.push_back(std::to_string(id));
    CHECK(d.Ls("ks/flat/@where/country=US") == expected);
    CHECK(d.Cat("ks/flat/@where/country=US/@count") == Count(expected.size()));
  }
  SECTION("a value that does not parse is EINVAL, with its reason in @errors") {
    fs::NodeAttr attr;
    CHECK(d.Stat("ks/u/@where/n=abc", &attr) == EINVAL);
    CHECK(d.Cat("@errors").find("lookup ks/u/@where/n=abc: EINVAL") != std::string::npos);
    CHECK(d.Stat("ks/u/@where/nosuch=1", &attr) == EINVAL);
    CHECK(d.Stat("ks/u/@where/country", &attr) == EINVAL);
    CHECK(d.Stat("ks/u/@where/@json", &attr) == ENOENT);
  }
  SECTION("writes beneath a query are refused with EROFS") {
    const std::string row = "ks/u/@where/country=US/" + us[0];
    CHECK(d.Write(row + "/country", "FR\n") == EROFS);
    CHECK(d.Write(row + "/@json", "{\"n\": 5}") == EROFS);
    CHECK(d.Rm(row + "/country") == EROFS);
    CHECK(d.Rmdir(row) == EROFS);
    CHECK(d.Mkdir("ks/u/@where/country=US/9,9") == EROFS);
    CHECK(d.Cat("ks/u/@where/country=US/@count") == Count(us.size()));
  }
}

TEST_CASE("@columns=a,b projects @json and @csv to the named columns, in that order",
          "[filesystem][query]") {
  FsDriver d;
  Model m(d);
  std::string csv = "n,pk\n";
  std::string json;
  for (const auto& e : m.Select(false)) {
    if (!e.row || e.row->country != "DE") continue;
    csv += std::to_string(e.row->n) + "," + std::to_string(e.pk) + "\n";
    json += "{\"n\": " + std::to_string(e.row->n) + ", \"pk\": " + std::to_string(e.pk) + "}\n";
  }
  CHECK(d.Cat("ks/u/@where/country=DE/@columns=n,pk/@csv") == csv);
  CHECK(d.Cat("ks/u/@where/country=DE/@columns=n,pk/@json") == json);
  CHECK(d.Cat("ks/u/0/@limit=1/@columns=s,country/@json") ==
        "{\"s\": \"zero\", \"country\": \"US\"}\n");  // row 0,0
  CHECK(d.Ls("ks/u/@columns=n").empty());
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/u/@columns=nosuch/@json", &attr) == EINVAL);
  CHECK(d.Stat("ks/u/@columns=/@json", &attr) == EINVAL);
  CHECK(d.Stat("ks/u/@columns=n/@count", &attr) == ENOENT);
}

}  // namespace cellfs::testing

namespace cellfs::testing {

TEST_CASE("a filter value takes every spelling a key name of its type takes",
          "[filesystem][query]") {
  FsDriver d;
  REQUIRE(d.Mkdir("ks") == 0);
  d.Ddl("CREATE TABLE ks.sp (k int PRIMARY KEY, t text, ts timestamp, id uuid);");
  std::string transcript;
  REQUIRE(
      d.Cql("INSERT INTO ks.sp (k, t, ts, id) VALUES (1, 'a,b', '2018-07-23 11:04:22.432+0000', "
            "5b6962dd-3f90-4c93-8f61-eabfa4a803e2);"
            "INSERT INTO ks.sp (k, t, ts) VALUES (2, '', '2019-01-01 00:00:00+0000');"
            "INSERT INTO ks.sp (k, t) VALUES (3, '@x');",
            &transcript) == 0);
  CHECK(d.Ls("ks/sp/@where/t=a%2Cb") == Names{"1"});
  CHECK(d.Ls("ks/sp/@where/t=%-") == Names{"2"});  // the empty text
  CHECK(d.Ls("ks/sp/@where/t=%40x") == Names{"3"});
  CHECK(d.Ls("ks/sp/@where/ts=2018-07-23T11:04:22.432Z") == Names{"1"});
  CHECK(d.Ls("ks/sp/@where/ts=2018-07-23 11:04:22.432+0000") == Names{"1"});
  CHECK(d.Ls("ks/sp/@where/id=5B6962DD-3F90-4C93-8F61-EABFA4A803E2") == Names{"1"});
  CHECK(d.Cat("ks/sp/@where/ts=2019-01-01/@count") == "1\n");
  fs::NodeAttr attr;
  CHECK(d.Stat("ks/sp/@where/ts=yesterday-ish", &attr) == EINVAL);
  CHECK(d.Stat("ks/sp/@where/t=a,b", &attr) == EINVAL);  // a comma must be escaped
}

}  // namespace cellfs::testing

namespace cellfs::testing {

TEST_CASE("with an index, @where reads through it and @by/col/value lists what @where lists",
          "[filesystem][query][index]") {
  FsDriver d;
  Model m(d);
  const char* paths[] = {"ks/u/@where/country=US", "ks/u/@where/country=FR",
                         "ks/u/@where/s=zero",     "ks/u/@where/n=1",
                         "ks/u/@where/ck=3",       "ks/flat/@where/country=DE"};
  std::vector<Names> scanned;
  std::vector<std::string> counts;
  for (const char* path : paths) {
    scanned.push_back(d.Ls(path));
    counts.push_back(d.Cat(std::string(path) + "/@count"));
  }
  const std::string lonely = d.Cat("ks/u/@where/s=lonely/@json");
  d.Ddl(
      "CREATE INDEX ON ks.u (country); CREATE INDEX ON ks.u (s); CREATE INDEX ON ks.u (n);"
      "CREATE INDEX ON ks.u (ck); CREATE INDEX ON ks.flat (country);");
  for (size_t i = 0; i < std::size(paths); ++i) {
    INFO(paths[i]);
    CHECK(d.Ls(paths[i]) == scanned[i]);
    CHECK(d.Cat(std::string(paths[i]) + "/@count") == counts[i]);
  }
  CHECK(d.Cat("ks/u/@where/s=lonely/@json") == lonely);
  CHECK(d.Ls("ks/u/@by/country/US") == scanned[0]);
  CHECK(d.Ls("ks/u/@by/s/zero") == scanned[2]);
  CHECK(d.Ls("ks/flat/@by/country/DE") == scanned[5]);
  CHECK(d.Cat("ks/u/@by/country/FR/@count") == counts[1]);
  CHECK(d.Cat("ks/u/@by/country/FR/@json") == d.Cat("ks/u/@where/country=FR/@json"));
  CHECK(d.Cat("ks/u/@by/country/US/" + scanned[0][0] + "/country") == "US\n");
  CHECK(d.Ls("ks/u/@by").empty());
  CHECK(d.Ls("ks/u/@by/country").empty());
  CHECK(d.Ls("ks/u/@by/country/XX").empty());
  for (const std::string& name : d.Ls("ks/u")) CHECK(name != "@by");

  // A write through the base table shows in the index at once.
  std::string transcript;
  REQUIRE(d.Cql("UPDATE ks.u SET country = 'XX' WHERE pk = 0 AND ck = 0;", &transcript) == 0);
  CHECK(d.Ls("ks/u/@by/country/XX") == Names{"0,0"});
  for (const std::string& name : d.Ls("ks/u/@by/country/US")) CHECK(name != "0,0");

  SECTION("a column without an index, an unknown column: EINVAL with the reason") {
    fs::NodeAttr attr;
    CHECK(d.Stat("ks/u/@by/pk", &attr) == EINVAL);
    CHECK(d.Cat("@errors").find("has no index") != std::string::npos);
    CHECK(d.Stat("ks/u/@by/nosuch", &attr) == EINVAL);
    CHECK(d.Stat("ks/u/0/@by", &attr) == ENOENT);  // tables only
    CHECK(d.Stat("ks/u/@by/n/abc", &attr) == EINVAL);
  }
}

}  // namespace cellfs::testing

namespace cellfs::testing {
namespace {

// The names of the model's rows whose n (or ck) passes `keep`, in SELECT's
// order (token, then clustering).
Names RowsWhere(const Model& m, const std::function<bool(const ModelRow&)>& keep) {
  Names out;
  for (const Model::Entry& e : m.Select(true)) {
    if (keep(*e.row)) out.push_back(Model::Name(e));
  }
  return out;
}

}  // namespace

TEST_CASE("@by/col/@ge=V/@lt=W lists the rows whose value lies in the slice, in token order",
          "[filesystem][query][index]") {
  FsDriver d;
  Model m(d);
  d.Ddl("CREATE INDEX ON ks.u (n); CREATE INDEX ON ks.u (ck); CREATE INDEX ON ks.flat (country);");
  auto n_in = [&](int low, int high) {  // low <= n <= high
    return RowsWhere(m, [=](const ModelRow& r) { return r.n >= low && r.n <= high; });
  };
  CHECK(d.Ls("ks/u/@by/n/@ge=1/@lt=3") == n_in(1, 2));
  CHECK(d.Ls("ks/u/@by/n/@lt=3/@ge=1") == n_in(1, 2));
  CHECK(d.Ls("ks/u/@by/n/@gt=2") == n_in(3, 3));
  CHECK(d.Ls("ks/u/@by/n/@le=0") == n_in(0, 0));
  CHECK(d.Ls("ks/u/@by/n/@ge=1/@ge=2") == n_in(2, 3));  // the tighter bound holds
  CHECK(d.Ls("ks/u/@by/n/@ge=2/@gt=2") == n_in(3, 3));
  CHECK(d.Ls("ks/u/@by/n/@le=3/@lt=3") == n_in(0, 2));
  CHECK(d.Ls("ks/u/@by/n/@gt=5").empty());
  CHECK(d.Ls("ks/u/@by/n/@gt=2/@lt=1").empty());
  CHECK(d.Cat("ks/u/@by/n/@ge=1/@lt=3/@count") == Count(n_in(1, 2).size()));
  // The same rows as the scan, in its order: the export equals the scan's
  // export filtered to them.
  std::string scan_json;
  for (const Model::Entry& e : m.Select(true)) {
    if (e.row->n >= 1 && e.row->n < 3) scan_json += m.Json(e);
  }
  CHECK(d.Cat("ks/u/@by/n/@ge=1/@lt=3/@json") == scan_json);
  const std::string first = n_in(1, 2).front();
  CHECK(d.Cat("ks/u/@by/n/@ge=1/@lt=3/" + first + "/n").size() == 2);
  CHECK(d.Ls("ks/u/@by/n/@ge=1/@lt=3/@where/country=US") ==
        RowsWhere(m, [](const ModelRow& r) { return r.n >= 1 && r.n < 3 && r.country == "US"; }));

  // A clustering column's index, and text in byte order.
  CHECK(d.Ls("ks/u/@by/ck/@ge=4") == RowsWhere(m, [](const ModelRow& r) { return r.ck >= 4; }));
  Names flat;
  for (int id : m.flat_order()) {
    auto it = m.flat().find(id);
    if (it != m.flat().end() && it->second >= "E") flat.push_back(std::to_string(id));
  }
  CHECK(d.Ls("ks/flat/@by/country/@ge=E") == flat);

  // A write shows in the slice at once.
  std::string transcript;
  REQUIRE(d.Cql("UPDATE ks.u SET n = 9 WHERE pk = 0 AND ck = 0;", &transcript) == 0);
  CHECK(d.Ls("ks/u/@by/n/@gt=5") == Names{"0,0"});

  SECTION("bounds only right after @by/<column>; a bound that does not parse: EINVAL") {
    fs::NodeAttr attr;
    CHECK(d.Stat("ks/u/@by/n/@ge=abc", &attr) == EINVAL);
    CHECK(d.Stat("ks/u/@by/n/1/@ge=0", &attr) == ENOENT);
    CHECK(d.Stat("ks/u/@where/n=1/@ge=0", &attr) == ENOENT);
    CHECK(d.Stat("ks/u/@by/n/@reverse", &attr) == ENOENT);
    CHECK(d.Stat("ks/u/@by/@ge=0", &attr) == ENOENT);
  }
}

}  // namespace cellfs::testing
