// `case CUBLAS_STATUS_LICENSE_ERROR:`: a case label naming a CUDA enumerator
// that HIP lacks for the target. HIP never produces that value, so the label
// can never be taken; it is removed (with a warning) instead of being left as
// CUDA to break the build (cuda-samples' helper_cuda.h names every status of
// each library in its error-string switches). The statements after it stay:
// the case before it, if it falls through, still reaches them.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace cu2dcu {

class UnsupportedCaseLabelTranslator {
public:
  explicit UnsupportedCaseLabelTranslator(SourceContext &Context) : Context(Context) {}
  /// Removes the case label whose value Use is; false (nothing done) when Use
  /// is not such a label's value, and the use is the name translator's.
  bool handle(const clang::DeclRefExpr *Use, clang::ASTContext &Ast);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
