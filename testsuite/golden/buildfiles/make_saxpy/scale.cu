#include "saxpy.h"

__device__ float scale(float x) { return 2.0f * x; }
