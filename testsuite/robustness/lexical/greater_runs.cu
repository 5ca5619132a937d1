// Runs of '>' where template arguments end right before the '>>>' of a
// launch: the lexer sees '>>>' '>' and '>>>' '>>'. Clang cannot parse these
// (the AST mode falls back to lexical); the lexical pass splits the runs.
#include <cuda_runtime.h>

template <typename T> struct Box { T v; };
template <typename T> constexpr int size_of = 64;
__global__ void plain(int a, int b) {}

void run() {
  plain<<<1, size_of<int>>>>(1, 2);
  plain<<<1, size_of<Box<int>>>>>(1, 2);
}
