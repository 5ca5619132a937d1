// Types of a range-for's loop variable: clang's matcher walk of code as
// written sees the loop variable only as a whole declaration.
#include <cuda_runtime.h>
#include <utility>
#include <vector>

void sync_all(cudaStream_t a, cudaStream_t b) {
  for (cudaStream_t s : {a, b})
    cudaStreamSynchronize(s);
  cudaEvent_t events[2];
  for (cudaEvent_t &e : events)
    cudaEventCreate(&e);
  for (const cudaEvent_t &e : events)
    cudaEventDestroy(e);
  std::vector<std::pair<cudaStream_t, int>> work{{a, 1}, {b, 2}};
  for (const std::pair<cudaStream_t, int> &w : work)
    cudaStreamSynchronize(w.first);
}
