#include "driver/TranslateAction.h"

#include "match/WarpIntrinsicTranslator.h"
#include "checks/Wave64Check.h"
#include "driver/TraversalScope.h"
#include "translate/RawTokens.h"
#include "match/KernelLaunchTranslator.h"
#include "match/LaunchBoundsTranslator.h"
#include "match/NameUseTranslator.h"
#include "match/PreprocessorTranslator.h"
#include "match/RegisterKeywordTranslator.h"
#include "match/CallArgumentTranslator.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <optional>

namespace cu2dcu {

namespace {

/// Walks the code as written (no template instantiations) and hands each
/// node to the translator for its concern.
class AstTranslator : public clang::RecursiveASTVisitor<AstTranslator> {
public:
  AstTranslator(SourceContext &Context, const std::string &CudaIncludeDir, clang::ASTContext &Ast)
      : Ast(Ast), Names(Context, CudaIncludeDir), Launches(Context), Symbols(Context),
        Bounds(Context), Registers(Context) {}

  bool VisitDeclRefExpr(clang::DeclRefExpr *E) {
    Names.handleUse(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitUnresolvedLookupExpr(clang::UnresolvedLookupExpr *E) {
    const clang::SourceManager &SM = Ast.getSourceManager();
    auto System = llvm::find_if(E->decls(), [&](const clang::NamedDecl *D) {
      return SM.isInSystemHeader(D->getLocation());
    });
    Names.handleUnresolvedUse(System == E->decls().end() ? nullptr : (*System)->getUnderlyingDecl(),
                              E->getNameLoc());
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
  bool VisitVarDecl(clang::VarDecl *Var) {
    Registers.handle(Var);
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
  CallArgumentTranslator Symbols;
  LaunchBoundsTranslator Bounds;
  RegisterKeywordTranslator Registers;
};

/// The byte range of D in its file when it is written in a translated file.
std::optional<SourceContext::FileRange> declRange(const clang::Decl *D, SourceContext &Context) {
  const clang::SourceManager &SM = Context.sourceManager();
  clang::SourceRange R = SM.getExpansionRange(D->getSourceRange()).getAsRange();
  if (R.isInvalid())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(R.getEnd());
  if (File != EndFile || !Context.isTranslated(File))
    return std::nullopt;
  unsigned End = EndOffset + clang::Lexer::MeasureTokenLength(R.getEnd(), SM, cudaLangOptions());
  return SourceContext::FileRange{File, Begin, std::max(End, Begin)};
}

/// Records where clang recovered from errors: every top-level declaration
/// (inside namespaces and linkage specifications) that is invalid or holds
/// an error, and the line of an error outside any declaration.
void recordRecoveredRanges(clang::ASTContext &Ast, SourceContext &Context,
                           const std::vector<clang::SourceLocation> &Errors) {
  const clang::SourceManager &SM = Context.sourceManager();
  std::vector<std::pair<clang::FileID, unsigned>> Pending;
  for (clang::SourceLocation Loc : Errors) {
    auto [File, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
    if (File.isValid() && Context.isTranslated(File))
      Pending.push_back({File, Offset});
  }
  std::vector<bool> Covered(Pending.size());
  std::function<void(const clang::DeclContext *)> Walk = [&](const clang::DeclContext *DC) {
    for (const clang::Decl *D : DC->decls()) {
      if (llvm::isa<clang::NamespaceDecl>(D) || llvm::isa<clang::LinkageSpecDecl>(D)) {
        Walk(llvm::cast<clang::DeclContext>(D));
        continue;
      }
      auto Range = declRange(D, Context);
      if (!Range)
        continue;
      bool Recovered = D->isInvalidDecl();
      for (size_t I = 0; I < Pending.size(); ++I)
        if (Pending[I].first == Range->File && Pending[I].second >= Range->Begin &&
            Pending[I].second < Range->End)
          Recovered = Covered[I] = true;
      if (Recovered)
        Context.findingsFor(Range->File).RecoveredRanges.push_back({Range->Begin, Range->End});
    }
  };
  Walk(Ast.getTranslationUnitDecl());
  for (size_t I = 0; I < Pending.size(); ++I) {
    if (Covered[I])
      continue;
    const std::string &Text = Context.textOf(Pending[I].first);
    auto [Begin, End] = lineBounds(Text, Pending[I].second);
    Context.findingsFor(Pending[I].first).RecoveredRanges.push_back({unsigned(Begin), unsigned(End)});
  }
}

class TranslateConsumer : public clang::ASTConsumer {
public:
  TranslateConsumer(std::unique_ptr<SourceContext> Context,
                    std::unique_ptr<TraversalScope> Scope, std::string CudaIncludeDir,
                    StageTime *MatchTime, const SharedPch *Pch,
                    const std::vector<clang::SourceLocation> *ErrorLocations)
      : Context(std::move(Context)), Scope(std::move(Scope)),
        CudaIncludeDir(std::move(CudaIncludeDir)), MatchTime(MatchTime), Pch(Pch),
        ErrorLocations(ErrorLocations) {}

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override {
    Scope->addTopLevel(Group);
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext &Ast) override {
    StageClock Clock;
    Scope->apply(Ast); // every pass below walks only what can hold translated code
    AstTranslator(*Context, CudaIncludeDir, Ast).TraverseAST(Ast);
    translateWarpIntrinsics(*Context, Ast); // after the names: withdraws their HIP-version errors
    Context->finishFiles();
    if (Pch) // the project headers the PCH holds were not entered here
      for (const std::string &Path : Pch->TranslatedFiles)
        if (auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
          Context->finishFile(Path, (*Text)->getBuffer().str());
    clang::ast_matchers::MatchFinder Finder;
    auto Checks = makeWave64Checks(*Context);
    for (auto &Check : Checks)
      Check->registerMatchers(Finder);
    Finder.matchAST(Ast);
    if (ErrorLocations && !ErrorLocations->empty())
      recordRecoveredRanges(Ast, *Context, *ErrorLocations);
    if (MatchTime)
      *MatchTime += Clock.stop();
  }

private:
  std::unique_ptr<SourceContext> Context;
  std::unique_ptr<TraversalScope> Scope;
  std::string CudaIncludeDir;
  StageTime *MatchTime;
  const SharedPch *Pch;
  const std::vector<clang::SourceLocation> *ErrorLocations;
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
    // A missing #include is an error to recover from, as in clangd, not the
    // end of the parse.
    CI.getDiagnostics().setFatalsAsError(true);
    CI.getPreprocessor().addPPCallbacks(std::make_unique<PreprocessorTranslator>(*Context));
    if (Setup.OnBeginSource)
      Setup.OnBeginSource(CI);
    auto Scope = std::make_unique<TraversalScope>(*Context);
    CI.getPreprocessor().addPPCallbacks(Scope->makeWatcher(CI.getPreprocessor()));
    if (Setup.Pch && Setup.Pch->WholeUnit)
      Scope->setWholeUnit();
    if (Setup.Pch && !Setup.Pch->TranslatedFiles.empty())
      Scope->includeExternalDecls();
    return std::make_unique<TranslateConsumer>(std::move(Context), std::move(Scope),
                                               Setup.CudaIncludeDir, Setup.MatchTime, Setup.Pch,
                                               Setup.ErrorLocations);
  }

private:
  const TranslationUnitSetup &Setup;
  TranslationResult &Result;
};

/// Records the project headers a PCH build enters.
class EnteredFiles : public clang::PPCallbacks {
public:
  EnteredFiles(SourceContext &Context, std::vector<std::string> &Paths)
      : Context(Context), Paths(Paths) {}
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile || !Loc.isFileID())
      return;
    clang::FileID File = Context.sourceManager().getFileID(Loc);
    if (Context.isTranslated(File) &&
        std::find(Paths.begin(), Paths.end(), Context.pathOf(File)) == Paths.end())
      Paths.push_back(Context.pathOf(File));
  }

private:
  SourceContext &Context;
  std::vector<std::string> &Paths;
};

} // namespace

struct PchTranslation::State {
  State(const ApiMap &Map, const TranslationOptions &Options,
        std::function<bool(const std::string &)> IsTranslated)
      : Context(Map, Options, std::move(IsTranslated), Result), Scope(Context) {}
  TranslationResult Result;
  SourceContext Context;
  TraversalScope Scope;
  std::vector<std::string> Entered;
};

PchTranslation::PchTranslation(const ApiMap &Map, const TranslationOptions &Options,
                               std::function<bool(const std::string &)> IsTranslated)
    : S(std::make_unique<State>(Map, Options, std::move(IsTranslated))) {}

PchTranslation::~PchTranslation() = default;

void PchTranslation::attach(clang::CompilerInstance &CI) {
  S->Context.setSourceManager(CI.getSourceManager());
  // The same callbacks, in the same order, as a unit's parse.
  CI.getPreprocessor().addPPCallbacks(std::make_unique<PreprocessorTranslator>(S->Context));
  CI.getPreprocessor().addPPCallbacks(S->Scope.makeWatcher(CI.getPreprocessor()));
  CI.getPreprocessor().addPPCallbacks(std::make_unique<EnteredFiles>(S->Context, S->Entered));
}

void PchTranslation::finish(SharedPch &Pch) {
  Pch.Translated.Files = std::move(S->Result.Files);
  Pch.TranslatedFiles = std::move(S->Entered);
  Pch.WholeUnit = S->Scope.wholeUnit();
}

std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationUnitSetup &Setup,
                                                           TranslationResult &Result) {
  return std::make_unique<TranslateAction>(Setup, Result);
}

} // namespace cu2dcu
