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
  /// A use by name only (dependent call in a template); SystemCandidate is
  /// the first declaration lookup found in a system header, if any.
  void handleUnresolvedUse(const clang::NamedDecl *SystemCandidate, clang::SourceLocation Loc);

private:
  /// Decl (declared in a system header) used at Loc: its map entry's
  /// translation, or CU2DCU-UNMAPPED when CUDA declares it and no entry does.
  /// OverloadKnown: Decl is the overload the use resolves to (not one
  /// candidate of a dependent call), so an overload's shim may apply.
  void translateOrReport(const clang::NamedDecl *Decl, clang::SourceLocation Loc,
                         bool OverloadKnown = true);
  /// The entry for Decl: by its written qualified name, else its plain name.
  const ApiEntry *lookup(const clang::NamedDecl *Decl) const;
  bool isFromCudaHeaders(const clang::Decl *Decl) const;
  SourceContext &Context;
  std::string CudaIncludeDir;
};

} // namespace cu2dcu
