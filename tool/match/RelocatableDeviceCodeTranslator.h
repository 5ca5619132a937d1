// A use of device code that another translation unit defines: a __device__
// function declared here without a body, or an extern __device__ or
// __constant__ variable. nvcc links it only with -rdc=true, HIP only with
// -fgpu-rdc on every compile and on the link. Reported (CU2DCU-RDC); the
// driver tells the build-file translation which units need it, so that a
// CMake target built from them gains -fgpu-rdc.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

#include <set>

namespace cu2dcu {

class RelocatableDeviceCodeTranslator {
public:
  explicit RelocatableDeviceCodeTranslator(SourceContext &Context) : Context(Context) {}
  void handleUse(const clang::DeclRefExpr &Use, clang::ASTContext &Ast);

private:
  SourceContext &Context;
  std::set<const clang::Decl *> Reported; // one finding per declaration and unit
};

} // namespace cu2dcu
