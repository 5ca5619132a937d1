// Every launch form: 2/3/4 config arguments, templates, macros, lambdas,
// dim3 expressions, arguments with commas and parentheses, no arguments.
#include <cuda_runtime.h>

template <int A, int B> struct Grid { static constexpr int value = A * B; };

__global__ void scale(float *data, float factor) { data[threadIdx.x] *= factor; }
__global__ void touch() {}
template <typename T, int N> __global__ void fill(T *data, T value) { data[threadIdx.x] = value * N; }

#define LAUNCH_SCALE(ptr, f) scale<<<1, 64>>>(ptr, f)
#define CHECKED(...) do { __VA_ARGS__; } while (0)

static float pick(float a, float b) { return a > b ? a : b; }

void run(float *d, cudaStream_t stream, int n) {
  scale<<<1, 64>>>(d, 2.0f);
  scale<<<(n + 63) / 64, 64, 0>>>(d, pick(1.0f, 2.0f));
  scale<<<dim3((n + 63) / 64, 1, 1), dim3(64, 1), 128, stream>>>(d, 3.0f);
  touch<<<1, 64>>>();
  fill<float, 4><<<2, 64>>>(d, 1.5f);
  fill<float, 2><<<Grid<2, 3>::value, 64>>>(d, 2.0f);
  LAUNCH_SCALE(d, 4.0f);
  CHECKED(scale<<<1, 64>>>(d, 5.0f); scale<<<1, 64>>>(d, 5.5f));
  (void)(scale<<<1, 64>>>(d, 7.0f), 0);
  auto later = [&](float f) { scale<<<1, 64, 0, stream>>>(d, f); };
  later(6.0f);
  if (n > 0)
    touch  <<< 1 , 64 >>> ( );
}
