// <<< and >>> matched through templates, parentheses, comparisons and
// shifts (greater_runs.cu has the runs of '>' that clang cannot parse).
#include <cuda_runtime.h>

template <int A, int B> struct Grid { static constexpr int value = A * B; };
template <int N> struct Block { static constexpr int size = N; };
template <typename T> struct Box { T v; };
template <typename T, int N> __global__ void fill(T *p) { p[threadIdx.x] = T(N); }
template <typename T> __global__ void boxed(Box<T> b) {}
__global__ void plain(int a, int b) {}
static int pick(int a, int b) { return a > b ? a : b; }

void run(float *d, int n, cudaStream_t s) {
  fill<float, 4><<<Grid<2, 3>::value, 64>>>(d);
  fill<float, (8 > 4 ? 8 : 4)><<<dim3((n + 1) / 2, 1), dim3(Block<64>::size)>>>(d);
  boxed<int><<<1, Block<32>::size>>>(Box<int>{1});
  boxed<Box<int>><<<1, Block<Block<32>::size>::size>>>(Box<Box<int>>{});
  boxed<Box<Box<int>>><<<1, 1>>>(Box<Box<Box<int>>>{});
  plain<<<n < 4 ? 1 : 2, n >> 1, 0, s>>>(pick(n, 2) > 1, n << 2);
  plain<<<(n > 1), 1>>>(1, 2);
  plain  <<<  1,
              64  >>>  ( 3,
                         4 );
  if (n)
    plain<<<1, 1>>>(5, 6);
  else
    plain<<<1, 1>>>(7, 8);
}
