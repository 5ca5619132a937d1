// Types in typedefs, aliases, template arguments and declarations.
#include <cuda_runtime.h>
#include <vector>

typedef cudaStream_t StreamHandle;
using EventHandle = cudaEvent_t;

template <typename T> struct Holder { T value; };

void demo() {
  std::vector<cudaStream_t> streams(2);
  Holder<cudaEvent_t> holder;
  StreamHandle s = streams[0];
  EventHandle e = holder.value;
  cudaError_t status = cudaStreamCreate(&s);
  (void)status;
  (void)e;
  dim3 block(16, 16);
  float4 v = make_float4(1, 2, 3, 4);
  (void)v;
  (void)block;
}
