// W64-SHFL-OFFSET: shuffle reductions and scans sized for 32 lanes.
//  - for (int o = 16; o > 0; o /= 2) ... __shfl_down_sync(m, v, o): on a
//    64-lane wavefront lanes 0-31 and 32-63 are reduced separately;
//  - for (int o = 1; o < 32; o *= 2) ... __shfl_up_sync(m, v, o): the scan
//    stops after 32 lanes;
//  - unrolled sequences 16, 8, 4, 2, 1 without a 32 step;
//  - an explicit width of 32, which splits the wavefront into two halves, and
//    its cooperative-groups form, cg::tiled_partition<32>(block).
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"

#include "clang/AST/ParentMapContext.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {


/// Shuffle calls in S (not descending into nested lambdas).
void shufflesIn(const Stmt *S, const ApiMap &Map, std::vector<WarpCall> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (auto W = asWarpCall(Call, Map); W && W->isShuffle())
      Out.push_back(*W);
  for (const Stmt *Child : S->children())
    shufflesIn(Child, Map, Out);
}

/// The variables declared in S whose initialiser mentions V.
void carriersOf(const Stmt *S, const VarDecl *V, std::vector<const VarDecl *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D); Var && mentions(Var->getInit(), V))
        Out.push_back(Var);
  for (const Stmt *Child : S->children())
    carriersOf(Child, V, Out);
}

/// +1 when Inc doubles V (o *= 2, o <<= 1, o = o * 2, o += o), -1 when it
/// halves it (o /= 2, o >>= 1, o = o / 2, o = o >> 1), 0 otherwise.
int stepDirection(const Expr *Inc, const VarDecl *V, ASTContext &Ctx) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(Inc ? Inc->IgnoreParenImpCasts() : nullptr);
  if (!B || varOf(B->getLHS()) != V)
    return 0;
  auto Is = [&](const Expr *E, int64_t Want) {
    auto C = constantOf(E, Ctx);
    return C && *C == Want;
  };
  switch (B->getOpcode()) {
  case BO_DivAssign:
    return Is(B->getRHS(), 2) ? -1 : 0;
  case BO_ShrAssign:
    return Is(B->getRHS(), 1) ? -1 : 0;
  case BO_MulAssign:
    return Is(B->getRHS(), 2) ? 1 : 0;
  case BO_ShlAssign:
    return Is(B->getRHS(), 1) ? 1 : 0;
  case BO_AddAssign:
    return varOf(B->getRHS()) == V ? 1 : 0;
  case BO_Assign: {
    const auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!R || varOf(R->getLHS()) != V)
      return 0;
    if ((R->getOpcode() == BO_Div && Is(R->getRHS(), 2)) ||
        (R->getOpcode() == BO_Shr && Is(R->getRHS(), 1)))
      return -1;
    if ((R->getOpcode() == BO_Mul && Is(R->getRHS(), 2)) ||
        (R->getOpcode() == BO_Shl && Is(R->getRHS(), 1)))
      return 1;
    return 0;
  }
  default:
    return 0;
  }
}

class ShuffleOffsetCheck : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  /// Whether S only runs on the first 32 threads (inside `if (tid < 32)`):
  /// a 32-lane reduction there is deliberate, e.g. the tail of a shared
  /// memory tree that folded 64 values first.
  bool guardedTo32Lanes(const Stmt *S, ASTContext &Ctx) {
    const FunctionDecl *F = checkedFunction(S, Ctx);
    if (!F)
      return false;
    const FunctionFlow &Flow = analysis().flow(F, Ctx);
    DynTypedNode Node = DynTypedNode::create(*S);
    for (int Depth = 0; Depth < 64; ++Depth) {
      auto Parents = Ctx.getParents(Node);
      if (Parents.empty())
        return false;
      const Stmt *Child = Node.get<Stmt>();
      Node = Parents[0];
      if (Node.get<FunctionDecl>() || Node.get<LambdaExpr>())
        return false;
      const auto *If = Node.get<IfStmt>();
      if (!If || If->getThen() != Child)
        continue;
      const auto *Cond = dyn_cast_or_null<BinaryOperator>(
          If->getCond() ? If->getCond()->IgnoreParenImpCasts() : nullptr);
      if (!Cond || !(analysis().taint(Cond->getLHS(), Flow, Ctx) & TaintThread))
        continue;
      if ((Cond->getOpcode() == BO_LT && analysis().warpConstant(Cond->getRHS(), Ctx, {32})) ||
          (Cond->getOpcode() == BO_LE && analysis().warpConstant(Cond->getRHS(), Ctx, {31})))
        return true;
    }
    return false;
  }

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(forStmt().bind("for"), this);
    Finder.addMatcher(whileStmt().bind("while"), this);
    Finder.addMatcher(compoundStmt().bind("block"), this);
    Finder.addMatcher(callExpr().bind("call"), this);
    Finder.addMatcher(
        callExpr(callee(functionDecl(hasName("tiled_partition"), isExpansionInSystemHeader())))
            .bind("tile"),
        this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call"))
      return onCall(Call, Ctx);
    if (const auto *Tile = Result.Nodes.getNodeAs<CallExpr>("tile"))
      return onTile(Tile, Ctx);
    // Explicit 32-lane groups: a reduction from 16 or a scan to 32 covers a
    // whole group. The width 32 itself is still reported (onCall).
    auto InGroups = [&](const Stmt *S) { return analysis().explicitLaneGroups(Ctx, S->getBeginLoc()); };
    if (const auto *For = Result.Nodes.getNodeAs<ForStmt>("for"); For && !InGroups(For))
      return onLoop(For, Ctx);
    if (const auto *While = Result.Nodes.getNodeAs<WhileStmt>("while"); While && !InGroups(While))
      return onWhile(While, Ctx);
    if (const auto *Block = Result.Nodes.getNodeAs<CompoundStmt>("block"); Block && !InGroups(Block))
      return onBlock(Block, Ctx);
  }

private:
  void onLoop(const ForStmt *For, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), For->getForLoc()) || !checkedFunction(For, Ctx))
      return;
    const Expr *Start = nullptr;
    const VarDecl *V = loopVariable(For, Ctx, Start);
    if (!V || !Start)
      return;
    int Dir = stepDirection(For->getInc(), V, Ctx);
    if (Dir == 0)
      return onLaneByLane(For, V, Ctx);
    if (!offsetOfShuffles(For->getBody(), V, Ctx))
      return;
    if (Dir < 0)
      onReduction(For, For->getForLoc(), Start, Ctx);
    else
      onScan(For->getCond(), V, Ctx);
  }

  /// `V < bound` in a loop condition, alone or as one side of an `&&`
  /// (`k < 32 && k0 + k < n`).
  static const BinaryOperator *upperBound(const Expr *Cond, const VarDecl *V) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts() : nullptr);
    if (!B)
      return nullptr;
    if (B->getOpcode() == BO_LAnd) {
      const BinaryOperator *Left = upperBound(B->getLHS(), V);
      return Left ? Left : upperBound(B->getRHS(), V);
    }
    return B->getOpcode() == BO_LT && varOf(B->getLHS()) == V ? B : nullptr;
  }

  /// for (k = 0; k < 32; ++k) v = __shfl_sync(m, x, k): a broadcast from
  /// every lane of a 32-lane warp in turn; lanes 32-63 are never read.
  void onLaneByLane(const ForStmt *For, const VarDecl *V, ASTContext &Ctx) {
    const auto *Inc = dyn_cast_or_null<UnaryOperator>(For->getInc());
    const BinaryOperator *Cond = upperBound(For->getCond(), V);
    if (!Inc || !Inc->isIncrementOp() || varOf(Inc->getSubExpr()) != V || !Cond)
      return;
    std::vector<WarpCall> Shuffles;
    shufflesIn(For->getBody(), context().map(), Shuffles);
    bool Broadcasts = llvm::any_of(Shuffles, [&](const WarpCall &W) {
      int Lane = W.offsetArg(), Width = W.widthArg();
      return (W.Fn == WarpFn::ShflSync || W.Fn == WarpFn::Shfl) && Lane >= 0 &&
             Lane < int(W.Args.size()) && varOf(W.Args[Lane]) == V &&
             (Width < 0 || Width >= int(W.Args.size()));
    });
    auto C = Broadcasts ? analysis().warpConstant(Cond->getRHS(), Ctx, {32}, Cond->getOperatorLoc())
                        : std::nullopt;
    if (!C)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Message = "shuffle loop '" + exprText(Cond, SM) +
                          "' reads lanes 0-31 in turn: a 64-lane wavefront's lanes 32-63 are "
                          "never read; loop while the lane is < warpSize";
    std::vector<Wave64Fix> Fixes;
    if (C->Named)
      Message += " ('" + C->Name + "' is sized for 32-lane warps)";
    else if (C->LiteralLoc.isValid()) // 64 lanes then pair up: not proven, not applied
      Fixes.push_back(tokenFix(SM, C->LiteralLoc, "warpSize", "use warpSize", false));
    report(useLoc(Cond->getRHS()->getBeginLoc(), SM), Severity::Warning, Message,
           std::move(Fixes), C->DefinitionLoc);
  }

  /// `int off = 16; while (off > 0) { ... shfl(v, off) ...; off /= 2; }`:
  /// the counter is a local stepped by a statement of the body.
  void onWhile(const WhileStmt *While, ASTContext &Ctx) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(While->getBody());
    if (!Body || !inTranslatedCode(context(), While->getWhileLoc()) ||
        !checkedFunction(While, Ctx))
      return;
    for (const Stmt *S : Body->body()) {
      const auto *Step = dyn_cast<BinaryOperator>(S);
      const VarDecl *V = Step ? varOf(Step->getLHS()) : nullptr;
      if (!V || !V->hasLocalStorage() || !V->getInit())
        continue;
      int Dir = stepDirection(Step, V, Ctx);
      if (Dir == 0 || !offsetOfShuffles(Body, V, Ctx))
        continue;
      if (Dir < 0)
        onReduction(While, While->getWhileLoc(), V->getInit(), Ctx);
      else
        onScan(While->getCond(), V, Ctx);
      return;
    }
  }

  /// Whether a shuffle of Body takes V, or a variable of Body initialised
  /// from it (int d = o), as an argument. A width of the code's own
  /// (`__shfl_down_sync(m, v, o, BS)`) makes the loop reduce groups of that
  /// width, whatever the warp's; a width of 32 is reported at the call.
  bool offsetOfShuffles(const Stmt *Body, const VarDecl *V, ASTContext &Ctx) {
    std::vector<WarpCall> Shuffles;
    shufflesIn(Body, context().map(), Shuffles);
    std::vector<const VarDecl *> Carriers{V};
    carriersOf(Body, V, Carriers);
    for (const WarpCall &W : Shuffles) {
      int Width = W.widthArg();
      if (Width >= 0 && Width < int(W.Args.size()) && !isa<CXXDefaultArgExpr>(W.Args[Width]) &&
          !analysis().spelledAsWarpWidth(W.Args[Width], Ctx))
        continue;
      for (const Expr *Arg : W.Args)
        for (const VarDecl *Carrier : Carriers)
          if (mentions(Arg, Carrier))
            return true;
    }
    return false;
  }

  /// The loop's variable, declared or assigned in its init; Start gets its
  /// start value. Of several declared (`int d = 1, span = 32`), the one the
  /// increment steps.
  static const VarDecl *loopVariable(const ForStmt *For, ASTContext &Ctx, const Expr *&Start) {
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
      for (const Decl *D : DS->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->getInit() &&
            (DS->isSingleDecl() || stepDirection(For->getInc(), Var, Ctx) != 0)) {
          Start = Var->getInit();
          return Var;
        }
    } else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(For->getInit())) {
      if (Assign->getOpcode() == BO_Assign && varOf(Assign->getLHS())) {
        Start = Assign->getRHS();
        return varOf(Assign->getLHS());
      }
    }
    return nullptr;
  }

  /// Reductions: for (o = 16; o > 0; o /= 2), and the same as a while loop.
  void onReduction(const Stmt *Loop, SourceLocation LoopLoc, const Expr *Start,
                   ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    auto C = analysis().warpConstant(Start, Ctx, {16}, LoopLoc);
    if (!C || guardedTo32Lanes(Loop, Ctx))
      return;
    std::vector<Wave64Fix> Fixes;
    std::string Message =
        "shuffle reduction starts at offset " +
        (exprText(Start, SM) == "16" ? std::string("16") : exprText(Start, SM) + " (16)") +
        ": on a 64-lane wavefront lanes 0-31 and 32-63 are combined separately, so lane "
        "0 misses half of the values; start at warpSize / 2";
    if (C->Named) {
      Message += " ('" + C->Name + "' is sized for 32-lane warps)";
    } else if (C->LiteralLoc.isValid()) {
      Fixes.push_back(tokenFix(SM, C->LiteralLoc, "warpSize / 2", "start at warpSize / 2", true));
    }
    report(C->LiteralLoc.isValid() && !C->Named ? C->LiteralLoc : useLoc(Start->getBeginLoc(), SM),
           Severity::Warning, Message, std::move(Fixes), C->DefinitionLoc);
  }

  /// Scans: for (o = 1; o < 32; o *= 2) / o <= 16.
  void onScan(const Expr *LoopCond, const VarDecl *V, ASTContext &Ctx) {
    const auto *Cond =
        dyn_cast_or_null<BinaryOperator>(LoopCond ? LoopCond->IgnoreParenImpCasts() : nullptr);
    if (!Cond || varOf(Cond->getLHS()) != V)
      return;
    bool Less = Cond->getOpcode() == BO_LT, LessEq = Cond->getOpcode() == BO_LE;
    if (!Less && !LessEq)
      return;
    auto C = analysis().warpConstant(Cond->getRHS(), Ctx, {Less ? 32 : 16}, Cond->getOperatorLoc());
    if (!C)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Want = Less ? "warpSize" : "warpSize / 2";
    std::vector<Wave64Fix> Fixes;
    std::string Message = "shuffle scan stops at offset " + exprText(Cond, SM) +
                          ": it covers 32 lanes, a wavefront has 64; loop while the offset is " +
                          (Less ? "< warpSize" : "<= warpSize / 2");
    if (C->Named)
      Message += " ('" + C->Name + "' is sized for 32-lane warps)";
    else if (C->LiteralLoc.isValid())
      Fixes.push_back(tokenFix(SM, C->LiteralLoc, Want, "use " + Want, true));
    report(useLoc(Cond->getRHS()->getBeginLoc(), SM), Severity::Warning, Message,
           std::move(Fixes), C->DefinitionLoc);
  }

  void onBlock(const CompoundStmt *Block, ASTContext &Ctx) {
    if (!inTranslatedCode(context(), Block->getLBracLoc()) || !checkedFunction(Block, Ctx))
      return;
    // One shuffle per statement, offsets as constants, in order.
    struct Step {
      WarpCall Call;
      int64_t Offset;
    };
    std::vector<Step> Steps;
    for (const Stmt *S : Block->body()) {
      std::vector<WarpCall> Shuffles;
      shufflesIn(S, context().map(), Shuffles);
      if (Shuffles.size() != 1 || isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S)) {
        if (!Shuffles.empty())
          Steps.push_back({WarpCall(), -1});
        continue;
      }
      const WarpCall &W = Shuffles.front();
      int Index = W.offsetArg();
      if (Index < 0 || size_t(Index) >= W.Args.size() ||
          (W.Fn != WarpFn::ShflDownSync && W.Fn != WarpFn::ShflXorSync &&
           W.Fn != WarpFn::ShflDown && W.Fn != WarpFn::ShflXor)) {
        Steps.push_back({WarpCall(), -1});
        continue;
      }
      auto C = constantOf(W.Args[Index], Ctx);
      Steps.push_back({W, C ? *C : -1});
    }
    for (size_t I = 0; I < Steps.size(); ++I) {
      if (!startsAt16(Steps, I) && !butterflyEndsAt16(Steps, I))
        continue;
      const WarpCall &W = Steps[I].Call;
      const Expr *Offset = W.Args[W.offsetArg()];
      if (!analysis().warpConstant(Offset, Ctx, {16}))
        continue; // e.g. TILE / 2: a deliberate 32-lane group
      if (guardedTo32Lanes(Block, Ctx))
        continue;
      report(useLoc(Offset->getBeginLoc(), Ctx.getSourceManager()), Severity::Warning,
             "unrolled shuffle reduction has no step above offset 16: on a 64-lane wavefront lanes 0-31 "
             "and 32-63 are combined separately; add a step with offset 32 (or loop over "
             "offsets up to warpSize / 2)");
    }
  }

  /// 16, 8, ... with no 32 step before it.
  template <class StepList> static bool startsAt16(const StepList &Steps, size_t I) {
    return I + 1 < Steps.size() && Steps[I].Offset == 16 && Steps[I + 1].Offset == 8 &&
           !(I > 0 && Steps[I - 1].Offset == 32);
  }

  /// An xor butterfly written upwards, ..., 8, 16, with no 32 step after it.
  template <class StepList> static bool butterflyEndsAt16(const StepList &Steps, size_t I) {
    auto Xor = [](const WarpCall &W) {
      return W.Fn == WarpFn::ShflXorSync || W.Fn == WarpFn::ShflXor;
    };
    return I > 0 && Steps[I].Offset == 16 && Steps[I - 1].Offset == 8 && Xor(Steps[I].Call) &&
           Xor(Steps[I - 1].Call) && !(I + 1 < Steps.size() && Steps[I + 1].Offset == 32);
  }

  /// cg::tiled_partition<32>(block): tiles of 32 lanes, whose shuffles and
  /// votes (tile.shfl_down, tile.ballot) cover half of a 64-lane wavefront.
  void onTile(const CallExpr *E, ASTContext &Ctx) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->getCallee()->IgnoreParenImpCasts());
    if (!Ref || Ref->getNumTemplateArgs() != 1 || !inTranslatedCode(context(), E->getBeginLoc()) ||
        !checkedFunction(E, Ctx))
      return;
    const TemplateArgumentLoc &Size = Ref->template_arguments()[0];
    const Expr *SizeExpr = Size.getArgument().getKind() == TemplateArgument::Expression
                               ? Size.getSourceExpression()
                               : nullptr;
    auto C = SizeExpr ? analysis().warpConstant(SizeExpr, Ctx, {32}) : std::nullopt;
    if (!C)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Found = "'tiled_partition<" + exprText(SizeExpr, SM) +
                        ">' makes 32-lane tiles: a 64-lane wavefront holds two, and the tile's "
                        "shuffles and votes cover half of it";
    LaneGrouping Grouping = analysis().laneGroupingAt(Ctx, E->getBeginLoc());
    if (Grouping == LaneGrouping::WidthPinnedGroups || Grouping == LaneGrouping::ConsistentGroups) {
      const char *Reason = Grouping == LaneGrouping::WidthPinnedGroups ? WidthPinnedGroupsReason
                                                                       : ConsistentGroupsReason;
      reportWave64(context(), useLoc(Size.getLocation(), SM), id(), Severity::Note,
                   groupsMessage(Found, Reason), {}, C->DefinitionLoc, Wave64Role::Assumption,
                   Reason);
      return;
    }
    report(useLoc(Size.getLocation(), SM), Severity::Warning,
           Found + "; partition by the wavefront size unless 32-lane groups are intended", {},
           C->DefinitionLoc);
  }

  void onCall(const CallExpr *E, ASTContext &Ctx) {
    auto W = asWarpCall(E, context().map());
    if (!W || !W->isShuffle() || !inTranslatedCode(context(), W->NameLoc) ||
        !checkedFunction(E, Ctx))
      return;
    int Index = W->widthArg();
    if (Index < 0)
      return;
    if (size_t(Index) >= W->Args.size())
      return onDefaultWidthInGroups(*W, Ctx);
    const Expr *Width = W->Args[Index];
    auto C = analysis().warpConstant(Width, Ctx, {32});
    if (!C)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    std::string Text = exprText(Width, SM);
    std::string Found = "'" + W->Name + "' with width " + (Text == "32" ? Text : Text + " (32)") +
                        " splits the 64-lane wavefront into two independent 32-lane halves";
    // The one place that decides the group size, in groups right as written.
    if (analysis().laneGroupingAt(Ctx, W->NameLoc) == LaneGrouping::WidthPinnedGroups) {
      reportWave64(context(), useLoc(Width->getBeginLoc(), SM), id(), Severity::Note,
                   groupsMessage(Found, WidthPinnedGroupsReason), {}, C->DefinitionLoc,
                   Wave64Role::Assumption, WidthPinnedGroupsReason);
      return;
    }
    std::vector<Wave64Fix> Fixes;
    if (!C->Named && C->LiteralLoc.isValid())
      Fixes.push_back(tokenFix(SM, C->LiteralLoc, "warpSize", "shuffle across the wavefront",
                               false));
    report(useLoc(Width->getBeginLoc(), SM), Severity::Warning,
           Found + "; use warpSize unless 32-lane groups are intended", std::move(Fixes),
           C->DefinitionLoc);
  }

  /// In 32-lane groups (see WarpAnalysis::explicitLaneGroups) a shuffle of the
  /// default width spans the 64-lane wavefront: lanes 32-63 would read lanes of
  /// the first group. An xor below 32 stays in its group at any width.
  void onDefaultWidthInGroups(const WarpCall &W, ASTContext &Ctx) {
    if (W.Fn == WarpFn::ShflXorSync || W.Fn == WarpFn::ShflXor ||
        !analysis().explicitLaneGroups(Ctx, W.NameLoc))
      return;
    report(W.NameLoc, Severity::Warning,
           "'" + W.Name + "' reads lanes of a 32-lane group (the code broadcasts from a fixed "
           "lane inside one, so it works in 32-lane groups) but has the default width, 64 "
           "on a 64-lane wavefront: lanes 32-63 would read lanes 0-31; pass width 32",
           pinWidth32(W));
  }

  /// Width 32 keeps CUDA's meaning: each half of the wavefront shuffles as
  /// one 32-lane warp, the groups the rest of the code numbers. Safe: the
  /// translation unit reads no whole-warp value and every lane or offset
  /// lies in [0, 32) (explicitLaneGroups). A call spelled in a macro body
  /// stands for other expansions too and is left to the reviewer.
  static std::vector<Wave64Fix> pinWidth32(const WarpCall &W) {
    SourceLocation Close = W.Call->getRParenLoc();
    if (Close.isInvalid() || Close.isMacroID())
      return {};
    Wave64Fix Fix;
    Fix.Begin = Close;
    Fix.Replacement = ", 32";
    Fix.Description = "pass width 32 (a 32-lane group, as in CUDA)";
    Fix.Safe = true;
    Fix.Standalone = true; // keeps CUDA's meaning whatever the grouping's other sites do
    return {Fix};
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeShuffleOffsetCheck(Wave64Context &Shared) {
  return std::make_unique<ShuffleOffsetCheck>(wave64_ids::ShuffleOffset, Shared);
}

} // namespace cu2dcu
