// Reading back a cellfs control file (@cql, @insert) through the same open
// descriptor that wrote it: what it reports is kept per open file.
#pragma once

#include <string>

namespace cellfs::tools {

// Appends everything `fd` holds from offset 0 to *out. On a read error
// prints "cellfs: reading PATH: reason" to stderr and returns false.
bool ReadWholeFile(int fd, const std::string& path, std::string* out);

}  // namespace cellfs::tools
