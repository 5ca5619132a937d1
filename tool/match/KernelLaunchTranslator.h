// kernel<<<grid, block[, shared[, stream]]>>>(args) -> hipLaunchKernelGGL.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ExprCXX.h"

namespace cu2dcu {

class KernelLaunchTranslator {
public:
  explicit KernelLaunchTranslator(SourceContext &Context) : Context(Context) {}
  /// Ast is needed to see where the launch stands: hipLaunchKernelGGL is a
  /// statement macro, so a launch used inside an expression keeps <<<>>>.
  void handle(const clang::CUDAKernelCallExpr *Launch, clang::ASTContext &Ast);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
