// kernel<<<grid, block[, shared[, stream]]>>>(args) -> hipLaunchKernelGGL.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ExprCXX.h"

namespace cu2dcu {

class KernelLaunchTranslator {
public:
  explicit KernelLaunchTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::CUDAKernelCallExpr *Launch);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
