#include "match/UnsupportedCaseLabelTranslator.h"

#include "core/CheckIds.h"

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"

namespace cu2dcu {

namespace {

/// The case statement whose value E is, through the implicit nodes clang
/// puts around it.
const clang::CaseStmt *caseOf(const clang::Expr *E, clang::ASTContext &Ast) {
  clang::DynTypedNode Node = clang::DynTypedNode::create(*E);
  while (true) {
    auto Parents = Ast.getParents(Node);
    if (Parents.size() != 1)
      return nullptr;
    if (const auto *Case = Parents[0].get<clang::CaseStmt>())
      return Case->getLHS() && Case->getLHS()->IgnoreImplicit() == E && !Case->getRHS() ? Case
                                                                                        : nullptr;
    const auto *Wrapper = Parents[0].get<clang::Expr>();
    if (!Wrapper || Wrapper->IgnoreImplicit() != E)
      return nullptr;
    Node = Parents[0];
  }
}

} // namespace

bool UnsupportedCaseLabelTranslator::handle(const clang::DeclRefExpr *Use,
                                            clang::ASTContext &Ast) {
  const auto *Enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(Use->getDecl());
  const clang::SourceManager &SM = Ast.getSourceManager();
  if (!Enumerator || !SM.isInSystemHeader(Enumerator->getLocation()))
    return false;
  const ApiEntry *Entry = Context.map().lookup(Enumerator->getNameAsString());
  if (!Entry || !Entry->isMissingIn(Context.options().TargetHip) ||
      Entry->usesShim(Context.options().TargetHip))
    return false;
  const clang::CaseStmt *Case = caseOf(Use, Ast);
  if (!Case || Case->getCaseLoc().isMacroID() || Case->getColonLoc().isMacroID())
    return false;
  auto Begin = Context.resolve(Case->getCaseLoc());
  auto Colon = Context.resolve(Case->getColonLoc());
  if (!Begin || !Colon || Begin->File != Colon->File)
    return false;
  const std::string &Text = Context.textOf(Begin->File);
  unsigned End = Colon->Offset + 1;
  while (End < Text.size() && (Text[End] == ' ' || Text[End] == '\t'))
    ++End;
  Context.findingsFor(Begin->File)
      .Edits.push_back(Edit{Begin->Offset, End - Begin->Offset, "", Entry->Family, Entry->Cuda});
  Context.report(Use->getLocation(), check_ids::Unsupported, Severity::Warning,
                 "case label '" + Entry->Cuda +
                     "' removed: HIP never produces its value, as the enumerator has no HIP "
                     "equivalent" + (Entry->Reason.empty() ? "" : ": " + Entry->Reason));
  return true;
}

} // namespace cu2dcu
