#include "match/RelocatableDeviceCodeTranslator.h"

#include "core/CheckIds.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"

namespace cu2dcu {

namespace {

/// A device function this unit uses but does not define.
bool isExternalDeviceFunction(const clang::FunctionDecl *F) {
  return F->hasAttr<clang::CUDADeviceAttr>() && !F->hasAttr<clang::CUDAGlobalAttr>() &&
         !F->isDefined() && !F->isImplicit() && !F->getBuiltinID() && !F->isDeleted() &&
         !F->getTemplateInstantiationPattern() && F->isExternallyVisible();
}

/// Whether Use lies in a __device__ or __global__ function: a
/// __host__ __device__ function called from host code only links without
/// relocatable device code.
bool inDeviceCode(const clang::Expr &Use, clang::ASTContext &Ast) {
  clang::DynTypedNodeList Parents = Ast.getParents(Use);
  while (!Parents.empty()) {
    if (const auto *F = Parents[0].get<clang::FunctionDecl>())
      return F->hasAttr<clang::CUDADeviceAttr>() || F->hasAttr<clang::CUDAGlobalAttr>();
    Parents = Ast.getParents(Parents[0]);
  }
  return false;
}

/// extern __device__ / __constant__ variable defined elsewhere (extern
/// __shared__ is dynamic shared memory, which needs nothing).
bool isExternalDeviceVariable(const clang::VarDecl *V) {
  return (V->hasAttr<clang::CUDADeviceAttr>() || V->hasAttr<clang::CUDAConstantAttr>()) &&
         !V->hasAttr<clang::CUDASharedAttr>() && V->hasExternalStorage() && !V->getDefinition();
}

} // namespace

void RelocatableDeviceCodeTranslator::handleUse(const clang::DeclRefExpr &Use,
                                                clang::ASTContext &Ast) {
  const clang::ValueDecl *Used = Use.getDecl();
  if (!Used || Context.sourceManager().isInSystemHeader(Used->getLocation()))
    return;
  const char *What = nullptr;
  if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(Used);
      F && isExternalDeviceFunction(F) &&
      (!F->hasAttr<clang::CUDAHostAttr>() || inDeviceCode(Use, Ast)))
    What = "device function";
  else if (const auto *V = llvm::dyn_cast<clang::VarDecl>(Used); V && isExternalDeviceVariable(V))
    What = "device variable";
  if (!What || !Reported.insert(Used->getCanonicalDecl()).second)
    return;
  Context.report(Use.getLocation(), check_ids::Rdc, Severity::Note,
                 std::string(What) + " '" + Used->getNameAsString() +
                     "' is defined in another translation unit: linking it needs relocatable "
                     "device code (nvcc -rdc=true, HIP -fgpu-rdc on every compile and the link)");
}

} // namespace cu2dcu
