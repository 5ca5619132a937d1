#include "match/EmptyBraceAssignmentTranslator.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"

#include <optional>

namespace cu2dcu {

namespace {

/// The raw token after the one at Loc, whitespace skipped.
std::optional<clang::Token> tokenAfter(clang::SourceLocation Loc, const clang::ASTContext &Ast) {
  const clang::SourceManager &SM = Ast.getSourceManager();
  clang::SourceLocation End = clang::Lexer::getLocForEndOfToken(Loc, 0, SM, Ast.getLangOpts());
  clang::Token Token;
  if (End.isInvalid() || clang::Lexer::getRawToken(End, Token, SM, Ast.getLangOpts(), true))
    return std::nullopt;
  return Token;
}

} // namespace

void EmptyBraceAssignmentTranslator::handle(const clang::RecoveryExpr *Recovered,
                                            const clang::ASTContext &Ast) {
  llvm::ArrayRef<const clang::Expr *> Operands = Recovered->subExpressions();
  if (Operands.size() != 2)
    return;
  const auto *Braces = llvm::dyn_cast<clang::InitListExpr>(Operands[1]);
  const clang::CXXRecordDecl *Target = Operands[0]->getType()->getAsCXXRecordDecl();
  const clang::SourceManager &SM = Ast.getSourceManager();
  if (!Braces || Braces->getNumInits() != 0 || Braces->getLBraceLoc().isMacroID() || !Target ||
      !SM.isInSystemHeader(Target->getLocation()))
    return;
  // Only an assignment: the one token between the operands is `=`.
  std::optional<clang::Token> Between = tokenAfter(Operands[0]->getEndLoc(), Ast);
  if (!Between || !Between->is(clang::tok::equal))
    return;
  std::optional<clang::Token> Next = tokenAfter(Between->getLocation(), Ast);
  if (!Next || Next->getLocation() != Braces->getLBraceLoc())
    return;
  const ApiEntry *Entry = Context.map().lookup(Target->getNameAsString());
  if (!Entry || Entry->Status != EntryStatus::Supported || Entry->Hip.empty())
    return;
  auto [File, Offset] = SM.getDecomposedLoc(Braces->getLBraceLoc());
  if (!Context.isTranslated(File))
    return;
  Context.findingsFor(File).Edits.push_back(
      Edit{Offset, 0, Entry->Hip, Entry->Family, Entry->Cuda});
}

} // namespace cu2dcu
