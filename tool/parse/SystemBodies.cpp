#include "parse/SystemBodies.h"

#include "clang/AST/DeclBase.h"
#include "clang/Frontend/CompilerInstance.h"

namespace cu2dcu {

void enableBodySkipping(clang::CompilerInstance &CI) {
  CI.getFrontendOpts().SkipFunctionBodies = true;
}

bool isSkippableBody(const clang::Decl *D, const clang::SourceManager &SM,
                     llvm::function_ref<bool(clang::FileID)> IsTranslated) {
  clang::SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  return Loc.isValid() && SM.isInSystemHeader(Loc) && !IsTranslated(SM.getFileID(Loc));
}

} // namespace cu2dcu
