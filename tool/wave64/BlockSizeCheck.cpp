// W64-BLOCK-SIZE: kernel launches whose block size is a constant that is not
// a multiple of 64. The hardware schedules whole 64-lane wavefronts, so the
// last wavefront of such a block runs with idle lanes (a block of 32 threads
// leaves half of its only wavefront empty). A performance note. A block size
// built from a warp-size constant is folded into that constant's definition.
// A block collective whose AMD form needs whole wavefronts (CUB's
// warp-transpose loads and stores: rocPRIM static_asserts) given such a block
// does not compile: an error, fixed by the algorithm that works for any block.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Regex.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class BlockSizeCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
    Finder.addMatcher(templateSpecializationTypeLoc().bind("collective"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *Collective = Result.Nodes.getNodeAs<TypeLoc>("collective"))
      return onCollective(Collective->getAs<TemplateSpecializationTypeLoc>(), *Result.Context);
    const auto *Launch = Result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
    ASTContext &Ctx = *Result.Context;
    if (!Launch || !inTranslatedCode(context(), Launch->getBeginLoc()))
      return;
    const CallExpr *Config = Launch->getConfig();
    if (!Config || Config->getNumArgs() < 2)
      return;
    bool Outside = false;
    const FunctionDecl *F = checkedFunction(Launch, Ctx, &Outside);
    if (!F && !Outside)
      return onInstantiatedLaunch(Launch, Ctx);
    const FunctionFlow &Flow = analysis().flowAt(Launch, Ctx);
    const Expr *Block = Config->getArg(1);
    auto Threads = threadsOf(Block, Flow, Ctx, 0);
    static const char *const Roles[] = {"grid size", "block size", "dynamic shared memory size"};
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    bool Filled = Threads && (*Threads <= 1 || *Threads % 64 == 0);
    // A whole-wavefront block built from 32s (4 * 32) matters to a kernel
    // that splits its work by warpSize: it gets two warps of 64, not four of
    // 32. Where the kernel divides by 32 itself, its own findings carry the
    // co-change. A block of idle lanes gets the note below.
    bool PerWarp = Kernel && analysis().shufflesAround(Kernel, Ctx) &&
                   referencesWarpSize(Kernel->getBody());
    for (unsigned I = 0; I < Config->getNumArgs() && I < 3; ++I)
      if (I != 1 || !Threads || (Filled && PerWarp))
        onShapeFrom32(Config->getArg(I), Roles[I], Kernel, Ctx);
    if (!Threads || Filled || analysis().readsCudaViewOnly(Block, Ctx))
      return; // <<<1, 1>>>: serial code, no wavefront to fill; or the port's
              // block size comes from the project's own AMD definitions
    // <<<g, WARP_SIZE * 3>>>: the shape follows the constant's definition.
    auto Named = warpSizeIn(Block, Ctx);
    report(blockLoc(Launch), Severity::Note, blockMessage(*Threads, ""), {},
           Named ? Named->DefinitionLoc : SourceLocation());
  }

private:
  static SourceLocation blockLoc(const CUDAKernelCallExpr *Launch) {
    SourceLocation At = Launch->getConfig()->getArg(1)->getBeginLoc();
    return At.isValid() ? At : Launch->getBeginLoc();
  }

  static std::string blockMessage(uint64_t N, const std::string &Origin) {
    uint64_t Waves = (N + 63) / 64, Idle = Waves * 64 - N;
    return "block of " + std::to_string(N) + " threads" + Origin + " is not a multiple of 64: " +
           (N < 64 ? "it fills " + std::to_string(N) + " of the 64 lanes of its only wavefront"
                   : "it runs as " + std::to_string(Waves) + " wavefronts with " +
                         std::to_string(Idle) + " idle lanes") +
           "; a multiple of 64 (e.g. " + std::to_string(Waves * 64) + ") uses every lane";
  }

  /// A launch in a template instantiation whose block size is a template
  /// argument (`<<<g, BLOCK_THREADS>>>` in `Test<32, 32>`): the pattern cannot
  /// know the value, so each instantiation reports its own, folded into the
  /// point of instantiation, where the argument is written.
  void onInstantiatedLaunch(const CUDAKernelCallExpr *Launch, ASTContext &Ctx) {
    const FunctionDecl *F = enclosingFunction(Launch, Ctx);
    const NonTypeTemplateParmDecl *Param = templateArgumentIn(Launch->getConfig()->getArg(1));
    if (!F || !Param)
      return;
    const FunctionFlow &Flow = analysis().flowAt(Launch, Ctx);
    auto Threads = threadsOf(Launch->getConfig()->getArg(1), Flow, Ctx, 0);
    SourceLocation Written = F->getPointOfInstantiation();
    if (!Threads || *Threads <= 1 || *Threads % 64 == 0 || Written.isInvalid())
      return;
    std::string Instance; // Test<32, 32>: each instantiation is a finding of its own
    llvm::raw_string_ostream OS(Instance);
    F->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
    std::string Origin = " (template argument '" + Param->getNameAsString() + "' of '" +
                         Instance + "')";
    report(blockLoc(Launch), Severity::Note, blockMessage(*Threads, Origin), {}, Written);
  }

  /// `BlockLoad<int, 32, 4, BLOCK_LOAD_WARP_TRANSPOSE>`, written or reached
  /// through a template argument: rocPRIM's form asserts a block of whole
  /// wavefronts, so the port does not compile. Reported once where the
  /// algorithm is written, for the first block size that breaks it.
  void onCollective(TemplateSpecializationTypeLoc TL, ASTContext &Ctx) {
    if (!TL || !inTranslatedCode(context(), TL.getTemplateNameLoc()))
      return;
    const auto *Spec =
        dyn_cast_or_null<ClassTemplateSpecializationDecl>(TL.getType()->getAsCXXRecordDecl());
    if (!Spec)
      return;
    const auto &AnyBlock = context().map().warpNames().WholeWavefrontAlgorithms;
    const TemplateParameterList *Params = Spec->getSpecializedTemplate()->getTemplateParameters();
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    uint64_t Threads = 1;
    std::optional<unsigned> Algorithm;
    for (unsigned I = 0; I < Args.size() && I < Params->size(); ++I) {
      if (Args[I].getKind() != TemplateArgument::Integral)
        continue;
      if (const auto *Enum = Args[I].getIntegralType()->getAs<EnumType>()) {
        for (const EnumConstantDecl *E : Enum->getDecl()->enumerators())
          if (llvm::APSInt::isSameValue(E->getInitVal(), Args[I].getAsIntegral()) &&
              AnyBlock.count(E->getNameAsString()))
            Algorithm = I;
      } else if (BlockDimension.match(Params->getParam(I)->getName())) {
        Threads *= Args[I].getAsIntegral().getZExtValue();
      }
    }
    if (!Algorithm || Threads % 64 == 0 || *Algorithm >= TL.getNumArgs())
      return;
    const Expr *Written = TL.getArgLoc(*Algorithm).getSourceExpression();
    const auto *Ref = Written ? dyn_cast<DeclRefExpr>(Written->IgnoreParenImpCasts()) : nullptr;
    SourceLocation At = Written ? Written->getBeginLoc() : TL.getTemplateNameLoc();
    if (!ReportedCollectives.insert(At.getRawEncoding()).second)
      return;
    std::string Name = Ref ? Ref->getDecl()->getNameAsString() : "";
    auto Replacement = AnyBlock.find(Name);
    std::vector<Wave64Fix> Fixes;
    if (Replacement != AnyBlock.end()) {
      Fixes.push_back(tokenFix(Ctx.getSourceManager(), Ref->getLocation(), Replacement->second,
                               "use " + Replacement->second, /*Safe=*/true));
      Fixes.back().Standalone = true; // the same arrangement at every block size
    }
    std::string Type = QualType(TL.getTypePtr(), 0).getAsString(Ctx.getPrintingPolicy());
    report(At, Severity::Error,
           "'" + Type + "' has a block of " + std::to_string(Threads) +
               " threads, not a multiple of 64: its warp-transpose algorithm needs whole "
               "64-lane wavefronts on AMD (rocPRIM asserts it), so the port does not "
               "compile; " +
               (Replacement != AnyBlock.end()
                    ? Replacement->second + " gives the same blocked arrangement for any block size"
                    : "choose the block-wide transpose algorithm for such blocks"),
           std::move(Fixes));
  }

  llvm::DenseSet<unsigned> ReportedCollectives;
  /// CUB's BLOCK_DIM_X / _Y / _Z template parameters.
  const llvm::Regex BlockDimension{"^block_?dim_?[xyz]$", llvm::Regex::IgnoreCase};

  /// The template parameter a block size expression of an instantiation was
  /// written with, if any.
  static const NonTypeTemplateParmDecl *templateArgumentIn(const Stmt *S) {
    if (!S)
      return nullptr;
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(S))
      return Subst->getParameter();
    for (const Stmt *Child : S->children())
      if (const NonTypeTemplateParmDecl *P = templateArgumentIn(Child))
        return P;
    return nullptr;
  }

  llvm::SmallPtrSet<const Expr *, 8> ReportedProducts;
  /// What each local variable's initialiser holds (a product with 32 or
  /// nothing), kept across the launches of the translation unit.
  struct Shape {
    std::optional<WarpConstant> C;
    const Expr *Product = nullptr;
  };
  llvm::DenseMap<const VarDecl *, Shape> Shapes;

  /// A launch shape computed with 32 lanes per warp (`int threads = 32 *
  /// warps;`, `blocks = (n * 32 + 255) / 256`, `sizeof(T) * 32 * F` bytes of
  /// shared memory): the product with a literal 32 in the argument or in the
  /// initialisers of the local variables it is computed from. Each variable is
  /// followed once (Shapes), so the walk is linear in the function's size.
  void onShapeFrom32(const Expr *Arg, const char *Role, const FunctionDecl *Kernel,
                     ASTContext &Ctx) {
    // A kernel with no warp call and no warpSize read in its call tree does
    // not work per wavefront: a 32 in its shape sizes its own data (a tile).
    if (Kernel && Kernel->hasBody() && !analysis().warpWorkAround(Kernel, Ctx))
      return;
    const Expr *Product = nullptr;
    auto C = productWith32(Arg, Kernel, Ctx, Product);
    if (!C || !ReportedProducts.insert(Product).second)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    report(C->Named ? useLoc(Product->getBeginLoc(), SM) : C->LiteralLoc, Severity::Note,
           "the launch's " + std::string(Role) + " is computed with 32 threads per warp ('" +
               exprText(Product, SM) +
               "'): a kernel that works per wavefront gets warpSize (64) lanes per unit of "
               "work on DCU, so the shape covers half of the units; size it with the "
               "device's warp size (cudaDeviceProp::warpSize) or confirm the kernel works in "
               "32-thread groups",
           {}, C->DefinitionLoc);
  }

  /// Kernel: the launched kernel, whose shuffles let a constant of any name
  /// (kTeam) count as the warp size.
  std::optional<WarpConstant> productWith32(const Expr *E, const FunctionDecl *Kernel,
                                            ASTContext &Ctx, const Expr *&Product) {
    if (!E)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (const auto *Mul = dyn_cast<BinaryOperator>(E); Mul && Mul->getOpcode() == BO_Mul)
      for (auto [Side, Other] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                                 std::pair(Mul->getRHS(), Mul->getLHS())})
        if (auto C = containsSizeof(Side) // sizeof(float) * 8: 32 bits, not lanes
                         ? std::nullopt
                         : analysis().warpConstant(Side, Ctx, {32}, Mul->getOperatorLoc(), Kernel);
            C && !roundsTo32(Other, Ctx)) {
          Product = Mul;
          return C;
        }
    if (const VarDecl *V = varOf(E); V && V->hasLocalStorage() && !isa<ParmVarDecl>(V)) {
      auto [It, New] = Shapes.try_emplace(V); // an empty entry first: no cycles
      if (New) {
        Shape Found;
        Found.C = productWith32(V->getInit(), Kernel, Ctx, Found.Product);
        It = Shapes.insert_or_assign(V, Found).first;
      }
      Product = It->second.Product;
      return It->second.C;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return std::nullopt; // sizeof(T[32]): a size, not a count of threads
    for (const Stmt *Child : E->children())
      if (auto C = productWith32(dyn_cast_or_null<Expr>(Child), Kernel, Ctx, Product))
        return C;
    return std::nullopt;
  }

  static bool containsSizeof(const Expr *E) {
    if (!E)
      return false;
    if (isa<UnaryExprOrTypeTraitExpr>(E))
      return true;
    return llvm::any_of(E->children(),
                        [](const Stmt *Child) { return containsSizeof(dyn_cast_or_null<Expr>(Child)); });
  }

  /// `(n + 31) / 32` in `(n + 31) / 32 * 32`: the product rounds a thread
  /// count up to whole warps rather than counting warps of work.
  bool roundsTo32(const Expr *E, ASTContext &Ctx) {
    const auto *Div = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    return Div && Div->getOpcode() == BO_Div && analysis().warpConstant(Div->getRHS(), Ctx, {32});
  }

  /// The named warp-size constant (WARP_SIZE, 32) a block size is built from.
  std::optional<WarpConstant> warpSizeIn(const Expr *E, ASTContext &Ctx) {
    if (auto C = analysis().warpConstant(E, Ctx, {32}); C && C->Named)
      return C;
    for (const Stmt *Child : E->children())
      if (const auto *Sub = dyn_cast_or_null<Expr>(Child))
        if (auto C = warpSizeIn(Sub, Ctx))
          return C;
    return std::nullopt;
  }

  std::optional<uint64_t> threadsOf(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx,
                                    int Depth) {
    if (!E || Depth > 8)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return threadsOf(Cast->getSubExpr(), Flow, Ctx, Depth + 1);
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (Ctor && (Ctor->isCopyOrMoveConstructor()) && Construct->getNumArgs() >= 1)
        return threadsOf(Construct->getArg(0), Flow, Ctx, Depth + 1);
      uint64_t Product = 1;
      for (const Expr *Arg : Construct->arguments()) {
        if (isa<CXXDefaultArgExpr>(Arg))
          continue;
        auto V = threadsOf(Arg, Flow, Ctx, Depth + 1);
        if (!V)
          return std::nullopt;
        Product *= *V;
      }
      return Product;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (V && V->getInit() && !Flow.Assigned.count(V) &&
          (V->getType().isConstQualified() || V->hasLocalStorage() || V->isConstexpr()))
        if (auto R = threadsOf(V->getInit(), Flow, Ctx, Depth + 1))
          return R;
    }
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
        !R.Val.getInt().isRepresentableByInt64())
      return std::nullopt;
    int64_t V = R.Val.getInt().getExtValue();
    if (V <= 0)
      return std::nullopt;
    return uint64_t(V);
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeBlockSizeCheck(Wave64Context &Shared) {
  return std::make_unique<BlockSizeCheck>(wave64_ids::BlockSize, Shared);
}

} // namespace cu2dcu
