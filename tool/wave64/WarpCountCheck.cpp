// W64-WARP-COUNT: warps per block computed with 32 (blockDim.x / 32,
// (blockDim.x + 31) / 32, BLOCK_SIZE / 32, threads >> 5) and per-warp
// shared arrays sized 32 and indexed by a warp id. With 64-lane wavefronts a
// block has half as many warps: loops over "all warps" read slots nobody
// wrote, and per-warp arrays are twice the size needed.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class WarpCountCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(binaryOperator(hasAnyOperatorName("/", ">>", "/=", ">>=")).bind("op"), this);
    Finder.addMatcher(varDecl(hasAttr(attr::CUDAShared)).bind("shared"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    // 32-lane groups asked for: counted and stored per group on purpose.
    if (const auto *B = Result.Nodes.getNodeAs<BinaryOperator>("op");
        B && !analysis().explicitLaneGroups(Ctx, B->getOperatorLoc()))
      return onDivision(B, Ctx);
    if (const auto *V = Result.Nodes.getNodeAs<VarDecl>("shared");
        V && !analysis().explicitLaneGroups(Ctx, V->getLocation()))
      return onShared(V, Ctx);
  }

private:
  /// The block-size name E is written with (BLOCK_SIZE, kThreads), or "".
  static std::string blockNameOf(const Expr *E, ASTContext &Ctx) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Add = dyn_cast<BinaryOperator>(E);
        Add && (Add->getOpcode() == BO_Add || Add->getOpcode() == BO_Sub))
      return blockNameOf(Add->getLHS(), Ctx); // (BLOCK + WARP - 1) / WARP
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation L = E->getBeginLoc();
    if (L.isMacroID() && !SM.isMacroArgExpansion(L)) {
      llvm::StringRef Macro = Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts());
      if (isBlockName(Macro))
        return Macro.str();
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = Ref->getDecl();
      if (D->getIdentifier() && !SM.isInSystemHeader(D->getLocation()) &&
          isBlockName(D->getName()))
        return D->getName().str();
    }
    // C::kThreads of a template's pattern: a member of its parameter
    if (const auto *Member = dyn_cast<DependentScopeDeclRefExpr>(E);
        Member && Member->getDeclName().isIdentifier() && isBlockName(Member->getDeclName().getAsString()))
      return Member->getDeclName().getAsString();
    return {};
  }

  /// Host code that counts 32-lane warps for a buffer a kernel fills per
  /// warp: `results = n / 32; cudaMalloc(&out, results * 4); k<<<g, b>>>(out)`
  /// where k numbers its warps by warpSize, so it writes half of them.
  void onHostWarpBuffer(const BinaryOperator *B, const WarpConstant &C, const FunctionDecl *F,
                        ASTContext &Ctx) {
    const Expr *Size = B;
    const VarDecl *Count = countVariable(B, Ctx);
    for (const BoundNodes &Node : match(
             findAll(callExpr(callee(functionDecl(matchesName("^::cudaMalloc")))).bind("alloc")),
             *F->getBody(), Ctx)) {
      const auto *Alloc = Node.getNodeAs<CallExpr>("alloc");
      if (Alloc->getNumArgs() < 2 || !(contains(Alloc->getArg(1), Size) ||
                                       (Count && mentions(Alloc->getArg(1), Count))))
        continue;
      const VarDecl *Buffer = varOf(stripAddressOf(Alloc->getArg(0)));
      const CUDAKernelCallExpr *Launch = Buffer ? warpSizedLaunchOf(Buffer, F, Ctx) : nullptr;
      if (!Launch)
        continue;
      const SourceManager &SM = Ctx.getSourceManager();
      std::string Kernel = Launch->getDirectCallee()->getNameAsString();
      report(C.LiteralLoc.isValid() ? C.LiteralLoc : B->getOperatorLoc(), Severity::Warning,
                    "'" + exprText(B, SM) + "' counts 32-lane warps for '" +
                        Buffer->getNameAsString() + "', which '" + Kernel +
                        "' fills per warp numbered by warpSize: with 64-lane wavefronts it "
                        "writes half as many values, and the host reads the rest unwritten; "
                        "count with the device's warp size (cudaDeviceProp::warpSize)",
             {}, C.DefinitionLoc);
      return;
    }
  }

  /// The local variable B initialises (`const int results = n / 32;`, also
  /// within a sum: `n / 32 + 1`; `(n + 31) / 32 * 32` rounds to whole warps).
  static const VarDecl *countVariable(const BinaryOperator *B, ASTContext &Ctx) {
    auto Parents = Ctx.getParents(*B);
    auto Sum = [](const BinaryOperator *Op) { return Op && Op->getOpcode() == BO_Add; };
    while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() || Parents[0].get<ParenExpr>() ||
                                Sum(Parents[0].get<BinaryOperator>())))
      Parents = Ctx.getParents(Parents[0]);
    const auto *V = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
    return V && V->hasLocalStorage() ? V : nullptr;
  }

  static const Expr *stripAddressOf(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      return U->getSubExpr();
    return E;
  }

  static bool contains(const Stmt *S, const Stmt *Wanted) {
    if (!S)
      return false;
    if (S == Wanted)
      return true;
    return llvm::any_of(S->children(), [&](const Stmt *C) { return contains(C, Wanted); });
  }

  /// A launch in F that passes Buffer to a kernel which numbers its warps by
  /// warpSize (a ballot kernel works per warp as much as a shuffling one).
  const CUDAKernelCallExpr *warpSizedLaunchOf(const VarDecl *Buffer, const FunctionDecl *F,
                                              ASTContext &Ctx) {
    for (const BoundNodes &Node :
         match(findAll(cudaKernelCallExpr().bind("launch")), *F->getBody(), Ctx)) {
      const auto *Launch = Node.getNodeAs<CUDAKernelCallExpr>("launch");
      const FunctionDecl *Kernel = Launch->getDirectCallee();
      if (!Kernel || !Kernel->hasBody() || !analysis().warpWorkAround(Kernel, Ctx) ||
          !referencesWarpSize(Kernel->getBody()))
        continue;
      for (const Expr *Arg : Launch->arguments())
        if (mentions(Arg, Buffer))
          return Launch;
    }
    return nullptr;
  }

  /// The fixes of a literal count: runtime counts are safe to fix where the
  /// code works per warp; compile-time ones may size arrays, where warpSize is
  /// not a constant on every HIP version.
  std::vector<Wave64Fix> countFixes(const BinaryOperator *B, const WarpConstant &C, bool Runtime,
                                    ASTContext &Ctx) {
    WarpAnalysis &A = analysis();
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *L = B->getLHS(), *R = B->getRHS();
    bool Safe = Runtime && A.warpWorkAround(enclosingFunction(B, Ctx), Ctx);
    std::vector<Wave64Fix> Fixes;
    if (B->getOpcode() == BO_Shr || B->getOpcode() == BO_ShrAssign) {
      const Expr *Left = L->IgnoreImpCasts();
      bool Plain = B->isCompoundAssignmentOp() ||
                   (!isa<BinaryOperator>(Left) && !isa<ConditionalOperator>(Left));
      Fixes.push_back(rangeFix(SM, B->getOperatorLoc(), R->getEndLoc(),
                               B->isCompoundAssignmentOp() ? "/= warpSize" : "/ warpSize",
                               "divide by warpSize", Safe && Plain));
    } else {
      Fixes.push_back(tokenFix(SM, C.LiteralLoc, "warpSize", "divide by warpSize", Safe));
    }
    // (n + 31) / 32: the rounding term goes with it.
    if (const auto *Add = dyn_cast<BinaryOperator>(L->IgnoreParenImpCasts());
        Add && Add->getOpcode() == BO_Add)
      if (auto Round = A.warpConstant(Add->getRHS(), Ctx, {31}, Add->getOperatorLoc());
          Round && !Round->Named && Round->LiteralLoc.isValid())
        Fixes.push_back(tokenFix(SM, Round->LiteralLoc, "(warpSize - 1)",
                                 "round up to whole wavefronts", Safe));
    return Fixes;
  }

  void onDivision(const BinaryOperator *B, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), B->getOperatorLoc()) || bankPadding(B, Ctx))
      return;
    bool Outside = false;
    const FunctionDecl *F = checkedFunction(B, Ctx, &Outside);
    if (!F && !Outside)
      F = analysis().operatorInstance(B, Ctx);
    if (!F && !Outside)
      return;
    WarpAnalysis &A = analysis();
    const FunctionFlow &Flow = F ? A.flow(F, Ctx) : A.flowAt(B, Ctx);
    bool Shift = B->getOpcode() == BO_Shr || B->getOpcode() == BO_ShrAssign;
    const Expr *L = B->getLHS(), *R = B->getRHS();
    auto C = A.warpConstant(R, Ctx, {Shift ? 5 : 32}, B->getOperatorLoc());
    if (!C)
      return;
    unsigned TL = A.taint(L, Flow, Ctx);
    if (TL & TaintThread)
      return; // a warp id: W64-LANE-MATH
    const SourceManager &SM = Ctx.getSourceManager();
    bool Runtime = TL & TaintBlockDim;
    std::string Name = Runtime ? std::string() : blockNameOf(L, Ctx);
    if (!Runtime && Name.empty()) {
      if (F && !isDeviceFunction(F))
        onHostWarpBuffer(B, *C, F, Ctx);
      return;
    }
    std::string Message = "'" + exprText(B, SM) +
                          "' counts 32-thread warps; a block has half as many 64-lane "
                          "wavefronts, so per-warp loops and slots beyond that stay unwritten: "
                          "divide by warpSize";
    std::vector<Wave64Fix> Fixes;
    if (C->Named) {
      Message += " ('" + C->Name + "' is " + std::to_string(C->Value) + ")";
    } else if (C->LiteralLoc.isValid()) {
      Fixes = countFixes(B, *C, Runtime, Ctx);
    }
    Expr::EvalResult Constant;
    if (!Runtime && !L->isValueDependent() && L->EvaluateAsInt(Constant, Ctx))
      Message += " (a compile-time warp count: where it sizes an array, size it for 64-lane "
                 "wavefronts)";
    else if (!Runtime)
      Message += " ('" + Name + "' holds a block size)";
    report(B->getOperatorLoc(), Severity::Warning, Message, std::move(Fixes), C->DefinitionLoc);
  }

  llvm::DenseMap<const FunctionDecl *, bool> ReadsWarpSize;

  /// `__shared__ int4 sh_b[32 * F]` in a kernel that works per warpSize lanes
  /// (quantAQLM): F slots per lane of a 32-lane warp, while the kernel's
  /// warpSize-based loops fill F per lane of a 64-lane wavefront on DCU.
  void onSizedPerLane(const VarDecl *V, const FunctionDecl *F, ASTContext &Ctx) {
    TypeSourceInfo *TSI = V->getTypeSourceInfo();
    auto AL = TSI ? TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>() : ConstantArrayTypeLoc();
    const auto *Mul = dyn_cast_or_null<BinaryOperator>(
        AL && AL.getSizeExpr() ? AL.getSizeExpr()->IgnoreParenImpCasts() : nullptr);
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return;
    std::optional<WarpConstant> C;
    for (const Expr *Side : {Mul->getLHS(), Mul->getRHS()})
      if (!C)
        C = analysis().warpConstant(Side, Ctx, {32}, Mul->getOperatorLoc());
    if (!C)
      return;
    auto [It, New] = ReadsWarpSize.try_emplace(F, false);
    if (New)
      It->second = referencesWarpSize(F->getBody());
    if (!It->second)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    report(C->Named ? useLoc(Mul->getBeginLoc(), SM) : C->LiteralLoc, Severity::Warning,
           "'" + V->getName().str() + "' is sized for 32 lanes ('" + exprText(Mul, SM) +
               "') in a function that works per warpSize lanes: on a 64-lane wavefront its "
               "warpSize-based indexing needs twice as many elements; size it for 64 lanes",
           {}, C->DefinitionLoc);
  }

  static const VarDecl *rootArray(const Expr *Base) {
    Base = Base->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
      return dyn_cast<VarDecl>(Ref->getDecl());
    return nullptr;
  }

  void onShared(const VarDecl *V, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), V->getLocation()))
      return;
    const auto *Array = Ctx.getAsConstantArrayType(V->getType());
    const FunctionDecl *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    if (!Array || !F || F->isTemplateInstantiation())
      return;
    if (Array->getSize().getZExtValue() != 32)
      return onSizedPerLane(V, F, Ctx);
    WarpAnalysis &A = analysis();
    const FunctionFlow &Flow = A.flow(F, Ctx);
    bool ByWarp = false;
    for (const ArraySubscriptExpr *S : Flow.Subscripts)
      if (rootArray(S->getBase()) == V && (A.taint(S->getIdx(), Flow, Ctx) & TaintWarpId))
        ByWarp = true;
    // Sized by a warp-size name (s[WARP_SIZE]): per-warp storage even where
    // another function indexes it.
    bool BySize = false;
    SourceLocation SizeDefinedAt;
    if (TypeSourceInfo *TSI = V->getTypeSourceInfo())
      if (auto AL = TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>())
        if (auto C = A.warpConstant(AL.getSizeExpr(), Ctx, {32}); C && C->Named) {
          BySize = true;
          SizeDefinedAt = C->DefinitionLoc;
        }
    if (!ByWarp && !BySize)
      return;
    report(V->getLocation(), Severity::Note,
           "'" + V->getName().str() +
               "' holds one slot per 32-thread warp (32 slots for 1024 threads); with 64-lane "
               "wavefronts a block has at most 16, so 16 slots suffice and a loop over 32 "
               "slots reads unwritten ones: size and index it by wavefront "
               "(1024 / warpSize, threadIdx.x / warpSize)",
           {}, SizeDefinedAt);
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeWarpCountCheck(Wave64Context &Shared) {
  return std::make_unique<WarpCountCheck>(wave64_ids::WarpCount, Shared);
}

} // namespace cu2dcu
