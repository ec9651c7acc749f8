// Placeholder being written in this change; replaced before commit.
