// Limits the AST pass (visitor and check matchers) of one translation unit to
// the top-level declarations that can contain code of a translated file.
//
// A CUDA translation unit is mostly system headers: the CUDA runtime wrapper,
// the standard library, Thrust, CUB. Walking all of their declarations with
// the visitor and again with the matchers costs as much as a fifth of the
// parse and can only find nothing, since edits and findings are kept only in
// translated files. So the pass sees the top-level declarations the parser
// produced (HandleTopLevelDecl) minus those that begin in a file the run does
// not translate.
//
// Skipping such a declaration is exact unless code of a translated file could
// be inside it, which needs one of two rare things, both watched for here:
//  - a translated file #included from an untranslated one (an #include inside
//    a namespace or class of a third-party header);
//  - a macro defined in a translated file expanded in an untranslated one
//    (findings inside macro bodies are reported at the body).
// When either happens, the whole translation unit is walked as before.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <memory>
#include <vector>

namespace cu2dcu {

class TraversalScope {
public:
  explicit TraversalScope(SourceContext &Context);

  /// Preprocessor callbacks that watch for the two cases above.
  std::unique_ptr<clang::PPCallbacks> makeWatcher(clang::Preprocessor &PP);
  /// Records the top-level declarations as the parser hands them over.
  void addTopLevel(clang::DeclGroupRef Group);
  /// Narrows Ast's traversal scope, unless a watched case was seen.
  void apply(clang::ASTContext &Ast);

  /// The unit loads project headers from a shared PCH: their declarations
  /// come from the AST's external source, not from the parser, so apply()
  /// takes the translation unit's whole declaration list instead.
  void includeExternalDecls() { External = true; }
  /// A watched case happened where this unit cannot see it (in a PCH build).
  void setWholeUnit() { Shared->WholeUnit = true; }
  bool wholeUnit() const { return Shared->WholeUnit; }

private:
  struct State {
    SourceContext &Context;
    bool WholeUnit = false; // a watched case happened: walk everything
  };
  class Watcher;
  std::shared_ptr<State> Shared;
  std::vector<clang::Decl *> TopLevel;
  bool External = false;
};

} // namespace cu2dcu
