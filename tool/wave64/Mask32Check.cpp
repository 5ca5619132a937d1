// W64-MASK32: 32-bit lane masks given to warp intrinsics (__shfl*_sync,
// __ballot_sync, __any_sync, __all_sync, __match_*_sync, __syncwarp,
// __reduce_*_sync): 0xffffffff, ~0u, -1, and macros or variables holding them.
// A 32-bit mask names at most lanes 0-31 of a 64-lane wavefront, and HIP's
// *_sync functions reject masks that are not 64-bit.
//
// What happens to the mask depends on the target and is decided by the warp
// intrinsic translator (plannedMaskAction, read from the unit's warp plan);
// this check explains it, whatever else the translator reports about the call:
//  - a full mask the translator drops (HIP < 6.2) or widens (>= 6.2): note;
//  - a full mask held by a macro or variable on HIP >= 6.2: warning, with the
//    safe fix of widening its definition to 0xffffffffffffffffull;
//  - a partial 32-bit mask, or a 32-bit typed mask variable on HIP >= 6.2,
//    or a 64-bit mask that only covers lanes 0-31: warning;
//  - on HIP >= 6.2, any 32-bit mask but a full literal passes through the
//    entry's mask shim (cu2dcu_lane_mask): warning, saying what the shim does.
#include "wave64/CheckSupport.h"
#include "wave64/CheckIds.h"
#include "wave64/WarpIntrinsicTranslator.h"

#include "clang/AST/TypeLoc.h"

namespace cu2dcu {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

class Mask32Check : public Wave64Check {
public:
  using Wave64Check::Wave64Check;

  void registerMatchers(MatchFinder &Finder) override {
    Finder.addMatcher(callExpr().bind("call"), this);
  }

  void run(const MatchFinder::MatchResult &Result) override {
    const auto *E = Result.Nodes.getNodeAs<CallExpr>("call");
    ASTContext &Ctx = *Result.Context;
    auto Call = asWarpCall(E, context().map());
    if (!Call || !Call->mask() || !inTranslatedCode(context(), Call->NameLoc))
      return;
    bool Outside = false;
    const FunctionDecl *F = checkedFunction(E, Ctx, &Outside);
    if (!F && !Outside)
      return;
    // What the translator does with this call (decided over all template
    // instantiations and macro expansions of it).
    const WarpCallDecision *Decision = warpPlan().decisionFor(*Call);
    if (!Decision || (Decision->Mask.ValueBegin.isValid() &&
                      analysis().onlyInCudaView(Decision->Mask.ValueBegin, Ctx)))
      return; // a mask the project's AMD branch defines itself
    const SourceManager &SM = Ctx.getSourceManager();
    // Point at the mask as written in the call (FULL_MASK, not its #define).
    SourceLocation At = SM.getFileLoc(Call->mask()->getBeginLoc());
    if (!inTranslatedCode(context(), At))
      At = Call->mask()->getBeginLoc();
    // A call written with its mask in a macro body (#define __shfl_down(v, d)
    // __shfl_down_sync(0xffffffff, v, d)): the body is the line to change, the
    // uses fold into it.
    SourceLocation Body;
    if (Call->NameLoc.isMacroID() && !SM.isMacroArgExpansion(Call->NameLoc) &&
        Call->mask()->getBeginLoc().isMacroID() &&
        !SM.isMacroArgExpansion(Call->mask()->getBeginLoc()))
      Body = SM.getSpellingLoc(Call->NameLoc);
    // A full mask held by a named constant (kAll, kEveryLane): the constant
    // is the line to change, its uses fold into it.
    const MaskInfo &Mask = Decision->Mask;
    if (Body.isInvalid() && Mask.Kind == MaskKind::Full32 && Mask.Var && !Mask.TemplateParam &&
        Mask.Var->getType().isConstQualified())
      Body = Mask.Var->getLocation();
    // A full mask held by a macro of any name (#define TEAM_ALL 0xffffffffu):
    // the same, its body is the line to change.
    SourceLocation MaskLoc = Call->mask()->getBeginLoc();
    if (Body.isInvalid() && Mask.Kind == MaskKind::Full32 && !Mask.Var && MaskLoc.isMacroID() &&
        !SM.isMacroArgExpansion(MaskLoc) &&
        inTranslatedCode(context(), SM.getSpellingLoc(MaskLoc)))
      Body = SM.getSpellingLoc(MaskLoc);
    explain(*Call, *Decision, Ctx,
            [&](Severity Level, std::string Message, std::vector<Wave64Fix> Fixes) {
              report(At, Level, std::move(Message), std::move(Fixes), Body);
            });
  }

private:
  using Reporter = llvm::function_ref<void(Severity, std::string, std::vector<Wave64Fix>)>;

  /// The finding for the call's mask, by what the translator does with it.
  void explain(const WarpCall &Call, const WarpCallDecision &Decision, ASTContext &Ctx,
               Reporter Report) {
    const MaskInfo &Mask = Decision.Mask;
    const std::string Fn = "'" + Call.Name + "'";
    const std::string GivenTo = Mask.describe() + " given to " + Fn;
    if (Decision.GroupMask) {
      Report(Severity::Note,
             "lane mask " + GivenTo + " names lanes of a 32-lane group, and this unit works in "
             "32-lane groups: on a 64-lane wavefront it becomes the group's lanes in the "
             "caller's half, '" + Decision.maskShim(context().map()) + "(...)' (HIP's *_sync "
             "warp functions check that the lanes calling together pass exactly them)",
             {});
      return;
    }
    if (Decision.Action == MaskAction::Extend) {
      Report(Severity::Warning,
             "lane mask " + GivenTo +
                 " is 32-bit and HIP's *_sync warp functions take a 64-bit mask: it is passed "
                 "through '" + Decision.maskShim(context().map()) +
                 "', which makes the full 32-bit mask the whole 64-lane wavefront and "
                 "zero-extends any other (lanes 32-63 are not selected); give the mask a 64-bit "
                 "value and type",
             Mask.Kind == MaskKind::Full32 ? widenDefinition(Mask, Ctx)
                                           : std::vector<Wave64Fix>{});
      return;
    }
    switch (Mask.Kind) {
    case MaskKind::Full32:
      explainFull32(Call, Decision, Ctx, Report);
      return;
    case MaskKind::Partial32:
      Report(Severity::Warning,
             "32-bit lane mask " + GivenTo +
                 " selects lanes of a 32-lane warp; a wavefront has 64 lanes, so lanes 32-63 are "
                 "never selected: review the lane selection and use a 64-bit mask",
             {});
      return;
    case MaskKind::Partial64:
      if (Mask.Value == 0xffffffffull)
        Report(Severity::Warning,
               "lane mask " + GivenTo +
                   " covers only lanes 0-31 of the 64-lane wavefront; the full mask is "
                   "0xffffffffffffffffull",
               {});
      return;
    case MaskKind::Dynamic32:
      if (Mask.Dependent)
        return; // its type is known per instantiation only, and none is here
      Report(Severity::Warning,
             "lane mask " + GivenTo +
                 " has a 32-bit type: it can name only lanes 0-31 of a 64-lane wavefront" +
                 (Decision.Legacy ? std::string("")
                                  : std::string(" and HIP's *_sync functions reject it")) +
                 "; compute it in an unsigned long long",
             Mask.Var ? typeJudgedElsewhere(Mask.Var, Ctx) : std::vector<Wave64Fix>{});
      return;
    default:
      return;
    }
  }

  /// A full 32-bit mask: dropped or widened by the translator (a note), else
  /// still 32 lanes wide (a warning).
  void explainFull32(const WarpCall &Call, const WarpCallDecision &Decision, ASTContext &Ctx,
                     Reporter Report) {
    const std::string Desc = Decision.Mask.describe();
    if (isDrop(Decision.Action)) {
      Report(Severity::Note,
             "32-bit lane mask " + Desc + " dropped: " +
                 (Call.Fn == WarpFn::SyncWarp
                      ? std::string("on AMD, '__syncwarp' becomes its shim, a wavefront "
                                    "fence and barrier, which cover all 64 lanes")
                      : "'" + legacyHipName(Call, Decision.Entry) +
                            "' works on the whole 64-lane wavefront"),
             {});
    } else if (Decision.Action == MaskAction::Widen) {
      Report(Severity::Note,
             "32-bit lane mask " + Desc +
                 " widened to 0xffffffffffffffffull: HIP's *_sync warp functions take a 64-bit "
                 "mask and a wavefront has 64 lanes",
             {});
    } else if (Decision.Legacy) {
      // Not taken over (__match_*, __reduce_*, __uni_sync): still 32 lanes.
      Report(Severity::Warning,
             "32-bit lane mask " + Desc + " given to '" + Call.Name +
                 "' covers only lanes 0-31 of a 64-lane wavefront",
             {});
    } else {
      Report(Severity::Warning,
             "lane mask " + Desc + " is 32-bit: '" + Call.Name +
                 "' in HIP takes a 64-bit mask (a wavefront has 64 lanes); define it as "
                 "0xffffffffffffffffull",
             widenDefinition(Decision.Mask, Ctx));
    }
  }

  /// Gives a mask variable a 64-bit type. A parameter is left alone: its
  /// type is the function's signature.
  static std::vector<Wave64Fix> widenType(const VarDecl *V, ASTContext &Ctx, bool Safe) {
    if (isa<ParmVarDecl>(V))
      return {};
    std::optional<Wave64Fix> Fix = widenTypeFix(V, Ctx, "give the mask a 64-bit type", Safe);
    return Fix ? std::vector<Wave64Fix>{*Fix} : std::vector<Wave64Fix>{};
  }

  /// A computed mask variable's type, as a suggestion: whether its values
  /// are 64-bit lane masks is for W64-BALLOT-NARROW to judge, whose safe
  /// fix makes the same edit (see Wave64Fix::JudgedElsewhere).
  std::vector<Wave64Fix> typeJudgedElsewhere(const VarDecl *V, ASTContext &Ctx) {
    std::vector<Wave64Fix> Fixes = widenType(V, Ctx, false);
    for (Wave64Fix &F : Fixes)
      F.JudgedElsewhere = true;
    return Fixes;
  }

  /// Widens the macro or variable that holds a full 32-bit mask.
  std::vector<Wave64Fix> widenDefinition(const MaskInfo &Mask, ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<Wave64Fix> Fixes;
    // A template argument cannot be widened in place (the parameter's type
    // would narrow it again).
    if (Mask.ValueBegin.isInvalid() || Mask.TemplateParam)
      return Fixes;
    Fixes.push_back(rangeFix(SM, Mask.ValueBegin, Mask.ValueEnd, "0xffffffffffffffffull",
                             "widen the mask to 64 bits", true));
    if (Mask.Var) {
      std::vector<Wave64Fix> Type = widenType(Mask.Var, Ctx, true);
      Fixes.insert(Fixes.end(), Type.begin(), Type.end());
    }
    return Fixes;
  }
};

} // namespace

std::unique_ptr<Wave64Check> makeMask32Check(Wave64Context &Shared) {
  return std::make_unique<Mask32Check>(wave64_ids::Mask32, Shared);
}

} // namespace cu2dcu
