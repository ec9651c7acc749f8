// ASCII case folding for the shell's keyword handling (CQL keywords and
// shell commands are ASCII; names keep their bytes).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace cellfs::tools::shell {

inline std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

inline std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace cellfs::tools::shell
