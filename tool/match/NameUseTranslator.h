// Renames uses of CUDA declarations found through the AST: calls, variables,
// enumerators, types (including template arguments, typedefs and using).
// A name counts as CUDA's only when its declaration comes from a system
// header, so a user's own function called cudaFoo is left alone.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Decl.h"

namespace cu2dcu {

class NameUseTranslator {
public:
  NameUseTranslator(SourceContext &Context, std::string CudaIncludeDir)
      : Context(Context), CudaIncludeDir(std::move(CudaIncludeDir)) {}

  /// A use of Decl spelled at Loc.
  void handleUse(const clang::NamedDecl *Decl, clang::SourceLocation Loc);
  /// A use by name only (dependent call in a template); Candidates are the
  /// declarations lookup found.
  void handleUnresolvedUse(const std::string &Name, clang::SourceLocation Loc,
                           bool AnyCandidateFromSystemHeader);

private:
  bool isFromCudaHeaders(const clang::Decl *Decl) const;
  SourceContext &Context;
  std::string CudaIncludeDir;
};

} // namespace cu2dcu
