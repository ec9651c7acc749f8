// NodeId: what a node of the tree is (root, keyspace, table, partition,
// slice, row, cell, or a virtual file of one of those) and its byte encoding,
// the identity the InodeTable maps inode numbers to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "fs/tree/virtual_name.h"

namespace cellfs::fs {

enum class NodeKind : uint8_t {
  kRoot,
  kKeyspace,
  kTable,
  kPartition,
  kSlice,  // a slice directory under a partition (or under another slice)
  kRow,
  kCell,         // a cell file: regular (in a row, or in the partition of a
                 // table without clustering columns) or static
  kVirtualFile,  // @cql, @schema, @json, @csv, @insert, @stats, @count
  kQuery,        // a query directory: @where, @where/col=value, a table's
                 // @limit=N, @columns=a,b (fs/tree/query_path.h)
  kScratch,      // a scratch file beside cells, to be renamed over one
                 // (fs/tree/scratch_files.h); in a row or a partition
};

// A plain value type. Fields not used by a kind stay empty / zero, so that
// equal nodes encode to equal bytes.
struct NodeId {
  NodeKind kind = NodeKind::kRoot;
  std::string keyspace;                    // kKeyspace and below
  std::string table;                       // kTable and below
  uint32_t table_id = 0;                   // kTable and below: a stale id never resolves
  std::vector<std::string> partition_key;  // kPartition and below: serialized values
  // kSlice and files under it: the slice directories from the partition
  // down, each as its virtual name ("@ge=2018", "@limit=10").
  std::vector<std::string> slice;
  // kQuery and everything beneath it: the query segments from the table,
  // partition or slice down ("@where", "col=value", "@limit=10",
  // "@columns=a,b"). Non-empty means read-only.
  std::vector<std::string> query;
  // With `query`: whether it began at the table (its rows are named by
  // full primary key) rather than in a partition or slice, so that a row
  // reached both ways is two nodes, as it is two paths.
  bool table_query = false;
  std::vector<std::string> clustering;  // kRow and its cells
  uint32_t column_id = 0;               // kCell
  // kCell reached by an element name (`m@key=k`, `tags@remove`): its
  // element suffix (fs/formats/element_suffix.h); empty for the cell itself.
  std::string element;
  // kScratch: the scratch file's name (its directory is given by the
  // fields above, as for a cell).
  std::string scratch;
  // kCell, kRow and @insert: the write suffixes of the name the node was
  // reached by ("col@ttl=60"); the same cell under its plain name is another
  // node, so every open of it knows its TTL.
  WriteAttributes write;
  // kVirtualFile: which file, and the kind of the directory it lives in
  // (whose identity is given by the fields above).
  VirtualName::Kind file = VirtualName::Kind::kCql;
  NodeKind directory = NodeKind::kRoot;

  bool operator==(const NodeId&) const = default;
};

// The identity bytes of `id`: equal ids give equal bytes and different ids
// different bytes. Thread-safe (pure).
std::string EncodeNodeId(const NodeId& id);

// The inverse of EncodeNodeId. Corruption for bytes EncodeNodeId did not
// produce (never happens for identities from the inode table).
Status DecodeNodeId(std::string_view bytes, NodeId* id);

}  // namespace cellfs::fs
