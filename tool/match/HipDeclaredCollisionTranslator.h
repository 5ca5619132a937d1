// A program's own definition of a function that HIP declares on AMD and CUDA
// does not (mappings/collisions/hip_declared.yaml: a float atomicMax, += on
// float4): under HIP on AMD it is a redefinition or makes each use ambiguous.
// The definition is kept for HIP's NVIDIA path only, under
// #if !defined(__HIP_PLATFORM_AMD__), and reported (CU2DCU-HIP-DECLARED).
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Decl.h"

namespace cu2dcu {

class HipDeclaredCollisionTranslator {
public:
  explicit HipDeclaredCollisionTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::FunctionDecl *Function);

private:
  const HipDeclaredFunction *collidingEntry(const clang::FunctionDecl *Function) const;

  SourceContext &Context;
};

} // namespace cu2dcu
