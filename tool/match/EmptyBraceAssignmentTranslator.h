// `x = {}` on a CUDA fp16 type: CUDA's __half2 declares three assignment
// operators an empty brace list matches equally well (from __half2 &&,
// const __half2 & and __half2_raw); nvcc picks one, clang (and so hipcc,
// with HIP's hip_fp16.h) rejects the call as ambiguous (quant3MatMul:
// `res2 = {};`). The parse keeps it as a RecoveryExpr of the two operands.
// The operand's type is written out by its HIP name, `res2 = __half2{};`:
// a value-initialised __half2, what each of the candidates assigns.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

namespace cu2dcu {

class EmptyBraceAssignmentTranslator {
public:
  explicit EmptyBraceAssignmentTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::RecoveryExpr *Recovered, const clang::ASTContext &Ast);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
