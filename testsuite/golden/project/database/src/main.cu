#include <vector>

#include "saxpy.cuh"

int main() {
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  std::vector<float> x(1024, 1.0f), y(1024, 2.0f);
  runSaxpy(1024, 3.0f, x.data(), y.data());
  return y[0] == 5.0f ? 0 : 1;
}
