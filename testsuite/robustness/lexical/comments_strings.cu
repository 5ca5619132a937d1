// Comments, strings, raw strings and character literals are never touched:
// k<<<1, 1>>>(d); cudaMalloc(&p, 4);
#include <cuda_runtime.h>

__global__ void k(int *p) { p[0] = 1; }

void f(int *d) {
  /* k<<<1, 1>>>(d); cudaFree(d);
     #include <cuda.h> */
  const char *s = "k<<<1,1>>>(d); cudaMalloc \" cudaFree";
  const char *r = R"x(k<<<1,1>>>(d); cudaFree(d); )" still raw )x";
  const char *m = R"(multi
line cudaMalloc <<< >>> /* not a comment
)";
  char q = '"';
  char a = '\'';
  k<<<1, 1>>>(d); // cudaDeviceSynchronize();
  cudaDeviceSynchronize(); /* cudaMalloc */ cudaGetLastError();
  (void)s, (void)r, (void)m, (void)q, (void)a;
}
