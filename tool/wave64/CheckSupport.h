// Small helpers shared by the wave64 check implementations.
#pragma once

#include "wave64/WarpAnalysis.h"
#include "wave64/Wave64Check.h"
#include "core/SourceText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/TypeLoc.h"

#include <optional>
#include <string>

namespace cu2dcu {

/// Whether Loc is written (spelled) in a file this run translates.
inline bool inTranslatedCode(SourceContext &Context, clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  const clang::SourceManager &SM = Context.sourceManager();
  return Context.isTranslated(SM.getFileID(SM.getSpellingLoc(Loc)));
}

/// The function around S when the checks should look at it: code as written,
/// not template instantiations (their pattern is checked once).
inline const clang::FunctionDecl *checkedFunction(const clang::Stmt *S, clang::ASTContext &Ctx,
                                                  bool *Outside = nullptr) {
  const clang::FunctionDecl *F = enclosingFunction(S, Ctx);
  if (Outside)
    *Outside = F == nullptr;
  if (F && F->isTemplateInstantiation())
    return nullptr;
  if (F) {
    // Members of class template instantiations.
    for (const clang::DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
      if (const auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(DC))
        if (R->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation)
          return nullptr;
  }
  return F;
}

/// Whether S reads the variable V anywhere.
inline bool mentions(const clang::Stmt *S, const clang::VarDecl *V) {
  if (!S)
    return false;
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(S))
    return Ref->getDecl() == V;
  for (const clang::Stmt *Child : S->children())
    if (mentions(Child, V))
      return true;
  return false;
}

/// Where to point at an expression that may start with a macro: the macro's
/// name where it is used rather than its #define.
inline clang::SourceLocation useLoc(clang::SourceLocation Loc, const clang::SourceManager &SM) {
  if (Loc.isMacroID() && !SM.isMacroArgExpansion(Loc))
    return SM.getImmediateExpansionRange(Loc).getBegin();
  return Loc;
}

/// Whether V is the only variable of its declaration (changing its written
/// type does not change another's: not `unsigned a = ..., b;`).
inline bool declaredAlone(const clang::VarDecl *V, clang::ASTContext &Ctx) {
  auto Parents = Ctx.getParents(*V);
  if (!Parents.empty())
    if (const auto *DS = Parents[0].get<clang::DeclStmt>())
      return DS->isSingleDecl();
  const clang::TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI)
    return false;
  clang::SourceLocation Begin = TSI->getTypeLoc().getBeginLoc();
  for (const clang::Decl *D : V->getDeclContext()->decls())
    if (const auto *Other = llvm::dyn_cast<clang::VarDecl>(D))
      if (Other != V && Other->getTypeSourceInfo() &&
          Other->getTypeSourceInfo()->getTypeLoc().getBeginLoc() == Begin)
        return false;
  return true;
}

/// The fix giving V the type `unsigned long long` (a 64-bit lane-bit
/// container), one edit whichever check proposes it, so that identical
/// proposals are recognised as one (Wave64Fix::JudgedElsewhere). Safe only when
/// Safe is asked and V's written type is a builtin or typedef declared alone;
/// none for a variable without a written type or with auto.
inline std::optional<Wave64Fix> widenTypeFix(const clang::VarDecl *V, clang::ASTContext &Ctx,
                                             std::string Description, bool Safe) {
  clang::TypeSourceInfo *TSI = V->getTypeSourceInfo();
  if (!TSI || V->getType()->getContainedAutoType())
    return std::nullopt;
  clang::TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
  bool Simple = (TL.getAs<clang::BuiltinTypeLoc>() || TL.getAs<clang::TypedefTypeLoc>()) &&
                declaredAlone(V, Ctx);
  return rangeFix(Ctx.getSourceManager(), TL.getBeginLoc(), TL.getEndLoc(), "unsigned long long",
                  std::move(Description), Safe && Simple);
}

/// Spelled text of an expression, blanks collapsed, shortened for messages.
inline std::string exprText(const clang::Expr *E, const clang::SourceManager &SM,
                            size_t Max = 48) {
  std::string Out = collapseBlanks(spelledText(E->getSourceRange(), SM));
  if (Out.empty())
    return "this expression";
  if (Out.size() > Max)
    Out = Out.substr(0, Max - 3) + "...";
  return Out;
}

} // namespace cu2dcu
