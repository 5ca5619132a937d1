#include "driver/TraversalScope.h"

#include "clang/AST/Decl.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"

namespace cu2dcu {

class TraversalScope::Watcher : public clang::PPCallbacks {
public:
  Watcher(std::shared_ptr<State> Shared, clang::Preprocessor &PP)
      : Shared(std::move(Shared)), PP(PP) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile || Shared->WholeUnit)
      return;
    clang::SourceManager &SM = PP.getSourceManager();
    clang::FileID Entered = SM.getFileID(Loc);
    clang::SourceLocation IncludeLoc = SM.getIncludeLoc(Entered);
    if (IncludeLoc.isInvalid())
      return; // the main file or the predefines
    clang::FileID Includer = SM.getFileID(SM.getExpansionLoc(IncludeLoc));
    // -include files come from the predefines buffer, which is no file and
    // holds no declarations. The main file is a translated file, or, in a
    // PCH build (PchTranslation), the list of #includes standing for one.
    if (!SM.getFileEntryRefForID(Includer) || Includer == SM.getMainFileID())
      return;
    if (!Shared->Context.isTranslated(Includer) && Shared->Context.isTranslated(Entered))
      Shared->WholeUnit = true;
  }

  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &Definition,
                    clang::SourceRange, const clang::MacroArgs *) override {
    if (Shared->WholeUnit || PP.isParsingIfOrElifDirective())
      return; // a condition makes no declarations
    const clang::MacroInfo *Info = Definition.getMacroInfo();
    if (!Info || Info->isBuiltinMacro() || Info->getDefinitionLoc().isInvalid())
      return;
    clang::SourceManager &SM = PP.getSourceManager();
    auto [It, New] = DefinedInTranslated.try_emplace(Info, false);
    if (New)
      It->second = Shared->Context.isTranslated(
          SM.getFileID(SM.getExpansionLoc(Info->getDefinitionLoc())));
    if (It->second &&
        !Shared->Context.isTranslated(SM.getFileID(SM.getExpansionLoc(Name.getLocation()))))
      Shared->WholeUnit = true;
  }

private:
  std::shared_ptr<State> Shared;
  clang::Preprocessor &PP;
  llvm::DenseMap<const clang::MacroInfo *, bool> DefinedInTranslated;
};

TraversalScope::TraversalScope(SourceContext &Context)
    : Shared(std::make_shared<State>(State{Context})) {}

std::unique_ptr<clang::PPCallbacks> TraversalScope::makeWatcher(clang::Preprocessor &PP) {
  return std::make_unique<Watcher>(Shared, PP);
}

void TraversalScope::addTopLevel(clang::DeclGroupRef Group) {
  TopLevel.insert(TopLevel.end(), Group.begin(), Group.end());
}

void TraversalScope::apply(clang::ASTContext &Ast) {
  if (Shared->WholeUnit)
    return;
  clang::SourceManager &SM = Ast.getSourceManager();
  std::vector<clang::Decl *> Scope, All;
  if (External) // in the order of the unit: the PCH's declarations, then the parsed ones
    All.assign(Ast.getTranslationUnitDecl()->decls_begin(),
               Ast.getTranslationUnitDecl()->decls_end());
  const std::vector<clang::Decl *> &Candidates = External ? All : TopLevel;
  Scope.reserve(Candidates.size());
  for (clang::Decl *D : Candidates) {
    // Skip a declaration only when it begins and ends in the same untranslated
    // file: its tokens then all come from that file, or from files it
    // includes, or from macros, which the watcher covers.
    clang::SourceLocation Begin = D->getBeginLoc(), End = D->getEndLoc();
    if (Begin.isValid() && End.isValid()) {
      clang::FileID File = SM.getFileID(SM.getExpansionLoc(Begin));
      if (File == SM.getFileID(SM.getExpansionLoc(End)) && !Shared->Context.isTranslated(File))
        continue;
    }
    Scope.push_back(D);
  }
  Ast.setTraversalScope(Scope);
}

} // namespace cu2dcu
