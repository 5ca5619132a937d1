// Shapes the function-length scan must see through (function_lengths_test.py
// reads the expected name and body length of each function from the line
// "// expect: NAME LINES" above it).
#include <string>
#define OPEN_BRACE {

namespace outer {
namespace {

const char *const Table[] = {"{", "}}", R"x(
  { a raw string with braces } }
)x"};

// expect: braces 5
int braces(char C) {
  if (C == '{' || C == '}')   // a brace in a comment: {
    return 1;
  /* and in a block comment: } } */
  std::string S = "}{\"}";
  return int(S.size()) + 1'000;
}

} // namespace

extern "C" {
// expect: c_entry 1
int c_entry() {
  return 0;
}
}

struct Holder : Base {
  // expect: Holder 2
  Holder(int A) : Value{A}, Other(A) {
    Value += 1;
    Other += 1;
  }
  // expect: size 0
  int size() const { return Value; }
  // expect: operator() 1
  bool operator()(int X) const noexcept {
    return X == Value;
  }
  int Value, Other;
};

// expect: outer::withLambda 7
template <typename T, int N = 3>
auto outer::withLambda(T X) -> std::vector<T> {
  auto Add = [&](int Y) {
    if (Y) {
      return Y + 1;
    }
    return Y;
  };
  return {Add(X)};
}

// expect: Callback 1
auto Callback = [](int Z) {
  return Z * 2;
};

} // namespace outer
