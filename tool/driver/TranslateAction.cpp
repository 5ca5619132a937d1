#include "driver/TranslateAction.h"

#include "wave64/WarpIntrinsicTranslator.h"
#include "wave64/Wave64FixGroups.h"
#include "wave64/Wave64Check.h"
#include "driver/TraversalScope.h"
#include "translate/RawTokens.h"
#include "match/HipDeclaredCollisionTranslator.h"
#include "match/OverloadCollisionTranslator.h"
#include "match/KernelLaunchTranslator.h"
#include "match/LaunchBoundsTranslator.h"
#include "match/NameUseTranslator.h"
#include "match/PreprocessorTranslator.h"
#include "match/EmptyBraceAssignmentTranslator.h"
#include "match/Fp16ConversionTranslator.h"
#include "match/MissingMemberCheck.h"
#include "match/RegisterKeywordTranslator.h"
#include "match/DependentTemplateKeywordTranslator.h"
#include "match/UnsupportedCaseLabelTranslator.h"
#include "match/RelocatableDeviceCodeTranslator.h"
#include "match/CallArgumentTranslator.h"

#include "clang/AST/ASTConsumer.h"
#include "parse/SystemBodies.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <optional>

namespace cu2dcu {

namespace {

/// ASTMatchers has no matcher of its own for the expressions clang kept
/// while it recovered from an error.
const clang::ast_matchers::internal::VariadicDynCastAllOfMatcher<clang::Stmt, clang::RecoveryExpr>
    recoveryExpr;

/// Every type location under a range-for's loop variable. The matchers' walk
/// of code as written matches that declaration only as a whole (clang's
/// MatchASTVisitor does not descend into it), so its type names would be
/// left as CUDA's.
class LoopVariableTypes : public clang::RecursiveASTVisitor<LoopVariableTypes> {
public:
  explicit LoopVariableTypes(llvm::function_ref<void(clang::TypeLoc)> Visit) : Visit(Visit) {}
  bool VisitTypeLoc(clang::TypeLoc TL) {
    Visit(TL);
    return true;
  }

private:
  llvm::function_ref<void(clang::TypeLoc)> Visit;
};

/// The translators, fed by the unit's one MatchFinder walk. They see only the
/// code as written: every matcher is TK_IgnoreUnlessSpelledInSource, which
/// leaves out template instantiations and implicit code (the checks, on the
/// same walk, see those too). A node seen twice (a default argument at each
/// call) gives the same edit twice, which the rewrite merges. The name of a
/// warp call the plan rewrites is the warp translator's.
class AstTranslators : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  AstTranslators(SourceContext &Context, const std::string &CudaIncludeDir,
                 const WarpCallPlanner &WarpPlan)
      : WarpPlan(WarpPlan), Names(Context, CudaIncludeDir), Launches(Context), Symbols(Context),
        Bounds(Context), Registers(Context), Collisions(Context), Overloads(Context), Rdc(Context),
        EmptyBraces(Context), CaseLabels(Context), Fp16Casts(Context), TemplateKeywords(Context),
        Members(Context) {}

  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) {
    using namespace clang::ast_matchers;
    auto Written = [](auto Matcher) { return traverse(clang::TK_IgnoreUnlessSpelledInSource, Matcher); };
    Finder.addMatcher(Written(declRefExpr().bind("ref")), this);
    Finder.addMatcher(Written(unresolvedLookupExpr().bind("lookup")), this);
    Finder.addMatcher(Written(callExpr().bind("call")), this);
    Finder.addMatcher(Written(functionDecl().bind("function")), this);
    Finder.addMatcher(Written(varDecl().bind("var")), this);
    Finder.addMatcher(Written(typeLoc().bind("type")), this);
    Finder.addMatcher(Written(recoveryExpr().bind("recovered")), this);
    Finder.addMatcher(Written(explicitCastExpr().bind("cast")), this);
    Finder.addMatcher(Written(memberExpr().bind("member")), this);
    Finder.addMatcher(Written(cxxConstructExpr().bind("construct")), this);
    Finder.addMatcher(Written(binaryOperator(hasOperatorName("<")).bind("less")), this);
    Finder.addMatcher(Written(cxxOperatorCallExpr(hasOverloadedOperatorName("<")).bind("lessCall")),
                      this);
  }

  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override {
    const auto &Nodes = Result.Nodes;
    if (const auto *E = Nodes.getNodeAs<clang::DeclRefExpr>("ref")) {
      if (!WarpPlan.rewritesNameAt(E->getLocation()) && !CaseLabels.handle(E, *Result.Context))
        Names.handleUse(E->getDecl(), E->getLocation());
      Rdc.handleUse(*E, *Result.Context);
    } else if (const auto *E = Nodes.getNodeAs<clang::UnresolvedLookupExpr>("lookup")) {
      if (!WarpPlan.rewritesNameAt(E->getNameLoc()))
        handleUnresolved(E, *Result.SourceManager);
    }
    else if (const auto *Call = Nodes.getNodeAs<clang::CallExpr>("call"))
      handleCall(Call, *Result.Context);
    else if (const auto *Function = Nodes.getNodeAs<clang::FunctionDecl>("function")) {
      Bounds.handle(Function);
      Collisions.handle(Function);
      Overloads.handle(Function);
    } else if (const auto *Var = Nodes.getNodeAs<clang::VarDecl>("var")) {
      Registers.handle(Var);
      if (Var->isCXXForRangeDecl() && Var->getTypeSourceInfo())
        LoopVariableTypes([&](clang::TypeLoc TL) { handleType(TL); })
            .TraverseTypeLoc(Var->getTypeSourceInfo()->getTypeLoc());
    } else if (const auto *Type = Nodes.getNodeAs<clang::TypeLoc>("type"))
      handleType(*Type);
    else if (const auto *Recovered = Nodes.getNodeAs<clang::RecoveryExpr>("recovered"))
      EmptyBraces.handle(Recovered, *Result.Context);
    else if (const auto *Cast = Nodes.getNodeAs<clang::ExplicitCastExpr>("cast"))
      Fp16Casts.handle(Cast);
    else if (const auto *Construct = Nodes.getNodeAs<clang::CXXConstructExpr>("construct"))
      Fp16Casts.handle(Construct);
    else if (const auto *Access = Nodes.getNodeAs<clang::MemberExpr>("member"))
      Members.handle(Access);
    else if (const auto *Less = Nodes.getNodeAs<clang::BinaryOperator>("less"))
      TemplateKeywords.handle(Less->getLHS());
    else if (const auto *Less = Nodes.getNodeAs<clang::CXXOperatorCallExpr>("lessCall"))
      TemplateKeywords.handle(Less->getArg(0));
  }

private:
  void handleUnresolved(const clang::UnresolvedLookupExpr *E, const clang::SourceManager &SM) {
    auto System = llvm::find_if(E->decls(), [&](const clang::NamedDecl *D) {
      return SM.isInSystemHeader(D->getLocation());
    });
    Names.handleUnresolvedUse(System == E->decls().end() ? nullptr : (*System)->getUnderlyingDecl(),
                              E->getNameLoc());
  }

  void handleCall(const clang::CallExpr *Call, clang::ASTContext &Ast) {
    const clang::Expr *Callee = Call->getCallee()->IgnoreImplicit();
    if (const auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
      Symbols.handle(Call, Ref->getDecl()->getNameAsString());
    else if (const auto *Lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
      Symbols.handle(Call, Lookup->getName().getAsString());
    if (const auto *Launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(Call))
      Launches.handle(Launch, Ast);
  }

  /// The type names a use spells: typedefs, using-declarations, records,
  /// enums and template names.
  void handleType(clang::TypeLoc TL) {
    // The walk reaches `const T` only as a whole, never its `T` on its own.
    if (auto Qualified = TL.getAs<clang::QualifiedTypeLoc>())
      TL = Qualified.getUnqualifiedLoc();
    if (auto T = TL.getAs<clang::TypedefTypeLoc>())
      Names.handleUse(T.getDecl(), T.getNameLoc());
    else if (auto T = TL.getAs<clang::UsingTypeLoc>())
      Names.handleUse(T.getDecl(), T.getNameLoc());
    else if (auto T = TL.getAs<clang::RecordTypeLoc>())
      Names.handleUse(T.getDecl(), T.getNameLoc());
    else if (auto T = TL.getAs<clang::EnumTypeLoc>())
      Names.handleUse(T.getDecl(), T.getNameLoc());
    else if (auto T = TL.getAs<clang::TemplateSpecializationTypeLoc>()) {
      if (const clang::TemplateDecl *Template = T.getTypePtr()->getTemplateName().getAsTemplateDecl())
        Names.handleUse(Template, T.getTemplateNameLoc());
    }
  }

  const WarpCallPlanner &WarpPlan;
  NameUseTranslator Names;
  KernelLaunchTranslator Launches;
  CallArgumentTranslator Symbols;
  LaunchBoundsTranslator Bounds;
  RegisterKeywordTranslator Registers;
  HipDeclaredCollisionTranslator Collisions;
  OverloadCollisionTranslator Overloads;
  RelocatableDeviceCodeTranslator Rdc;
  EmptyBraceAssignmentTranslator EmptyBraces;
  UnsupportedCaseLabelTranslator CaseLabels;
  Fp16ConversionTranslator Fp16Casts;
  DependentTemplateKeywordTranslator TemplateKeywords;
  MissingMemberCheck Members;
};

/// The byte range of R (expanded) when it lies in one translated file.
std::optional<SourceContext::FileRange> fileRangeOf(clang::SourceRange Written,
                                                    SourceContext &Context) {
  const clang::SourceManager &SM = Context.sourceManager();
  clang::SourceRange R = SM.getExpansionRange(Written).getAsRange();
  if (R.isInvalid())
    return std::nullopt;
  auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
  auto [EndFile, EndOffset] = SM.getDecomposedLoc(R.getEnd());
  if (File != EndFile || !Context.isTranslated(File))
    return std::nullopt;
  unsigned End = EndOffset + clang::Lexer::MeasureTokenLength(R.getEnd(), SM, cudaLangOptions());
  return SourceContext::FileRange{File, Begin, std::max(End, Begin)};
}

/// The byte range of D in its file when it is written in a translated file.
std::optional<SourceContext::FileRange> declRange(const clang::Decl *D, SourceContext &Context) {
  return fileRangeOf(D->getSourceRange(), Context);
}

/// A namespace or linkage specification holds its head (up to its `{`) and
/// its closing `}`; what is between belongs to its own declarations.
void holdContainerBraces(const SourceContext::FileRange &Range, const std::string &Text,
                         std::vector<ByteRange> &Held) {
  size_t Brace = Text.find('{', Range.Begin);
  if (Brace == std::string::npos || Brace >= Range.End) {
    Held.push_back({Range.Begin, Range.End}); // `extern "C" int f();` has no braces
    return;
  }
  Held.push_back({Range.Begin, unsigned(Brace + 1)});
  Held.push_back({Range.End > 0 ? Range.End - 1 : 0, Range.End});
}

/// Per file, the byte ranges the top-level declarations of the AST cover
/// (inside namespaces and linkage specifications, whose own braces count).
using CoveredRanges = std::map<clang::FileID, std::vector<ByteRange>>;

/// Sorted, with overlapping ranges merged: each byte is filled in once.
std::vector<ByteRange> merged(std::vector<ByteRange> Ranges) {
  llvm::sort(Ranges, [](const ByteRange &A, const ByteRange &B) { return A.Begin < B.Begin; });
  std::vector<ByteRange> Out;
  for (const ByteRange &R : Ranges)
    if (!Out.empty() && R.Begin <= Out.back().End)
      Out.back().End = std::max(Out.back().End, R.End);
    else
      Out.push_back(R);
  return Out;
}

/// The runs of code in Text[Begin, End) that no covered range holds and no
/// directive: what clang dropped while it recovered (statements outside a
/// function, the members of a class it never declared). A run needs a word.
std::vector<ByteRange> droppedRuns(const std::string &Text, unsigned Begin, unsigned End,
                                   const std::vector<ByteRange> &Covered) {
  // Tokens come in order: one pass over the sorted covered ranges.
  std::vector<ByteRange> Held = merged(Covered);
  auto NextHeld = Held.begin();
  std::vector<ByteRange> Runs;
  bool InDirective = false, RunHasWord = false;
  std::optional<ByteRange> Run;
  auto closeRun = [&] {
    if (Run && RunHasWord)
      Runs.push_back(*Run);
    Run.reset();
    RunHasWord = false;
  };
  for (const RawToken &T : lexRaw(Text, Begin, End)) {
    if (T.StartsLine)
      InDirective = T.Kind == clang::tok::hash;
    while (NextHeld != Held.end() && NextHeld->End <= T.Offset)
      ++NextHeld;
    if (InDirective || (NextHeld != Held.end() && NextHeld->Begin <= T.Offset)) {
      closeRun();
      continue;
    }
    if (!Run)
      Run = ByteRange{T.Offset, T.Offset};
    Run->End = T.Offset + T.Length;
    RunHasWord |= T.Kind == clang::tok::raw_identifier;
  }
  closeRun();
  return Runs;
}

/// Statements clang dropped inside function bodies while it recovered (a loop
/// over a member whose type it could not find): the code of a compound
/// statement that none of its statements holds. Only in files with an error,
/// so that an inactive #if branch elsewhere is not taken for one. Also every
/// expression clang kept but marked as depending on an error, in any file:
/// a call of a name CUDA no longer declares (`cudaBindTexture(0, t, ...)` on
/// a texture reference) has no error of its own, as clang reports nothing
/// more about an expression that uses an invalid declaration.
class DroppedStatements : public clang::RecursiveASTVisitor<DroppedStatements> {
public:
  DroppedStatements(SourceContext &Context, const std::map<clang::FileID, unsigned> &WithErrors,
                    std::map<clang::FileID, std::vector<ByteRange>> &Recovered)
      : Context(Context), WithErrors(WithErrors), Recovered(Recovered) {}

  bool VisitExpr(clang::Expr *E) {
    if (!E->containsErrors())
      return true;
    if (auto Range = fileRangeOf(E->getSourceRange(), Context))
      Recovered[Range->File].push_back({Range->Begin, Range->End});
    return true;
  }

  bool VisitCompoundStmt(clang::CompoundStmt *S) {
    auto Braces = fileRangeOf({S->getLBracLoc(), S->getRBracLoc()}, Context);
    if (!Braces || !WithErrors.count(Braces->File))
      return true;
    std::vector<ByteRange> Held;
    for (const clang::Stmt *Child : S->body())
      if (auto Range = fileRangeOf(Child->getSourceRange(), Context))
        Held.push_back({Range->Begin, Range->End});
    llvm::append_range(Recovered[Braces->File],
                       droppedRuns(Context.textOf(Braces->File), Braces->Begin + 1,
                                   Braces->End - 1, Held));
    return true;
  }

private:
  SourceContext &Context;
  const std::map<clang::FileID, unsigned> &WithErrors;
  std::map<clang::FileID, std::vector<ByteRange>> &Recovered;
};

/// Records where clang recovered from errors: every top-level declaration
/// (inside namespaces and linkage specifications) that is invalid or holds
/// an error; in a file with an error, the code after it that no declaration
/// holds; and the line of any other error outside a declaration.
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
  CoveredRanges Held;
  std::map<clang::FileID, std::vector<ByteRange>> Recovered;
  std::function<void(const clang::DeclContext *)> Walk = [&](const clang::DeclContext *DC) {
    for (const clang::Decl *D : DC->decls()) {
      auto Range = declRange(D, Context);
      if (llvm::isa<clang::NamespaceDecl>(D) || llvm::isa<clang::LinkageSpecDecl>(D)) {
        if (Range)
          holdContainerBraces(*Range, Context.textOf(Range->File), Held[Range->File]);
        Walk(llvm::cast<clang::DeclContext>(D));
        continue;
      }
      if (!Range)
        continue;
      Held[Range->File].push_back({Range->Begin, Range->End});
      bool IsRecovered = D->isInvalidDecl();
      for (size_t I = 0; I < Pending.size(); ++I)
        if (Pending[I].first == Range->File && Pending[I].second >= Range->Begin &&
            Pending[I].second < Range->End)
          IsRecovered = Covered[I] = true;
      if (IsRecovered)
        Recovered[Range->File].push_back({Range->Begin, Range->End});
    }
  };
  Walk(Ast.getTranslationUnitDecl());
  std::map<clang::FileID, unsigned> FirstError;
  for (const auto &[File, Offset] : Pending)
    if (!FirstError.count(File) || Offset < FirstError[File])
      FirstError[File] = Offset;
  for (const auto &[File, Offset] : FirstError) {
    const std::string &Text = Context.textOf(File);
    llvm::append_range(Recovered[File], droppedRuns(Text, unsigned(lineBounds(Text, Offset).first),
                                                    Text.size(), Held[File]));
  }
  DroppedStatements(Context, FirstError, Recovered).TraverseAST(Ast);
  for (size_t I = 0; I < Pending.size(); ++I) {
    if (Covered[I])
      continue;
    const std::string &Text = Context.textOf(Pending[I].first);
    auto [Begin, End] = lineBounds(Text, Pending[I].second);
    Recovered[Pending[I].first].push_back({unsigned(Begin), unsigned(End)});
  }
  for (auto &[File, Ranges] : Recovered)
    llvm::append_range(Context.findingsFor(File).RecoveredRanges, merged(std::move(Ranges)));
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

  // A parse that ends before the unit is complete still translates its macro
  // bodies (with no plan, nothing is left to the AST).
  ~TranslateConsumer() override { Context->translateMacroBodies(); }

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override {
    Scope->addTopLevel(Group);
    return true;
  }

  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return isSkippableBody(D, Context->sourceManager(),
                           [&](clang::FileID File) { return Context->isTranslated(File); });
  }

  void HandleTranslationUnit(clang::ASTContext &Ast) override {
    StageClock Clock;
    Scope->apply(Ast); // every pass below walks only what can hold translated code
    // The unit's plan first: a warp call in a template or a macro body is
    // decided over all its instantiations and expansions, which can lie
    // anywhere in the unit, so the plan needs the whole unit before anything
    // reads it (a pre-pass over the calls only). Then one MatchFinder walk
    // feeds the translators (the code as written) and the checks (also
    // instantiations), which share the plan and its data-flow analysis; the
    // warp translator writes what the plan decided.
    WarpAnalysis Analysis(Context->map());
    WarpCallPlanner WarpPlan(*Context, Ast, Analysis);
    Context->translateMacroBodies(WarpPlan.rewrittenNames());
    clang::ast_matchers::MatchFinder Finder;
    AstTranslators Translators(*Context, CudaIncludeDir, WarpPlan);
    Translators.registerMatchers(Finder);
    Wave64Context Shared{*Context, Analysis, WarpPlan, Ast};
    Wave64Checks Checks(Shared, Finder);
    Finder.matchAST(Ast);
    translateWarpIntrinsics(*Context, Ast, WarpPlan);
    Context->finishFiles();
    if (Pch) // the project headers the PCH holds were not entered here
      for (const std::string &Path : Pch->TranslatedFiles)
        if (auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
          Context->finishFile(Path, (*Text)->getBuffer().str());
    applyWave64Fixes(*Context, Ast); // once every check has reported
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
    enableBodySkipping(CI);
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorTranslator>(*Context, Setup.CudaIncludeDir));
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

/// Translates a PCH build's macro bodies at the end of its main file, while
/// its source manager still exists (the units decide their own warp calls).
class MacroBodiesAtEnd : public clang::PPCallbacks {
public:
  explicit MacroBodiesAtEnd(SourceContext &Context) : Context(Context) {}
  void EndOfMainFile() override { Context.translateMacroBodies(); }

private:
  SourceContext &Context;
};

} // namespace

struct PchTranslation::State {
  State(const ApiMap &Map, const TranslationOptions &Options,
        std::function<bool(const std::string &)> IsTranslated, std::string CudaIncludeDir)
      : Context(Map, Options, std::move(IsTranslated), Result), Scope(Context),
        CudaIncludeDir(std::move(CudaIncludeDir)) {}
  TranslationResult Result;
  SourceContext Context;
  TraversalScope Scope;
  std::string CudaIncludeDir;
  std::vector<std::string> Entered;
};

PchTranslation::PchTranslation(const ApiMap &Map, const TranslationOptions &Options,
                               std::function<bool(const std::string &)> IsTranslated,
                               std::string CudaIncludeDir)
    : S(std::make_unique<State>(Map, Options, std::move(IsTranslated), std::move(CudaIncludeDir))) {}

PchTranslation::~PchTranslation() = default;

void PchTranslation::attach(clang::CompilerInstance &CI) {
  S->Context.setSourceManager(CI.getSourceManager());
  // The same callbacks, in the same order, as a unit's parse.
  CI.getPreprocessor().addPPCallbacks(
      std::make_unique<PreprocessorTranslator>(S->Context, S->CudaIncludeDir));
  CI.getPreprocessor().addPPCallbacks(S->Scope.makeWatcher(CI.getPreprocessor()));
  CI.getPreprocessor().addPPCallbacks(std::make_unique<EnteredFiles>(S->Context, S->Entered));
  CI.getPreprocessor().addPPCallbacks(std::make_unique<MacroBodiesAtEnd>(S->Context));
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
