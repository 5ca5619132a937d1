// __launch_bounds__(maxThreads, minBlocks): CUDA's second argument asks for
// minBlocks resident blocks per SM; HIP reads the same position as minimum
// waves per execution unit, which caps VGPRs differently and can force spills
// on AMD. translateLaunchBounds keeps it for HIP's NVIDIA path and drops it on
// AMD (or removes it where the maps give no shim), and reports the change.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Decl.h"

namespace cu2dcu {

class LaunchBoundsTranslator {
public:
  explicit LaunchBoundsTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::FunctionDecl *Function);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
