#include "match/KernelLaunchTranslator.h"

#include "translate/EntryTranslation.h"
#include "translate/LaunchRewrite.h"
#include "translate/RawTokens.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

namespace cu2dcu {

namespace {

bool hasExplicitTemplateArgs(const clang::Expr *Callee) {
  Callee = Callee->IgnoreImplicit();
  if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    return Ref->hasExplicitTemplateArgs();
  if (const auto *Overloads = llvm::dyn_cast<clang::OverloadExpr>(Callee))
    return Overloads->hasExplicitTemplateArgs();
  return false;
}

bool isWritten(const clang::Expr *Arg) { return !llvm::isa<clang::CXXDefaultArgExpr>(Arg); }

/// True when the launch is a whole expression statement (its value unused).
bool standsAsStatement(const clang::Expr *Launch, clang::ASTContext &Ast) {
  const clang::Stmt *Node = Launch;
  while (true) {
    auto Parents = Ast.getParents(*Node);
    if (Parents.empty())
      return false;
    if (const auto *Cleanups = Parents[0].get<clang::ExprWithCleanups>()) {
      Node = Cleanups;
      continue;
    }
    const clang::Stmt *Parent = Parents[0].get<clang::Stmt>();
    if (!Parent)
      return false;
    if (llvm::isa<clang::Expr>(Parent))
      return false;
    // In if/while/for/switch headers the launch is a condition, not a statement.
    if (const auto *If = llvm::dyn_cast<clang::IfStmt>(Parent))
      return If->getCond() != Node;
    if (const auto *While = llvm::dyn_cast<clang::WhileStmt>(Parent))
      return While->getCond() != Node;
    if (const auto *Do = llvm::dyn_cast<clang::DoStmt>(Parent))
      return Do->getCond() != Node;
    if (const auto *For = llvm::dyn_cast<clang::ForStmt>(Parent))
      return For->getCond() != Node && For->getInc() != Node;
    if (llvm::isa<clang::ReturnStmt>(Parent) || llvm::isa<clang::SwitchStmt>(Parent))
      return false;
    return true;
  }
}

} // namespace

void KernelLaunchTranslator::handle(const clang::CUDAKernelCallExpr *Launch,
                                    clang::ASTContext &Ast) {
  if (Context.options().KeepLaunchSyntax)
    return;
  const clang::CallExpr *Config = Launch->getConfig();
  if (!Config)
    return;
  clang::SourceManager &SM = Context.sourceManager();
  clang::SourceLocation OpenLoc = Config->getCallee()->getBeginLoc();
  clang::SourceLocation CloseLoc = Config->getRParenLoc();
  // A launch written inside a macro body is rewritten in the body's text.
  if (SM.isMacroBodyExpansion(OpenLoc) || SM.isMacroBodyExpansion(CloseLoc))
    return;
  if (!standsAsStatement(Launch, Ast)) {
    if (Context.resolve(OpenLoc))
      Context.report(OpenLoc, check_ids::Launch, Severity::Note,
                     "launch used inside an expression kept as <<<...>>> (hipcc accepts it; "
                     "hipLaunchKernelGGL is a statement)");
    return;
  }
  auto Callee = Context.resolveRange(Launch->getCallee()->getSourceRange());
  auto Open = Context.resolve(OpenLoc);
  auto Close = Context.resolve(CloseLoc);
  if (!Callee || !Open || !Close)
    return;
  if (Callee->File != Open->File || Open->File != Close->File) {
    Context.report(OpenLoc, check_ids::Launch, Severity::Warning,
                   "kernel launch spans several files or macros; left as <<<...>>>");
    return;
  }
  const std::string &Text = Context.textOf(Open->File);
  std::vector<RawToken> After =
      lexRaw(Text, Close->Offset + 3, std::min<size_t>(Text.size(), Close->Offset + 4096));
  if (After.empty() || After.front().Kind != clang::tok::l_paren) {
    Context.report(OpenLoc, check_ids::Launch, Severity::Warning,
                   "kernel launch arguments not found after '>>>'; left as <<<...>>>");
    return;
  }
  LaunchSite Site;
  Site.CalleeBegin = Callee->Begin;
  Site.CalleeEnd = Open->Offset;
  Site.OpenBegin = Open->Offset;
  Site.CloseBegin = Close->Offset;
  Site.ArgsOpenEnd = After.front().Offset + 1;
  Site.TemplatedCallee = hasExplicitTemplateArgs(Launch->getCallee());
  for (const clang::Expr *Arg : Config->arguments()) {
    if (!isWritten(Arg))
      break;
    auto Written = Context.resolveRange(Arg->getSourceRange());
    if (!Written || Written->File != Open->File) {
      Context.report(OpenLoc, check_ids::Launch, Severity::Warning,
                     "launch configuration is split across macros; left as <<<...>>>");
      return;
    }
    Site.ConfigArgs.push_back({Written->Begin, Written->End});
  }
  Site.HasCallArgs = std::any_of(Launch->arg_begin(), Launch->arg_end(),
                                 [](const clang::Expr *A) { return isWritten(A); });
  rewriteLaunch(Site, Text, Context.findingsFor(Open->File));
}

} // namespace cu2dcu
