// Explicit conversions between CUDA's two 16-bit float types, `__half(b)` and
// `(__nv_bfloat16)h`: CUDA declares an explicit constructor of each from the
// other, which converts through float with one round to nearest even. HIP
// has neither constructor, and both types' conversion operators make the cast
// ambiguous there (HIP 6.4). The operand is cast to float first,
// `__half(static_cast<float>(b))`: float holds either type exactly, so the
// one rounding is the same as CUDA's.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ExprCXX.h"

namespace cu2dcu {

class Fp16ConversionTranslator {
public:
  explicit Fp16ConversionTranslator(SourceContext &Context) : Context(Context) {}
  /// A cast, `(__half)b` or `static_cast<__half>(b)`.
  void handle(const clang::ExplicitCastExpr *Cast);
  /// A construction, `__half(b)` (the walk of the code as written sees a
  /// functional cast to a class as its constructor call).
  void handle(const clang::CXXConstructExpr *Construct);

private:
  /// Whether Record is one of CUDA's fp16-family types (the maps say which).
  bool isCudaHalfType(const clang::CXXRecordDecl *Record) const;
  void convertThroughFloat(const clang::CXXConstructorDecl *Constructor, const clang::Expr *Operand);

  SourceContext &Context;
};

} // namespace cu2dcu
