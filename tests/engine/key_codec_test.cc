// Placeholder being written in this change; replaced before commit.
#include <catch2/catch.hpp>
