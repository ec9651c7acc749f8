// The shell's history file (~/.cellfs_history): one statement per line,
// oldest first, a statement's own line breaks written as "\n" and
// backslashes as "\\", appended as each statement is run.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cellfs::tools::shell {

// The last `keep` entries of the file at `path`, decoded; empty when it
// cannot be read.
std::vector<std::string> LoadHistory(const std::string& path, size_t keep);

// Appends `entry` (encoded) to the file, creating it 0600. False when it
// cannot be written; the shell goes on without a history file then.
bool AppendHistory(const std::string& path, std::string_view entry);

// The file's encoding of one entry and back.
std::string EncodeHistoryEntry(std::string_view entry);
std::string DecodeHistoryEntry(std::string_view line);

}  // namespace cellfs::tools::shell
