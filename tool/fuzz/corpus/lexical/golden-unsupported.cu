// An API with no HIP equivalent is left as written and reported as an error
// with the reason; the rest of the file is still translated.
#include <cuda_runtime.h>

void record(cudaEvent_t event, cudaStream_t stream) {
  cudaEventRecordWithFlags(event, stream, 0);
  cudaEventRecord(event, stream);
}
