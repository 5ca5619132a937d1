// A prerequisite header inserted for cooperative groups (hip_requires) takes
// the CRLF line end of the include it comes with; the runtime include below
// is then a duplicate and removed.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }
