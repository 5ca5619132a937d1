// Thrust -> rocThrust: the same headers and namespace; the CUDA execution
// policy becomes rocThrust's HIP one.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

int sortedSum(const int *host, int n) {
  thrust::device_vector<int> v(host, host + n);
  thrust::sort(thrust::cuda::par, v.begin(), v.end());
  return thrust::reduce(v.begin(), v.end());
}
