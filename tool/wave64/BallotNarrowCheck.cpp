// W64-BALLOT-NARROW: ballot / activemask results squeezed into 32 bits. On a
// 64-lane wavefront a ballot has 64 bits (HIP's __ballot returns unsigned long
// long), so storing it in an unsigned int, counting it with __popc, finding
// lanes with __ffs / __clz, comparing it with 0xffffffff or testing it with a
// 32-bit lane bit (1u << lane) loses lanes 32-63.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"
#include "wave64/WarpIntrinsicTranslator.h"

#include "clang/AST/TypeLoc.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class BallotNarrowCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  /// A widened container of lane bits changes no lane number, count or offset:
  /// its fix does not wait for the rest of the lane grouping.
  bool report(SourceLocation Loc, Severity Level, std::string Message,
              std::vector<Wave64Fix> Fixes = {}, SourceLocation DefinedAt = {}) {
    for (Wave64Fix &F : Fixes)
      F.Standalone = true;
    return Wave64Check::report(Loc, Level, std::move(Message), std::move(Fixes), DefinedAt);
  }

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(varDecl(hasInitializer(expr())).bind("var"), this);
    Finder.addMatcher(callExpr().bind("call"), this);
    Finder.addMatcher(binaryOperator(hasAnyOperatorName("=", "==", "!=", "&", "|", "^", "&=", "|="))
                          .bind("op"),
                      this);
    Finder.addMatcher(returnStmt(hasReturnValue(expr())).bind("ret"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    if (const auto *V = Result.Nodes.getNodeAs<VarDecl>("var"))
      return onVar(V, Ctx);
    if (const auto *C = Result.Nodes.getNodeAs<CallExpr>("call"))
      return onCall(C, Ctx);
    if (const auto *B = Result.Nodes.getNodeAs<BinaryOperator>("op"))
      return onOperator(B, Ctx);
    if (const auto *R = Result.Nodes.getNodeAs<ReturnStmt>("ret"))
      return onReturn(R, Ctx);
  }

private:
  static bool isNarrowInteger(QualType T, ASTContext &Ctx) {
    if (T.isNull() || T->isDependentType() || !T->isIntegerType() || T->isBooleanType())
      return false;
    return Ctx.getTypeSize(T) <= 32;
  }

  /// Whether every use of a ballot variable keeps its meaning with 64 bits.
  bool usesAreBitwise(const VarDecl *V, const FunctionFlow &Flow, ASTContext &Ctx) {
    for (const DeclRefExpr *Ref : Flow.Refs) {
      if (Ref->getDecl() != V)
        continue;
      const Expr *Child = nullptr;
      const Stmt *P = parentSkippingParens(Ref, Ctx, &Child);
      if (!P)
        return false;
      if (const auto *Call = dyn_cast<CallExpr>(P)) {
        std::string Name = calleeName(Call);
        if (context().map().warpNames().readsMaskAsWhole(Name))
          continue;
        if (auto W = asWarpCall(Call, context().map()); W && W->mask() &&
                                       W->mask()->IgnoreParenImpCasts() == Ref)
          continue; // used as a lane mask: 64 bits is what HIP wants
        return false;
      }
      if (const auto *Bin = dyn_cast<BinaryOperator>(P)) {
        if (Bin->isAssignmentOp() && Bin->getLHS()->IgnoreParenImpCasts() == Ref)
          continue; // written, not read
        if (Bin->getOpcode() == BO_Assign && widenedWithIt(Bin->getLHS(), V, Flow, Ctx))
          continue; // copied into a lane-bit container the fixes widen too
        if (Bin->isAssignmentOp())
          return false; // copied elsewhere
        continue;       // bit ops, shifts, comparisons, arithmetic
      }
      if (const auto *Un = dyn_cast<UnaryOperator>(P)) {
        if (Un->getOpcode() == UO_AddrOf)
          return false;
        continue;
      }
      if (isa<IfStmt>(P) || isa<WhileStmt>(P) || isa<ConditionalOperator>(P) || isa<ForStmt>(P))
        continue;
      return false;
    }
    return true;
  }

  /// Whether E has a 64-bit type once translated (and the safe fixes applied):
  /// ballots are 64-bit in HIP; variables are when declared so or widened.
  bool wideAfterFixes(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V)
        return false;
      QualType T = V->getType();
      if (T->isDependentType() || !T->isIntegerType())
        return false;
      if (Ctx.getTypeSize(T) >= 64)
        return true;
      return (analysis().taint(E, Flow, Ctx) & TaintBallot) && context().options().FixWave64 &&
             widenType(V, Flow, Ctx).Safe;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      auto W = asWarpCall(Call, context().map());
      return W && W->isBallot();
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return (B->isBitwiseOp() || B->isShiftOp()) && wideAfterFixes(B->getLHS(), Flow, Ctx);
    return false;
  }

  /// Whether Into (the left side of `Into = From`) is a local 32-bit lane-bit
  /// container that the fixes widen as well, so the copy loses nothing.
  bool widenedWithIt(const Expr *Into, const VarDecl *From, const FunctionFlow &Flow,
                     ASTContext &Ctx) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Into->IgnoreParenImpCasts());
    const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && V != From && isNarrowInteger(V->getType(), Ctx) &&
           (analysis().taint(Ref, Flow, Ctx) & TaintBallot) && widenType(V, Flow, Ctx).Safe;
  }

  Wave64Fix widenType(const VarDecl *V, const FunctionFlow &Flow, ASTContext &Ctx) {
    // A copy cycle (a = b; b = a;) is judged unsafe rather than followed.
    bool Entered = V->isLocalVarDecl() && Widening.insert(V).second;
    bool Safe = Entered && usesAreBitwise(V, Flow, Ctx);
    if (Entered)
      Widening.erase(V);
    return widenTypeFix(V, Ctx, "store the ballot in 64 bits", Safe).value_or(Wave64Fix{});
  }

  const FunctionFlow *flowFor(const Stmt *S, ASTContext &Ctx) {
    const FunctionDecl *F = checkedFunction(S, Ctx);
    return F ? &analysis().flow(F, Ctx) : nullptr;
  }

  void onVar(const VarDecl *V, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), V->getLocation()) || isa<ParmVarDecl>(V))
      return;
    // hasInitializer() also matches a declaration whose initializer is on
    // another redeclaration (a static member defined out of line): that
    // definition is matched on its own.
    const Expr *Init = V->getInit();
    if (!Init)
      return;
    const FunctionFlow *Flow = flowFor(Init, Ctx);
    if (!Flow || !isNarrowInteger(V->getType(), Ctx) || V->getType()->getContainedAutoType() ||
        analysis().typeOnlyInCudaView(V->getType(), Ctx))
      return; // (a mask type the project's AMD branch declares itself is its own)
    if (!(analysis().taint(Init, *Flow, Ctx) & TaintBallot))
      return;
    report(V->getLocation(), Severity::Warning,
           "'" + V->getName().str() + "' keeps a wavefront-wide lane mask in a " +
               std::to_string(Ctx.getTypeSize(V->getType())) +
               "-bit '" + V->getType().getUnqualifiedType().getAsString() +
               "': a ballot has 64 bits on a 64-lane wavefront, lanes 32-63 are lost; use "
               "unsigned long long",
           {widenType(V, *Flow, Ctx)});
  }

  void onCall(const CallExpr *C, ASTContext &Ctx) {
    const BitFunction *Bits = context().map().warpNames().bitFunction(calleeName(C));
    if (!Bits || C->getNumArgs() != 1)
      return;
    SourceLocation NameLoc = C->getCallee()->IgnoreParenImpCasts()->getExprLoc();
    if (!inTranslatedCode(context(), NameLoc))
      return;
    const FunctionFlow *Flow = flowFor(C, Ctx);
    if (!Flow || !(analysis().taint(C->getArg(0), *Flow, Ctx) & TaintBallot))
      return;
    std::string Message = "'" + Bits->Narrow + "' on a lane mask reads only its low 32 bits; a "
                          "64-lane wavefront's mask has 64: use '" + Bits->Wide + "'";
    if (!Bits->Note.empty())
      Message += " (" + Bits->Note + ")";
    bool Safe = Bits->SafeFix == BitFunction::Fix::Always ||
                (Bits->SafeFix == BitFunction::Fix::WhenWide &&
                 wideAfterFixes(C->getArg(0), *Flow, Ctx));
    report(NameLoc, Severity::Warning, Message,
           {tokenFix(Ctx.getSourceManager(), NameLoc, Bits->Wide, "use " + Bits->Wide, Safe)});
  }

  void onOperator(const BinaryOperator *B, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), B->getOperatorLoc()))
      return;
    const FunctionFlow *Flow = flowFor(B, Ctx);
    if (!Flow)
      return;
    WarpAnalysis &A = analysis();
    unsigned TL = A.taint(B->getLHS(), *Flow, Ctx), TR = A.taint(B->getRHS(), *Flow, Ctx);
    if (B->getOpcode() == BO_Assign)
      onStore(B, TR, *Flow, Ctx);
    else if (B->getOpcode() == BO_EQ || B->getOpcode() == BO_NE)
      onCompare(B, TL, TR, Ctx);
    else if ((TL | TR) & TaintBallot)
      onLaneBit((TL & TaintBallot) ? B->getRHS() : B->getLHS(), *Flow, Ctx);
  }

  /// m = __ballot_sync(...) into a variable declared 32-bit elsewhere (TR:
  /// the taint of the stored value).
  void onStore(const BinaryOperator *B, unsigned TR, const FunctionFlow &Flow, ASTContext &Ctx) {
    const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
    const VarDecl *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !(TR & TaintBallot) || !isNarrowInteger(V->getType(), Ctx) ||
        V->getType()->getContainedAutoType())
      return;
    if (V->getInit() && (analysis().taint(V->getInit(), Flow, Ctx) & TaintBallot))
      return; // reported at the declaration
    report(B->getOperatorLoc(), Severity::Warning,
           "a lane mask is stored in the " + std::to_string(Ctx.getTypeSize(V->getType())) +
               "-bit '" + V->getName().str() +
               "': a ballot has 64 bits on a 64-lane wavefront, lanes 32-63 are lost; declare "
               "it unsigned long long",
           {widenType(V, Flow, Ctx)});
  }

  /// A ballot compared with the 32-bit full mask.
  void onCompare(const BinaryOperator *B, unsigned TL, unsigned TR, ASTContext &Ctx) {
    const Expr *Const = (TL & TaintBallot)   ? B->getRHS()
                        : (TR & TaintBallot) ? B->getLHS()
                                             : nullptr;
    Expr::EvalResult C;
    if (!Const || Const->isValueDependent() || !Const->EvaluateAsInt(C, Ctx))
      return;
    if ((C.Val.getInt().extOrTrunc(64).getZExtValue() & 0xffffffffffffffffull) != 0xffffffffull &&
        !(C.Val.getInt().getBitWidth() <= 32 && C.Val.getInt().isAllOnes()))
      return;
    // The active lanes: __activemask(), or what the target has instead.
    const ApiEntry *ActiveMask = context().map().lookup("__activemask");
    std::string Full = ActiveMask && predatesHipFunction(ActiveMask, context().options().TargetHip)
                           ? ActiveMask->LegacyHip
                           : "__activemask()";
    const SourceManager &SM = Ctx.getSourceManager();
    report(useLoc(Const->getBeginLoc(), SM), Severity::Warning,
           "compares a lane mask with the 32-bit full mask '" + exprText(Const, SM) +
               "': on a 64-lane wavefront all lanes set is 0xffffffffffffffff; compare with " +
               Full + " (the active lanes)",
           {rangeFix(SM, Const->getBeginLoc(), Const->getEndLoc(), Full,
                     "compare with the active lanes", false)});
  }

  /// mask & (1u << lane): a 32-bit lane bit (Other: the operand beside the
  /// ballot), written here or in a variable.
  void onLaneBit(const Expr *Other, const FunctionFlow &Flow, ASTContext &Ctx) {
    if (!(analysis().taint(Other, Flow, Ctx) & TaintLaneBit))
      return;
    const VarDecl *Holder = nullptr;
    const IntegerLiteral *One = laneBitLiteral(Other, Flow, Holder, 0);
    if (!One)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Lit = spelledText(One->getSourceRange(), SM);
    std::string Wide = (Lit.empty() ? std::string("1") : Lit.substr(0, Lit.find_first_of("uUlL"))) +
                       "ull";
    Wave64Fix LitFix = tokenFix(SM, One->getLocation(), Wide, "make the lane bit 64-bit", true);
    if (!Holder) {
      const auto *Shift = dyn_cast_or_null<Expr>(parentSkippingParens(One, Ctx));
      report(One->getLocation(), Severity::Warning,
             "'" + exprText(Shift ? Shift : One, SM) +
                 "' is a 32-bit lane bit: for lanes 32-63 of a 64-lane wavefront the shift "
                 "overflows; use " + Wide,
             {LitFix});
      return;
    }
    Wave64Fix TypeFix = widenType(Holder, Flow, Ctx);
    LitFix.Safe = TypeFix.Safe;
    std::vector<Wave64Fix> Fixes{LitFix};
    if (isNarrowInteger(Holder->getType(), Ctx) && !Holder->getType()->getContainedAutoType())
      Fixes.push_back(TypeFix);
    report(Holder->getLocation(), Severity::Warning,
           "'" + Holder->getName().str() +
               "' is a 32-bit lane mask built from a 32-bit lane bit and used with a "
               "wavefront-wide mask: for lanes 32-63 the shift overflows; build it with " +
               Wide + " in an unsigned long long",
           std::move(Fixes));
  }

  /// The 32-bit literal of the lane bit that E is built from (1u in
  /// (1u << lane) - 1), following one variable; Holder is that variable.
  const IntegerLiteral *laneBitLiteral(const Expr *E, const FunctionFlow &Flow,
                                       const VarDecl *&Holder, int Depth) {
    if (!E || Depth > 4)
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Shl)
        return dyn_cast<IntegerLiteral>(B->getLHS()->IgnoreParenImpCasts());
      if (B->getOpcode() == BO_Sub || B->getOpcode() == BO_Or || B->getOpcode() == BO_Xor)
        return laneBitLiteral(B->getLHS(), Flow, Holder, Depth + 1);
      return nullptr;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !V->getInit() || Flow.Assigned.count(V) || Holder)
        return nullptr;
      Holder = V;
      return laneBitLiteral(V->getInit(), Flow, Holder, Depth + 1);
    }
    return nullptr;
  }

  void onReturn(const ReturnStmt *R, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), R->getReturnLoc()))
      return;
    const FunctionDecl *F = checkedFunction(R, Ctx);
    if (!F || !isNarrowInteger(F->getReturnType(), Ctx))
      return;
    const FunctionFlow &Flow = analysis().flow(F, Ctx);
    if (!(analysis().taint(R->getRetValue(), Flow, Ctx) & TaintBallot))
      return;
    report(useLoc(R->getRetValue()->getBeginLoc(), Ctx.getSourceManager()), Severity::Warning,
           "returns a lane mask as the " + std::to_string(Ctx.getTypeSize(F->getReturnType())) +
               "-bit '" + F->getReturnType().getAsString() +
               "': lanes 32-63 of a 64-lane wavefront are lost; return unsigned long long");
  }

  /// The variables whose widening is being judged (widenType), against cycles.
  llvm::SmallPtrSet<const VarDecl *, 4> Widening;
};

} // namespace

std::unique_ptr<Wave64Check> makeBallotNarrowCheck(Wave64Context &Shared) {
  return std::make_unique<BallotNarrowCheck>(wave64_ids::BallotNarrow, Shared);
}

} // namespace cu2dcu
