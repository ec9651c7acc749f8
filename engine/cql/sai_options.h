// SaiOptions: what a Storage-Attached Index's WITH OPTIONS mean (Cassandra
// 5.0's StorageAttachedIndex.validateOptions and SAI's NonTokenizingOptions):
// which options it takes, on which columns and types, and how an analysed
// index on a text column compares values.
#pragma once

#include "engine/cql/schema.h"
#include "engine/status.h"

namespace cellfs {

struct SaiOptions {
  bool case_sensitive = true;  // false: values compared lower-cased
  bool normalize = false;      // true: values compared in Unicode NFC
  bool ascii = false;          // true: Lucene's ASCII folding (refused)
};

// StorageAttachedIndex.validateOptions for `index` (already in `table`'s
// index list or about to join it), in Cassandra's order and words:
//  - an option SAI does not take: "Properties specified [x, y] are not
//    understood by StorageAttachedIndex" (names sorted);
//  - a second SAI index on the same column and target: "Cannot create more
//    than one storage-attached index on the same column: v";
//  - analysis options (case_sensitive, normalize, ascii) on a primary key
//    column: "Analysis options are not supported on primary key columns,
//    but found {'case_sensitive': 'false'}";
//  - analysis options on a type other than text or ascii: "CQL type int
//    cannot be analyzed."; a value other than true or false: "Illegal
//    value for boolean option 'normalize': yes" ("Empty value for boolean
//    option 'normalize'" when empty);
//  - vector options on a non-vector column: "CQL type int cannot have
//    vector options";
//  - an indexed type SAI does not take: "Unsupported type: blob".
// NotSupported, in cellfs's words, for what cellfs does not do: `ascii`
// true (Lucene's ASCIIFoldingFilter) and analysis of a collection's
// elements.
Status ValidateSaiOptions(const IndexDef& index, const ColumnDef& column, const TableDef& table);

// `index`'s analysis options (names exact, values in any case). REQUIRES:
// validated.
SaiOptions ReadSaiOptions(const IndexDef& index);

// Whether `index` (an SAI index) transforms the values it compares
// (NonTokenizingAnalyzer.transformValue): an option off its default.
bool SaiAnalyzes(const SaiOptions& options);

}  // namespace cellfs
