// A table with a column of every CQL type cellfs stores (natives, collections,
// tuples, UDTs, nested), shared by the tests of the JSON and CSV codecs.
#pragma once

namespace cellfs::testing {

// Needs keyspace ks; creates type ks.address and table ks.types.
inline constexpr char kAllTypesDdl[] = R"(
CREATE TYPE ks.address (street text, city text, zip int);
CREATE TABLE ks.types (k int PRIMARY KEY,
  t_ascii ascii, t_bigint bigint, t_blob blob, t_boolean boolean, t_date date,
  t_decimal decimal, t_double double, t_duration duration, t_float float, t_inet inet,
  t_int int, t_smallint smallint, t_text text, t_time time, t_timestamp timestamp,
  t_timeuuid timeuuid, t_tinyint tinyint, t_uuid uuid, t_varint varint,
  t_list list<int>, t_set set<text>, t_map map<text, int>, t_imap map<int, text>,
  t_tuple frozen<tuple<int, text>>, t_udt frozen<address>, t_fset frozen<set<int>>,
  t_nested list<frozen<map<date, blob>>>, t_udtmap map<text, frozen<address>>);
)";

}  // namespace cellfs::testing
