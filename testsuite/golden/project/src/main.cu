#include "saxpy.cuh"

int main() {
  const int n = 1 << 10;
  float *x = new float[n], *y = new float[n];
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = float(i);
  }
  saxpy(n, 2.0f, x, y);
  printf("y[10] = %f\n", y[10]);
  delete[] x;
  delete[] y;
  return 0;
}
