/* A C source the CMake build compiles as CUDA (LANGUAGE CUDA), with no CUDA
   header of its own: nvcc brings the runtime in. */
#include "scale.h"

float scale_on_host(float a, float x) { return scale(a, x); }
