// Device helpers that CUDA declares and HIP does not: umin/umax and their
// long long forms, which samples-style code calls, and __trap. Each becomes a
// shim that is CUDA's own function on NVIDIA and the same operation on AMD.
#include <cstdio>

__global__ void clampCounts(const unsigned *in, unsigned *out, unsigned cap,
                            long long *wide, unsigned long long *big) {
  unsigned v = umin(in[threadIdx.x], cap);
  out[threadIdx.x] = umax(v, 1u);
  wide[threadIdx.x] = llmax(llmin(wide[threadIdx.x], 100LL), -100LL);
  big[threadIdx.x] = ullmax(ullmin(big[threadIdx.x], 7ull), 3ull);
  if (v == 0xffffffffu)
    __trap();  // a count that cannot happen: stop the kernel
}

int main() {
  printf("launch clampCounts<<<1, 32>>> on real data\n");
  return 0;
}
