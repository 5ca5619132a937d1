#pragma once
// No CUDA here: written unchanged.
inline int twice(int x) { return 2 * x; }
