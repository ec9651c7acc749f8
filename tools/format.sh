#!/usr/bin/env bash
# Reformats every C and C++ source in place as .clang-format says, with the
# clang-format that tools/test.sh checks against (14, Debian 12's).
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z '*.cc' '*.h' '*.c' | xargs -0 clang-format-14 -i
