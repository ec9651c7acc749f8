// `cellfs demo [DIR]`: a data directory with a few classic query-first
// models loaded with realistic data, mounted, and a short list of commands
// to try.
#pragma once

#include <string>

namespace cellfs::tools {

struct DemoArgs {
  std::string dir = "/tmp/cellfs-demo";  // DIR/data and DIR/mnt
};

// Mounts DIR/data at DIR/mnt (creating DIR 0700, and both), creates and
// loads the demo tables through @cql and @insert unless they exist, and
// prints what to try. An existing DIR or DIR/data is judged as a data
// directory is (OpenTrustedDataDir): one another user owns or can write is
// refused. Returns the exit code: 0, or 1 with a message on stderr.
int RunDemo(const DemoArgs& args);

}  // namespace cellfs::tools
