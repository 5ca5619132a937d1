// Function bodies in system headers (the CUDA wrappers, the C++ library,
// CCCL) are not parsed: nothing cu2dcu writes or reports comes from them, and
// they are about a third of a unit's parse (docs/performance.md). A header the
// run translates keeps its bodies even when it is found through -isystem.
// Units and the shared PCHs skip the same bodies, so a unit's outcome does not
// depend on whether it used a PCH.
#pragma once

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CompilerInstance;
class Decl;
}

namespace cu2dcu {

/// Asks clang to consult the consumer (shouldSkipFunctionBody) for every
/// function body; call from CreateASTConsumer, before the parse.
void enableBodySkipping(clang::CompilerInstance &CI);

/// Whether D's body may go unparsed: D is in a system header that the run
/// does not translate (IsTranslated tells, per file).
bool isSkippableBody(const clang::Decl *D, const clang::SourceManager &SM,
                     llvm::function_ref<bool(clang::FileID)> IsTranslated);

} // namespace cu2dcu
