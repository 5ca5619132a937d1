// W64-LANE-MATH: lane and warp index math written for 32-lane warps on values
// derived from thread indices: tid % 32, tid & 31, tid / 32, tid >> 5,
// warp * 32, lane == 31, also through WARP_SIZE-style names defined as 32;
// and lane strides: a lane index stepped by 32 (for (i = lane; ...; i += 32),
// lane + 32, lane + j * 32), which must change with the lane or not at all;
// and half-warp splits at 16 of a lane numbered by warpSize, where the code
// shuffles by 16 (lane < 16 meets the partner lane + 16 of a 32-lane warp).
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

enum class Kind { Lane, WarpId, WarpBase, LastLane, LaneStride, PerLane, HalfSplit };

/// 32-lane math: an operator whose operand derived from OperandTaint meets
/// a warp-size constant (the other operand; either one when EitherSide).
struct LaneMathShape {
  BinaryOperatorKind Op;
  unsigned OperandTaint;
  int64_t Constant;
  Kind Finding;
  bool EitherSide;
};

const LaneMathShape Shapes[] = {
    {BO_Rem, TaintThread, 32, Kind::Lane, false},    // tid % 32
    {BO_And, TaintThread, 31, Kind::Lane, true},     // tid & 31
    {BO_Div, TaintThread, 32, Kind::WarpId, false},  // tid / 32
    {BO_Shr, TaintThread, 5, Kind::WarpId, false},   // tid >> 5
    {BO_Mul, TaintWarpId, 32, Kind::WarpBase, true}, // warp * 32
    {BO_Shl, TaintWarpId, 5, Kind::WarpBase, false}, // warp << 5
    {BO_EQ, TaintAnyLane, 31, Kind::LastLane, true},    // lane == 31
    {BO_NE, TaintAnyLane, 31, Kind::LastLane, true},    // lane != 31
    {BO_GT, TaintAnyLane, 31, Kind::LastLane, false},   // lane + d > 31: past the last lane
    {BO_LE, TaintAnyLane, 31, Kind::LastLane, false},   // lane + d <= 31: up to the last lane
    {BO_LT, TaintAnyLane, 32, Kind::LastLane, false},   // lane + d < 32
    {BO_GE, TaintAnyLane, 32, Kind::LastLane, false},   // lane + d >= 32: past the last lane
    {BO_Add, TaintAnyLane, 32, Kind::LaneStride, true}, // i += 32 for i from a lane
    {BO_Sub, TaintAnyLane, 32, Kind::LaneStride, false},
};

class LaneMathCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(binaryOperator(hasAnyOperatorName("%", "&", "/", ">>", "*", "<<", "==", "!=", ">",
                                                        "<", ">=", "<=",
                                                        "%=", "&=", "/=", ">>=", "+", "-", "+=",
                                                        "-="))
                          .bind("op"),
                      this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *B = Result.Nodes.getNodeAs<BinaryOperator>("op");
    ASTContext &Ctx = *Result.Context;
    if (!B || !inTranslatedCode(context(), B->getOperatorLoc()))
      return;
    const FunctionDecl *F = checkedFunction(B, Ctx);
    if (!F)
      F = analysis().operatorInstance(B, Ctx);
    if (!F || analysis().explicitLaneGroups(Ctx, B->getOperatorLoc()))
      return; // lanes numbered in the 32-lane groups the shuffles ask for

    if (analysis().bitAddressing(F, Ctx).contains(B))
      return; // a bit position and word taken from a thread index: data, not lanes
    if (bankPadding(B, Ctx))
      return;
    const FunctionFlow &Flow = analysis().flow(F, Ctx);
    if (Flow.TileSplits.contains(B))
      return;
    WarpAnalysis &A = analysis();
    BinaryOperatorKind Op = B->getOpcode();
    if (B->isCompoundAssignmentOp())
      Op = BinaryOperator::getOpForCompoundAssignment(Op);
    const Expr *L = B->getLHS(), *R = B->getRHS();
    SourceLocation OpLoc = B->getOperatorLoc();
    unsigned TL = A.taint(L, Flow, Ctx), TR = A.taint(R, Flow, Ctx);
    if (B->isRelationalOp() && (TR & TaintAnyLane) && !(TL & TaintAnyLane)) {
      // 32 > lane + d is lane + d < 32.
      std::swap(L, R);
      std::swap(TL, TR);
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    for (const LaneMathShape &Shape : Shapes) {
      if (Shape.Op != Op)
        continue;
      std::optional<WarpConstant> C;
      if ((TL & Shape.OperandTaint) && (C = A.warpConstant(R, Ctx, {Shape.Constant}, OpLoc)))
        return found(B, Shape.Finding, *C, R, Flow, Ctx);
      if (Shape.EitherSide && (TR & Shape.OperandTaint) &&
          (C = A.warpConstant(L, Ctx, {Shape.Constant}, OpLoc)))
        return found(B, Shape.Finding, *C, L, Flow, Ctx);
      break;
    }
    if (Op == BO_Mul)
      laneStrideProduct(B, Flow, Ctx);
    if (Op == BO_Add && B->isCompoundAssignmentOp() && !(TL & TaintAnyLane))
      tileStride(B, Flow, Ctx);
    if (Op == BO_Div && !(TL & TaintThread))
      perLaneCount(B, Flow, Ctx);
    if (B->isRelationalOp())
      halfSplit(B, Flow, Ctx);
  }

private:
  /// lane < 16 (lane >= 16, <= 15, > 15) on a lane numbered by warpSize, in a
  /// function that shuffles by 16: the halves of a 32-lane warp, where a
  /// wavefront's halves meet at lane 32.
  void halfSplit(const BinaryOperator *B, const FunctionFlow &Flow, ASTContext &Ctx) {
    BinaryOperatorKind Op = B->getOpcode();
    int64_t Edge = (Op == BO_LT || Op == BO_GE) ? 16 : 15;
    if (!isWavefrontLane(B->getLHS(), Ctx, 0))
      return;
    auto C = analysis().warpConstant(B->getRHS(), Ctx, {Edge}, B->getOperatorLoc());
    if (C && shufflesBySixteen(enclosingFunction(B, Ctx), Ctx))
      found(B, Kind::HalfSplit, *C, B->getRHS(), Flow, Ctx);
  }

  /// A lane numbered over the whole wavefront: X % warpSize, X & (warpSize - 1)
  /// or __lane_id(), directly or through a variable's initialiser.
  static bool isWavefrontLane(const Expr *E, ASTContext &Ctx, int Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      return V && V->getInit() && Depth < 4 && isWavefrontLane(V->getInit(), Ctx, Depth + 1);
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return calleeName(Call) == "__lane_id";
    const auto *Bin = dyn_cast<BinaryOperator>(E);
    if (!Bin)
      return false;
    std::string Divisor = collapseBlanks(spelledText(Bin->getRHS()->IgnoreParenImpCasts()->getSourceRange(),
                                                     Ctx.getSourceManager()));
    return (Bin->getOpcode() == BO_Rem && Divisor == "warpSize") ||
           (Bin->getOpcode() == BO_And && Divisor == "warpSize - 1");
  }

  /// Whether F shuffles with 16 in its lane or offset (xor 16, down 16,
  /// lane + 16): pairs across the halves of a 32-lane warp.
  bool shufflesBySixteen(const FunctionDecl *F, ASTContext &Ctx) {
    if (!F || !F->hasBody())
      return false;
    for (const BoundNodes &Node : match(findAll(callExpr().bind("call")), *F->getBody(), Ctx)) {
      std::optional<WarpCall> W = asWarpCall(Node.getNodeAs<CallExpr>("call"), context().map());
      int Arg = W && W->isShuffle() ? W->offsetArg() : -1;
      if (Arg >= 0 && size_t(Arg) < W->Args.size() && holdsSixteen(W->Args[Arg]))
        return true;
    }
    return false;
  }

  static bool holdsSixteen(const Stmt *S) {
    if (const auto *Literal = dyn_cast<IntegerLiteral>(S))
      return Literal->getValue() == 16;
    for (const Stmt *Child : S->children())
      if (Child && holdsSixteen(Child))
        return true;
    return false;
  }

  /// Whether some use of V meets a lane (of the Lanes taints) through Op:
  /// k0 + lane (BO_Add), lane * share or (lane + 1) * share (BO_Mul).
  bool joinsLane(const VarDecl *V, BinaryOperatorKind Op, unsigned Lanes, const FunctionFlow &Flow,
                 ASTContext &Ctx) {
    for (const DeclRefExpr *Ref : Flow.Refs) {
      const Expr *Child = nullptr;
      const auto *B = Ref->getDecl() == V ? dyn_cast_or_null<BinaryOperator>(
                                                parentSkippingParens(Ref, Ctx, &Child))
                                          : nullptr;
      if (B && B->getOpcode() == Op &&
          (analysis().taint(B->getLHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts()
                                ? B->getRHS()
                                : B->getLHS(),
                            Flow, Ctx) &
           Lanes))
        return true;
    }
    return false;
  }

  /// for (k0 = 0; k0 < n; k0 += 32) ... x[k0 + lane]: a tile of 32 lanes
  /// stepped by the warp width. Over a lane by warpSize, lanes 32-63 reach
  /// into the next tile, which they handle again.
  void tileStride(const BinaryOperator *B, const FunctionFlow &Flow, ASTContext &Ctx) {
    const VarDecl *V = varOf(B->getLHS());
    auto C = V ? analysis().warpConstant(B->getRHS(), Ctx, {32}, B->getOperatorLoc()) : std::nullopt;
    if (C && joinsLane(V, BO_Add, TaintAnyLane, Flow, Ctx))
      found(B, Kind::LaneStride, *C, B->getRHS(), Flow, Ctx);
  }

  /// for (i = 0; i < D / 32; ++i) ... i * 32 + lane (also through a variable,
  /// int chunk = (D + 31) / 32): D elements split into per-lane shares of 32 lanes.
  void perLaneCount(const BinaryOperator *Div, const FunctionFlow &Flow, ASTContext &Ctx) {
    llvm::SmallPtrSet<const VarDecl *, 4> Counters;
    boundedCounters(Div, Flow, Ctx, Counters);
    const VarDecl *Share = initialisedVar(Div, Ctx);
    // Lanes by warpSize past the 32 shares get empty ranges: idle, not wrong.
    bool LaneTimesShare = Share && joinsLane(Share, BO_Mul, TaintLane, Flow, Ctx);
    auto C = !Counters.empty() || LaneTimesShare
                 ? analysis().warpConstant(Div->getRHS(), Ctx, {32}, Div->getOperatorLoc())
                 : std::nullopt;
    if (!C)
      return;
    if (LaneTimesShare) // lane * share: each lane's contiguous share of 32
      return found(Div, Kind::PerLane, *C, Div->getRHS(), Flow, Ctx);
    for (const DeclRefExpr *Ref : Flow.Refs) {
      const auto *Mul = Counters.contains(dyn_cast<VarDecl>(Ref->getDecl()))
                            ? dyn_cast_or_null<BinaryOperator>(parentSkippingParens(Ref, Ctx))
                            : nullptr;
      if (Mul && Mul->getOpcode() == BO_Mul && strideJoinsLane(Mul, Flow, Ctx) &&
          (analysis().warpConstant(Mul->getRHS(), Ctx, {32}) ||
           analysis().warpConstant(Mul->getLHS(), Ctx, {32})))
        return found(Div, Kind::PerLane, *C, Div->getRHS(), Flow, Ctx);
    }
  }

  /// The local variable E initialises, if any.
  static const VarDecl *initialisedVar(const Expr *E, ASTContext &Ctx) {
    const VarDecl *V = receivingVar(E, Ctx);
    return V && V->isLocalVarDecl() && V->getInit() &&
                   E->IgnoreParenImpCasts() == V->getInit()->IgnoreParenImpCasts()
               ? V
               : nullptr;
  }

  /// The counters of `i < Bound` where Bound is E, or a variable E
  /// initialises (int chunk = (len + 31) / 32; ... i < chunk), each loop
  /// over it (`for (j < kPerLane) best[j] = -FLT_MAX;` beside the split's).
  void boundedCounters(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Out, int Depth = 0) {
    const Expr *Child = nullptr;
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(E, Ctx, &Child));
    if (Cond && (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE) &&
        Cond->getRHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts()) {
      if (const VarDecl *Counter = varOf(Cond->getLHS()))
        Out.insert(Counter);
      return;
    }
    const VarDecl *Bound = initialisedVar(E, Ctx);
    if (!Bound)
      return;
    for (const DeclRefExpr *Ref : Flow.Refs)
      if (Ref->getDecl() == Bound && Depth < 4)
        boundedCounters(Ref, Flow, Ctx, Out, Depth + 1);
    Out.erase(Bound);
  }

  /// Whether the sum a product j * 32 is a term of also holds a lane.
  bool strideJoinsLane(const BinaryOperator *Mul, const FunctionFlow &Flow, ASTContext &Ctx) {
    const Expr *Top = Mul;
    while (const auto *Up = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(Top, Ctx)))
      if (Up->getOpcode() == BO_Add)
        Top = Up;
      else
        break;
    return Top != Mul && (analysis().taint(Top, Flow, Ctx) & TaintAnyLane);
  }

  /// j * 32 added to a lane (base + lane + j * 32): the lane's j-th element in
  /// 32-lane strides.
  void laneStrideProduct(const BinaryOperator *Mul, const FunctionFlow &Flow, ASTContext &Ctx) {
    WarpAnalysis &A = analysis();
    const Expr *Child = nullptr;
    const auto *Sum = dyn_cast_or_null<BinaryOperator>(parentSkippingParens(Mul, Ctx, &Child));
    if (!Sum || (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_AddAssign))
      return;
    const Expr *Other = Sum->getLHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts()
                            ? Sum->getRHS()
                            : Sum->getLHS();
    // base + j * 32 + lane: the lane may join the sum further up.
    if (!(A.taint(Other, Flow, Ctx) & TaintAnyLane) && !addsLane(Other, Flow, Ctx) &&
        !strideJoinsLane(Mul, Flow, Ctx))
      return;
    SourceLocation OpLoc = Mul->getOperatorLoc();
    for (const Expr *Side : {Mul->getRHS(), Mul->getLHS()})
      if (auto C = A.warpConstant(Side, Ctx, {32}, OpLoc))
        return found(Mul, Kind::LaneStride, *C, Side, Flow, Ctx);
  }

  /// Whether E is a sum with a lane among its terms (base + lane).
  bool addsLane(const Expr *E, const FunctionFlow &Flow, ASTContext &Ctx) {
    const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!B || B->getOpcode() != BO_Add)
      return false;
    for (const Expr *Term : {B->getLHS(), B->getRHS()})
      if ((analysis().taint(Term, Flow, Ctx) & TaintAnyLane) || addsLane(Term, Flow, Ctx))
        return true;
    return false;
  }

  /// A stride is fixed on its own only as a for loop's step over a lane
  /// (for (i = lane; ...; i += 32)); anywhere else it is left to the reviewer,
  /// and holds back the lane's fix with it.
  static bool isLoopStep(const BinaryOperator *B, ASTContext &Ctx) {
    if (B->getOpcode() != BO_AddAssign)
      return false;
    auto Parents = Ctx.getParents(*B);
    const auto *For = Parents.empty() ? nullptr : Parents[0].get<ForStmt>();
    return For && For->getInc() == B;
  }

  /// The variable that receives E (initialiser or plain assignment), if any.
  static const VarDecl *receivingVar(const Expr *E, ASTContext &Ctx) {
    const Stmt *Current = E;
    for (int Depth = 0; Depth < 16; ++Depth) {
      auto Parents = Ctx.getParents(*Current);
      if (Parents.empty())
        return nullptr;
      if (const auto *V = Parents[0].get<VarDecl>())
        return V->getInit() && V->getInit()->IgnoreParenCasts() == E->IgnoreParenCasts() ? V
                                                                                           : nullptr;
      const Stmt *P = Parents[0].get<Stmt>();
      if (!P)
        return nullptr;
      if (isa<ImplicitCastExpr>(P) || isa<ParenExpr>(P) || isa<ExplicitCastExpr>(P)) {
        Current = P;
        continue;
      }
      if (const auto *Assign = dyn_cast<BinaryOperator>(P))
        if (Assign->getOpcode() == BO_Assign && Assign->getRHS()->IgnoreParenCasts() ==
                                                    E->IgnoreParenCasts())
          if (const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts()))
            return dyn_cast<VarDecl>(Ref->getDecl());
      return nullptr;
    }
    return nullptr;
  }

  static const VarDecl *rootArray(const Expr *Base) {
    Base = Base->IgnoreParenImpCasts();
    while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Base))
      Base = Sub->getBase()->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
      return dyn_cast<VarDecl>(Ref->getDecl());
    return nullptr;
  }

  /// A lane used as an index: safe in an array of at least 64 elements, or
  /// in a per-warp array (also indexed by a warp id) read back by lane in the
  /// last step, where the lane stays below the number of warps.
  bool subscriptIsSafe(const ArraySubscriptExpr *Sub, const Expr *Child, Kind K,
                       const FunctionFlow &Flow, ASTContext &Ctx) {
    if (K != Kind::Lane || Sub->getIdx()->IgnoreParenImpCasts() != Child->IgnoreParenImpCasts())
      return true;
    QualType T = Sub->getBase()->IgnoreParenImpCasts()->getType();
    const auto *Array = Ctx.getAsConstantArrayType(T);
    if (!Array || Array->getSize().getZExtValue() >= 64)
      return true;
    const VarDecl *Root = rootArray(Sub->getBase());
    if (!Root)
      return false;
    for (const ArraySubscriptExpr *Other : Flow.Subscripts)
      if (rootArray(Other->getBase()) == Root &&
          (analysis().taint(Other->getIdx(), Flow, Ctx) & TaintWarpId))
        return true;
    return false;
  }

  /// Whether one use of a lane / warp value keeps its meaning when the value
  /// is computed for 64 lanes instead of 32.
  bool useIsSafe(const Expr *Use, Kind K, const FunctionFlow &Flow, ASTContext &Ctx) {
    const Expr *Child = nullptr;
    const Stmt *P = parentSkippingParens(Use, Ctx, &Child);
    if (!P)
      return true;
    // switch (lane) { case 31: ... }, return lane, helper(lane): the constants
    // that go with it are out of sight.
    if (isa<SwitchStmt>(P) || isa<ReturnStmt>(P))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      if (Call->getCallee() &&
          Call->getCallee()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts())
        return true;
      if (asWarpCall(Call, context().map()))
        return true; // a shuffle's source lane or offset
      const FunctionDecl *Callee = Call->getDirectCallee();
      return Callee && Ctx.getSourceManager().isInSystemHeader(Callee->getLocation());
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(P))
      return subscriptIsSafe(Sub, Child, K, Flow, Ctx);
    if (const auto *Bin = dyn_cast<BinaryOperator>(P)) {
      const Expr *Other =
          Bin->getLHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts() ? Bin->getRHS()
                                                                               : Bin->getLHS();
      if (Bin->isComparisonOp()) {
        Expr::EvalResult C;
        if (Other->isValueDependent() || !Other->EvaluateAsInt(C, Ctx) ||
            !C.Val.getInt().isRepresentableByInt64())
          return true;
        int64_t V = C.Val.getInt().getExtValue();
        if (V == 0)
          return true;
        if (K == Kind::Lane && V == 31) {
          auto W = analysis().warpConstant(Other, Ctx, {31}, Bin->getOperatorLoc());
          return W && !W->Named && W->LiteralLoc.isValid(); // fixed along with it
        }
        return false;
      }
      if (Bin->getOpcode() == BO_Shl && K == Kind::Lane &&
          Bin->getRHS()->IgnoreParenImpCasts() == Child->IgnoreParenImpCasts() &&
          !Bin->getType()->isDependentType() && Bin->getType()->isIntegerType() &&
          Ctx.getTypeSize(Bin->getType()) <= 32)
        return false; // 1u << lane: a 32-bit lane bit
      if ((Bin->getOpcode() == BO_Mul || Bin->getOpcode() == BO_Shl) && K == Kind::WarpId) {
        auto W = analysis().warpConstant(Other, Ctx, {32, 5}, Bin->getOperatorLoc());
        if (W)
          return !W->Named && W->LiteralLoc.isValid();
      }
    }
    return true;
  }

  bool fixIsSafe(const BinaryOperator *B, Kind K, const FunctionFlow &Flow, ASTContext &Ctx) {
    // No warp call and no warpSize around: the 32 may index data (match's
    // `(x << 5) + (y & 31)` into rows of 32), which warpSize would break.
    if (!analysis().warpWorkAround(enclosingFunction(B, Ctx), Ctx))
      return false;
    if (K == Kind::LastLane || K == Kind::WarpBase)
      return true;
    // Only a stride over a lane by 32 has been proven by behaviour; one over
    // a lane by warpSize is left to the reviewer.
    if (K == Kind::LaneStride)
      return isLoopStep(B, Ctx) && (analysis().taint(B->getLHS(), Flow, Ctx) & TaintLane);
    if (K == Kind::PerLane || K == Kind::HalfSplit)
      return false; // the shuffles' 16 must change with it
    const VarDecl *V = receivingVar(B, Ctx);
    if (!V)
      return useIsSafe(B, K, Flow, Ctx);
    if (!V->isLocalVarDecl())
      return false;
    for (const DeclRefExpr *Ref : Flow.Refs)
      if (Ref->getDecl() == V && !useIsSafe(Ref, K, Flow, Ctx))
        return false;
    return true;
  }

  /// What the expression of a finding of kind K assumes, and why that is
  /// wrong on a 64-lane wavefront.
  static const char *whatItAssumes(Kind K) {
    switch (K) {
    case Kind::Lane:
      return "computes a lane index for 32-lane warps; a wavefront has 64 lanes, so lanes 32-63 "
             "get 0-31 again";
    case Kind::WarpId:
      return "numbers 32-thread warps; a 64-lane wavefront holds two of them, so warp ids and "
             "lane-0 leaders no longer match the hardware";
    case Kind::WarpBase:
      return "takes the first thread of a 32-thread warp; wavefronts are 64 wide";
    case Kind::LastLane:
      return "tests for the last lane of a 32-lane warp; the last lane of a wavefront is "
             "warpSize - 1 (63)";
    case Kind::LaneStride:
      return "steps a lane's index by 32 lanes; with the lane numbered over 64 lanes, lanes "
             "32-63 start where lanes 0-31 step to, so elements are handled twice or skipped";
    case Kind::PerLane:
      return "counts each lane's share of the elements for 32 lanes; with 64 lanes the share "
             "halves, and it must change together with the lane and its stride";
    case Kind::HalfSplit:
      return "splits a 32-lane warp into halves at lane 16, the partners of the shuffles by 16 "
             "here; the lane counts 64 lanes, whose halves meet at lane 32 (warpSize / 2), so "
             "this selects a quarter of the wavefront";
    }
    return "";
  }

  /// The fix of a literal 32, 31 or 5 (x >> 5 -> x / warpSize; x << 5 -> x *
  /// warpSize, only where the left operand binds tighter than / already).
  static std::optional<Wave64Fix> literalFix(const BinaryOperator *B, const WarpConstant &C,
                                             const Expr *ConstExpr, bool Safe,
                                             const SourceManager &SM) {
    if (C.Value == 32)
      return tokenFix(SM, C.LiteralLoc, "warpSize", "use warpSize", Safe);
    if (C.Value == 31) {
      bool Paren = B->getOpcode() == BO_And || B->getOpcode() == BO_AndAssign;
      return tokenFix(SM, C.LiteralLoc, Paren ? "(warpSize - 1)" : "warpSize - 1",
                      "use warpSize - 1", Safe);
    }
    if (C.Value == 16 || C.Value == 15)
      return tokenFix(SM, C.LiteralLoc, C.Value == 16 ? "warpSize / 2" : "warpSize / 2 - 1",
                      "use warpSize / 2", Safe);
    if (C.Value != 5)
      return std::nullopt;
    const Expr *Left = B->getLHS()->IgnoreImpCasts();
    bool Plain = B->isCompoundAssignmentOp() ||
                 (!isa<BinaryOperator>(Left) && !isa<ConditionalOperator>(Left));
    bool Shr = B->getOpcode() == BO_Shr || B->getOpcode() == BO_ShrAssign;
    std::string Repl =
        std::string(Shr ? "/" : "*") + (B->isCompoundAssignmentOp() ? "=" : "") + " warpSize";
    return rangeFix(SM, B->getOperatorLoc(), ConstExpr->getEndLoc(), Repl,
                    std::string("use ") + (Shr ? "/" : "*") + " warpSize", Safe && Plain);
  }

  void found(const BinaryOperator *B, Kind K, const WarpConstant &C, const Expr *ConstExpr,
             const FunctionFlow &Flow, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Message = "'" + exprText(B, SM) + "' " + whatItAssumes(K);
    std::vector<Wave64Fix> Fixes;
    Severity Level = Severity::Warning;
    const std::string Want = K == Kind::LastLane    ? (C.Value == 32 ? "warpSize" : "warpSize - 1")
                             : K == Kind::HalfSplit ? "warpSize / 2"
                                                    : "warpSize";
    if (C.Named) {
      Message += "; '" + C.Name + "' assumes 32-lane warps: define it from warpSize (64 on "
                 "gfx9 / DCU)";
      if (C.LiteralLoc.isValid() && C.Value == 32)
        Fixes.push_back(tokenFix(SM, C.LiteralLoc, "warpSize",
                                 "define " + C.Name + " as warpSize", false));
    } else if (C.LiteralLoc.isValid() &&
               analysis().widthIndependent(enclosingFunction(B, Ctx), Ctx)) {
      // Groups of 32 threads that never act as a warp: the same results on
      // any wavefront width, so nothing to fix (a note, no edit offered).
      Level = Severity::Note;
      Message += "; this function makes no warp call and reads no warpSize, so its results "
                 "do not depend on the wavefront's width: change the 32 only together with "
                 "warp-level code that relies on it";
    } else if (C.LiteralLoc.isValid()) {
      bool Safe = fixIsSafe(B, K, Flow, Ctx);
      if (auto Fix = literalFix(B, C, ConstExpr, Safe, SM))
        Fixes.push_back(std::move(*Fix));
      if (!Safe)
        Message += "; use " + Want + ", together with the code around it that relies on 32 "
                   "lanes (not changed automatically)";
      else
        Message += "; use " + Want;
    } else {
      Message += "; use " + Want;
    }
    SourceLocation At = B->getOperatorLoc();
    report(At, Level, Message, std::move(Fixes), C.DefinitionLoc);
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeLaneMathCheck(Wave64Context &Shared) {
  return std::make_unique<LaneMathCheck>(wave64_ids::LaneMath, Shared);
}

} // namespace cu2dcu
