"""What measures and documents the project, and is no part of it: the benchmark, the
Slovenian precision sample, the tiling cost, the README's generated tables."""
