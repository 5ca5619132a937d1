__global__ void k(int *flags) {
  flags[threadIdx.x] = 1;
  __syncwarp();
}
