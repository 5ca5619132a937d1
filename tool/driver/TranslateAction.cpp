#include "driver/TranslateAction.h"

#include "checks/WarpIntrinsicTranslator.h"
#include "checks/Wave64Check.h"
#include "match/KernelLaunchTranslator.h"
#include "match/LaunchBoundsTranslator.h"
#include "match/NameUseTranslator.h"
#include "match/PreprocessorTranslator.h"
#include "match/SymbolArgumentTranslator.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"

namespace cu2dcu {

namespace {

/// Walks the code as written (no template instantiations) and hands each
/// node to the translator for its concern.
class AstTranslator : public clang::RecursiveASTVisitor<AstTranslator> {
public:
  AstTranslator(SourceContext &Context, const std::string &CudaIncludeDir, clang::ASTContext &Ast)
      : Ast(Ast), Names(Context, CudaIncludeDir), Launches(Context), Symbols(Context),
        Bounds(Context) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    Names.handleUse(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    bool FromSystem = false;
    for (const clang::NamedDecl *D : E->decls())
      FromSystem |= D->getASTContext().getSourceManager().isInSystemHeader(D->getLocation());
    Names.handleUnresolvedUse(E->getName().getAsString(), E->getNameLoc(), FromSystem);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *Call) {
    const clang::Expr *Callee = Call->getCallee()->IgnoreImplicit();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
      Symbols.handle(Call, Ref->getDecl()->getNameAsString());
    else if (const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
      Symbols.handle(Call, Lookup->getName().getAsString());
    return true;
  }
  bool VisitFunctionDecl(clang::FunctionDecl *Function) {
    Bounds.handle(Function);
    return true;
  }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *Launch) {
    Launches.handle(Launch, Ast);
    return true;
  }
  bool VisitTypedefTypeLoc(clang::TypedefTypeLoc TL) {
    Names.handleUse(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitUsingTypeLoc(clang::UsingTypeLoc TL) {
    Names.handleUse(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitRecordTypeLoc(clang::RecordTypeLoc TL) {
    Names.handleUse(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitEnumTypeLoc(clang::EnumTypeLoc TL) {
    Names.handleUse(TL.getDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(clang::TemplateSpecializationTypeLoc TL) {
    if (const clang::TemplateDecl *T = TL.getTypePtr()->getTemplateName().getAsTemplateDecl())
      Names.handleUse(T, TL.getTemplateNameLoc());
    return true;
  }

private:
  clang::ASTContext &Ast;
  NameUseTranslator Names;
  KernelLaunchTranslator Launches;
  SymbolArgumentTranslator Symbols;
  LaunchBoundsTranslator Bounds;
};

class TranslateConsumer : public clang::ASTConsumer {
public:
  TranslateConsumer(std::unique_ptr<SourceContext> Context, std::string CudaIncludeDir,
                    StageTime *MatchTime)
      : Context(std::move(Context)), CudaIncludeDir(std::move(CudaIncludeDir)),
        MatchTime(MatchTime) {}

  void HandleTranslationUnit(clang::ASTContext &Ast) override {
    StageClock Clock;
    AstTranslator(*Context, CudaIncludeDir, Ast).TraverseAST(Ast);
    translateWarpIntrinsics(*Context, Ast); // after the names: withdraws their HIP-version errors
    Context->finishFiles();
    clang::ast_matchers::MatchFinder Finder;
    auto Checks = makeWave64Checks(*Context);
    for (auto &Check : Checks)
      Check->registerMatchers(Finder);
    Finder.matchAST(Ast);
    if (MatchTime)
      *MatchTime += Clock.stop();
  }

private:
  std::unique_ptr<SourceContext> Context;
  std::string CudaIncludeDir;
  StageTime *MatchTime;
};

class TranslateAction : public clang::ASTFrontendAction {
public:
  TranslateAction(const TranslationUnitSetup &Setup, TranslationResult &Result)
      : Setup(Setup), Result(Result) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef) override {
    auto Context = std::make_unique<SourceContext>(Setup.Map, Setup.Options, Setup.IsTranslated,
                                                   Result);
    Context->setSourceManager(CI.getSourceManager());
    CI.getPreprocessor().addPPCallbacks(std::make_unique<PreprocessorTranslator>(*Context));
    return std::make_unique<TranslateConsumer>(std::move(Context), Setup.CudaIncludeDir,
                                               Setup.MatchTime);
  }

private:
  const TranslationUnitSetup &Setup;
  TranslationResult &Result;
};

} // namespace

std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationUnitSetup &Setup,
                                                           TranslationResult &Result) {
  return std::make_unique<TranslateAction>(Setup, Result);
}

} // namespace cu2dcu
