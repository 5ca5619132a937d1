// --fix-wave64 decides per lane grouping, not per expression. Code that works
// in 32-lane warps spreads that width over several places (`tid % 32`,
// `tid >> 5`, `__shared__ float sums[32]`, `nwarps = threads / 32`, the
// shuffle offsets of a helper); changing some of them to warpSize and not the
// others breaks code that was consistent. So the wave64 findings of a unit are
// grouped, and a group's fixes are applied only when every one of its findings
// (notes aside) has a safe fix; otherwise each fixable finding is told why its
// fix was withheld (Diagnostic::FixWithheld). See docs/checks/README.md.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ASTContext.h"

namespace cu2dcu {

/// Groups the unit's deferred wave64 findings (SourceContext::deferredWave64)
/// and applies the fixes of the groups that can change as a whole. Findings
/// fall into one group when they lie in the same namespace-scope declaration
/// (a function with its lambdas, a class, a constant), edit the same place
/// (a macro body), use the same named warp constant, or lie in declarations
/// that reference one another (a kernel and the device helpers and constants
/// it uses; a host function and the kernels it launches only when the host
/// function has wave64 findings of its own). Linear in the unit's size.
void applyWave64Fixes(SourceContext &Context, clang::ASTContext &Ast);

} // namespace cu2dcu
