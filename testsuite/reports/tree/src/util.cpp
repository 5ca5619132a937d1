// Plain C++: no CUDA here, so it is left unchanged.
int add(int a, int b) { return a + b; }
