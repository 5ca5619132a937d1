#include "wave64/WarpIntrinsicTranslator.h"

#include "wave64/Wave64Report.h"
#include "translate/EntryTranslation.h"
#include "translate/RawTokens.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <set>

namespace cu2dcu {

using namespace clang;

namespace {

/// Offset in File of the character where Loc's token is written inside
/// [From, To), following macro expansions outwards: a token of a macro argument
/// is followed to where the argument is written and, when ThroughParams, also
/// to the parameter's place in the macro body. Nothing when neither lies
/// inside the call's text.
std::optional<unsigned> offsetInCall(SourceLocation Loc, FileID File, unsigned From, unsigned To,
                                     const SourceManager &SM, bool ThroughParams, int Depth = 0) {
  if (Loc.isInvalid() || Depth > 24)
    return std::nullopt;
  SourceLocation Spelled = SM.getSpellingLoc(Loc);
  auto [F, Offset] = SM.getDecomposedLoc(Spelled);
  if (F == File && Offset > From && Offset < To)
    return Offset;
  if (Loc.isFileID())
    return std::nullopt;
  if (SM.isMacroArgExpansion(Loc)) {
    if (auto Found = offsetInCall(SM.getImmediateSpellingLoc(Loc), File, From, To, SM,
                                  ThroughParams, Depth + 1))
      return Found;
    if (!ThroughParams)
      return std::nullopt;
  }
  return offsetInCall(SM.getImmediateExpansionRange(Loc).getBegin(), File, From, To, SM,
                      ThroughParams, Depth + 1);
}

} // namespace

std::optional<WarpCallPieces> locateWarpCall(const WarpCall &Call, SourceContext &Context,
                                             std::string *Why) {
  const SourceManager &SM = Context.sourceManager();
  SourceLocation Name = SM.getSpellingLoc(Call.NameLoc);
  SourceLocation RParen = SM.getSpellingLoc(Call.Call->getRParenLoc());
  auto [File, NameOffset] = SM.getDecomposedLoc(Name);
  auto [RFile, RParenOffset] = SM.getDecomposedLoc(RParen);
  if (File != RFile || RParenOffset <= NameOffset || !Context.isTranslated(File)) {
    if (Why)
      *Why = "the call is assembled by macros";
    return std::nullopt;
  }
  const std::string &Text = Context.textOf(File);
  if (Text.compare(NameOffset, Call.Name.size(), Call.Name) != 0) {
    if (Why)
      *Why = "the name is spelled differently";
    return std::nullopt;
  }
  WarpCallPieces P;
  P.File = File;
  P.NameOffset = NameOffset;
  P.NameLength = Call.Name.size();
  P.RParenOffset = RParenOffset;
  for (const Expr *Arg : Call.Args) {
    // The mask must be written in the call's own text: one written at each
    // use of a macro may differ between uses. The other arguments only
    // need a position, a macro parameter's will do.
    bool ThroughParams = !Call.isSync() || Arg != Call.Args.front();
    auto Begin = offsetInCall(Arg->getBeginLoc(), File, NameOffset, RParenOffset, SM, ThroughParams);
    auto Last = offsetInCall(Arg->getEndLoc(), File, NameOffset, RParenOffset, SM, ThroughParams);
    if (!Begin || !Last || *Last < *Begin) {
      if (Why)
        *Why = ThroughParams ? "an argument is written outside the call's text"
                             : "its lane mask comes through a macro parameter";
      return std::nullopt;
    }
    unsigned Length =
        Lexer::MeasureTokenLength(SM.getComposedLoc(File, *Last), SM, cudaLangOptions());
    P.ArgBegin.push_back(*Begin);
    P.ArgEnd.push_back(*Last + std::max(1u, Length));
  }
  return P;
}

bool isDrop(MaskAction A) { return A == MaskAction::Drop || A == MaskAction::DropLossy; }

/// Whether Mask is written with a warp call (__ballot_sync(...) & m) whose
/// HIP form returns 64 bits where CUDA's returns 32.
static bool holdsWarpCall(const Stmt *S, const ApiMap &Map) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S); Call && asWarpCall(Call, Map))
    return true;
  return S && llvm::any_of(S->children(),
                           [&](const Stmt *Child) { return holdsWarpCall(Child, Map); });
}

/// Whether a mask has a 32-bit type: a 32-bit constant or computation, or a
/// 32-bit variable that holds __activemask().
static bool isNarrow(const MaskInfo &Mask) {
  if (Mask.is32Bit())
    return true;
  if (Mask.Kind != MaskKind::ActiveMask || !Mask.Var || Mask.Var->getType()->isDependentType())
    return false;
  return Mask.Var->getASTContext().getTypeSize(Mask.Var->getType()) <= 32;
}

bool rewritesCalls(const ApiEntry *Entry) { return Entry && !Entry->LegacyHip.empty(); }

bool predatesHipFunction(const ApiEntry *Entry, const HipVersion &Target) {
  return !Entry || Entry->isMissingIn(Target);
}

MaskAction plannedMaskAction(const WarpCall &Call, const MaskInfo &Mask, const ApiEntry *Entry,
                             const SourceContext &Context, bool Locatable) {
  const TranslationOptions &Options = Context.options();
  if (!Call.isSync() && Call.Fn != WarpFn::ActiveMask)
    return MaskAction::None;
  if (predatesHipFunction(Entry, Options.TargetHip)) {
    // The mask goes with the legacy form, or with a shim that has none.
    if (!rewritesCalls(Entry) && !(Entry && Entry->usesShim(Options.TargetHip)))
      return MaskAction::None;
    if (Call.Fn == WarpFn::ActiveMask)
      return Locatable ? MaskAction::None : MaskAction::Refuse;
    if (!Locatable)
      return MaskAction::Refuse;
    if (!Mask.isFull())
      return Options.StrictMasks ? MaskAction::Refuse : MaskAction::DropLossy;
    return MaskAction::Drop;
  }
  if (Mask.Kind == MaskKind::Full32 && !Mask.ViaName)
    return Locatable ? MaskAction::Widen : MaskAction::Refuse;
  if (isNarrow(Mask) && !Mask.Dependent && Locatable && !Entry->MaskShim.empty() &&
      !holdsWarpCall(Call.mask(), Context.map()))
    return MaskAction::Extend;
  return MaskAction::None;
}

std::string legacyHipName(const WarpCall &Call, const ApiEntry *Entry) {
  return Entry && !Entry->LegacyHip.empty() ? Entry->LegacyHip : Call.Name;
}

namespace {

/// Whether code in F is a template instantiation (the pattern is the code as
/// written).
bool inInstantiation(const FunctionDecl *F) {
  if (!F)
    return false;
  if (F->isTemplateInstantiation())
    return true;
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *R = dyn_cast<CXXRecordDecl>(DC))
      if (R->getTemplateSpecializationKind() == TSK_ImplicitInstantiation)
        return true;
  return false;
}

/// Collects every warp call, in patterns and in template instantiations.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  explicit CallCollector(const ApiMap &Map) : Map(Map) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *E) {
    if (auto Call = asWarpCall(E, Map))
      if (Call->isSync() || Call->Fn == WarpFn::ActiveMask)
        Calls.push_back(*Call);
    return true;
  }
  const ApiMap &Map;
  std::vector<WarpCall> Calls;
};

/// One warp call at a call site: the call as written, or one of its template
/// instantiations or macro expansions.
struct SiteCall {
  WarpCall Call;
  MaskInfo Mask;
  bool Instance; // in a template instantiation
};
using CallSite = std::pair<FileID, unsigned>; // where the callee name is spelled

/// Every warp call of the unit in translated code, by call site; Order holds
/// the sites in the order the AST first meets them.
std::map<CallSite, std::vector<SiteCall>> collectCallSites(SourceContext &Context, ASTContext &Ast,
                                                           WarpAnalysis &Analysis,
                                                           std::vector<CallSite> &Order) {
  const SourceManager &SM = Context.sourceManager();
  CallCollector Collector(Context.map());
  Collector.TraverseAST(Ast);
  std::map<CallSite, std::vector<SiteCall>> Sites;
  for (const WarpCall &Call : Collector.Calls) {
    CallSite Site = SM.getDecomposedLoc(SM.getSpellingLoc(Call.NameLoc));
    if (!Context.isTranslated(Site.first))
      continue;
    const FunctionDecl *F = enclosingFunction(Call.Call, Ast);
    const FunctionFlow &Flow = Analysis.flow(F, Ast);
    auto &Slot = Sites[Site];
    if (Slot.empty())
      Order.push_back(Site);
    Slot.push_back({Call, Analysis.classifyMask(Call, Flow, Ast), inInstantiation(F)});
  }
  return Sites;
}

/// Settles D's mask action over the calls Judged stands for: one rewrite of
/// the text serves them all only where it is right for each of them.
void settleMaskAction(WarpCallDecision &D, const std::vector<const SiteCall *> &Judged,
                      const SourceContext &Context) {
  D.Mask = Judged.front()->Mask;
  D.Action =
      plannedMaskAction(Judged.front()->Call, D.Mask, D.Entry, Context, D.Pieces.has_value());
  for (const SiteCall *E : Judged) {
    MaskAction A = plannedMaskAction(E->Call, E->Mask, D.Entry, Context, D.Pieces.has_value());
    if (isDrop(A) && isDrop(D.Action)) { // the same edit; warn if any loses lanes
      if (A == MaskAction::DropLossy) {
        D.Action = A;
        D.Mask = E->Mask;
      }
      continue;
    }
    if (A != D.Action) {
      // Instantiations or expansions disagree: do the same to all of them
      // only when that is right for each, which here it is not.
      D.Action = MaskAction::Refuse;
      D.Mixed = true;
      if (!E->Mask.isFull())
        D.Mask = E->Mask;
    }
    if (A == MaskAction::Refuse && !E->Mask.isFull())
      D.Mask = E->Mask;
  }
}

/// The decision for one call site, from every call it stands for.
WarpCallDecision decideCallSite(const std::vector<SiteCall> &All, SourceContext &Context) {
  const TranslationOptions &Options = Context.options();
  // The code as written, if any call is (its text is the one to edit).
  auto Pattern = llvm::find_if(All, [](const SiteCall &E) { return !E.Instance; });
  const SiteCall *Written = Pattern != All.end() ? &*Pattern : &All.front();
  WarpCallDecision D;
  D.Call = Written->Call;
  D.Entry = Context.map().lookup(D.Call.Name);
  D.Legacy = predatesHipFunction(D.Entry, Options.TargetHip);
  D.Pieces = locateWarpCall(Written->Call, Context, &D.Why);
  // A mask that depends on a template parameter is judged by the
  // instantiations; a macro body by every expansion.
  std::vector<const SiteCall *> Judged;
  for (const SiteCall &E : All)
    if (!E.Mask.Dependent)
      Judged.push_back(&E);
  if (Judged.empty())
    Judged.push_back(Written);
  settleMaskAction(D, Judged, Context);
  if (D.Mask.Dependent && D.Action != MaskAction::None)
    // Never instantiated: nothing tells the value.
    D.Action = isDrop(D.Action) && !Options.StrictMasks ? MaskAction::DropLossy
                                                         : MaskAction::Refuse;
  return D;
}

} // namespace

WarpCallPlanner::WarpCallPlanner(SourceContext &Context, ASTContext &Ast, WarpAnalysis &Analysis)
    : Context(Context) {
  std::vector<CallSite> Order;
  std::map<CallSite, std::vector<SiteCall>> Sites = collectCallSites(Context, Ast, Analysis, Order);
  const bool GroupMasks = !Context.map().warpNames().LaneGroupMaskShim.empty();
  for (const CallSite &Site : Order) {
    WarpCallDecision D = decideCallSite(Sites[Site], Context);
    // In 32-lane groups a shuffle's 32-bit mask names the caller's group: on
    // a 64-lane wavefront, the caller's half (HIP >= 6.2 checks it).
    if (GroupMasks && D.Call.isShuffle() && isNarrow(D.Mask) &&
        Analysis.laneGroupingAt(Ast, D.Call.NameLoc) != LaneGrouping::WarpWide &&
        (D.Action == MaskAction::Widen || D.Action == MaskAction::Extend)) {
      D.Action = MaskAction::Extend;
      D.GroupMask = true;
    }
    if (rewritesCalls(D.Entry))
      RewrittenNames[Site.first].insert(Site.second);
    Index[Site] = Decisions.size();
    Decisions.push_back(std::move(D));
  }
}

const WarpCallDecision *WarpCallPlanner::decisionAt(SourceLocation NameLoc) const {
  const SourceManager &SM = Context.sourceManager();
  auto It = Index.find(SM.getDecomposedLoc(SM.getSpellingLoc(NameLoc)));
  return It == Index.end() ? nullptr : &Decisions[It->second];
}

const WarpCallDecision *WarpCallPlanner::decisionFor(const WarpCall &Call) const {
  return decisionAt(Call.NameLoc);
}

bool WarpCallPlanner::rewritesNameAt(SourceLocation NameLoc) const {
  const WarpCallDecision *D = decisionAt(NameLoc);
  return D && rewritesCalls(D->Entry);
}

namespace {

class WarpTranslator {
public:
  WarpTranslator(SourceContext &Context, ASTContext &Ast, const WarpCallPlanner &Planner)
      : Context(Context), Ast(Ast), Planner(Planner) {}

  void run() {
    for (const WarpCallDecision &D : Planner.decisions())
      handle(D);
  }

private:
  void edit(FileID File, unsigned Offset, unsigned Length, std::string Text, std::string Category,
            std::string Name) {
    Context.findingsFor(File).Edits.push_back(
        {Offset, Length, std::move(Text), std::move(Category), std::move(Name)});
  }

  std::string family(const std::string &Name) {
    const ApiEntry *Entry = Context.map().lookup(Name);
    return Entry && !Entry->Family.empty() ? Entry->Family : "device";
  }

  /// Whether an __activemask() call is the lane mask of a warp call whose
  /// rewrite drops it (a shim, __syncwarp's, keeps its argument).
  bool isDroppedMask(const WarpCall &Inner) {
    const Expr *Child = nullptr;
    const auto *Outer = dyn_cast_or_null<CallExpr>(parentSkippingParens(Inner.Call, Ast, &Child));
    auto W = asWarpCall(Outer, Context.map());
    if (!W || !W->mask() || W->mask()->IgnoreParenImpCasts() != Inner.Call)
      return false;
    const WarpCallDecision *D = Planner.decisionFor(*W);
    return D && rewritesCalls(D->Entry) && isDrop(D->Action);
  }

  /// The target declares the call's function only with the entry's guard
  /// macro: defined at the top of the unit (noted once per file).
  void defineGuard(const WarpCall &Call, const ApiEntry &Entry) {
    clang::FileID Main = Context.sourceManager().getMainFileID();
    Context.findingsFor(Main).Edits.push_back(guardDefinition(Context.textOf(Main), Entry.HipGuard));
    const std::string Until =
        Entry.HipGuardUntil ? " (the default from HIP " + Entry.HipGuardUntil->str() + ")" : "";
    reportWave64(Context, Call.NameLoc, WarpSyncCheckId, Severity::Note,
                 "HIP " + Context.options().TargetHip.str() +
                     " declares the *_sync warp functions only when " + Entry.HipGuard +
                     " is defined before <hip/hip_runtime.h> is included" + Until +
                     ": cu2dcu defines it at the top of each unit that calls them");
  }

  /// __syncwarp is renamed by the map, to its shim where the target has
  /// none; on AMD that shim synchronizes the whole wavefront, whatever the
  /// mask (on HIP's NVIDIA path it is CUDA's own, mask and all).
  void reportShimmedSyncWarp(const WarpCall &Call, const MaskInfo &Mask) {
    const ApiEntry *Entry = Context.map().lookup(Call.Name);
    const TranslationOptions &Options = Context.options();
    if (!Entry || !Entry->usesShim(Options.TargetHip) || Mask.isFull())
      return;
    // --strict-masks makes it an error (the call still builds on both platforms).
    reportWave64(Context, Call.NameLoc, WarpSyncCheckId,
                 Options.StrictMasks ? Severity::Error : Severity::Warning,
                 shimmedSyncWarpMessage(Mask.describe(), Options.TargetHip, Entry->Shim));
  }

  /// A full 32-bit literal mask is widened; another 32-bit mask passes
  /// through the entry's mask shim (the Mask32 check reports what it does).
  void editMask(const WarpCallDecision &D) {
    if (!D.Pieces)
      return;
    const WarpCallPieces &P = *D.Pieces;
    if (D.Action == MaskAction::Widen)
      edit(P.File, P.ArgBegin[0], P.ArgEnd[0] - P.ArgBegin[0], "0xffffffffffffffffull",
           "warp-mask", "");
    if (D.Action != MaskAction::Extend)
      return;
    edit(P.File, P.ArgBegin[0], 0, D.maskShim(Context.map()) + "(", ShimCategory, D.Call.Name);
    edit(P.File, P.ArgEnd[0], 0, ")", "warp-mask", "");
  }

  void handle(const WarpCallDecision &D) {
    const WarpCall &Call = D.Call;
    if (D.Entry && D.Entry->needsGuard(Context.options().TargetHip) && D.Pieces &&
        Noted.insert(D.Pieces->File).second)
      defineGuard(Call, *D.Entry);
    if (Call.Fn == WarpFn::SyncWarp)
      return reportShimmedSyncWarp(Call, D.Mask);
    if (!rewritesCalls(D.Entry))
      return editMask(D); // __match_*, __reduce_*, __uni_sync: the API map decides
    if (D.Action == MaskAction::Refuse) {
      reportWave64(Context, Call.NameLoc, WarpSyncCheckId, Severity::Error, refusal(D));
      return;
    }
    if (!D.Pieces)
      return;
    if (D.Action == MaskAction::DropLossy)
      reportWave64(Context, Call.NameLoc, WarpSyncCheckId, Severity::Warning,
                   "'" + Call.Name + "' with lane mask " + D.Mask.describe() + ": HIP " +
                       Context.options().TargetHip.str() + " has only the unmasked '" +
                       legacyHipName(Call, D.Entry) +
                       "', which runs on every active lane of the 64-lane wavefront; the mask "
                       "was dropped. Check that every lane reaching this call is in the mask "
                       "(--strict-masks leaves such calls unchanged)",
                   {}, {}, Wave64Role::TranslationReview);
    if (!D.Legacy)
      return editMask(D);
    writeLegacyCall(D);
  }

  /// Why a call the plan refuses is left unchanged, and what to do instead.
  std::string refusal(const WarpCallDecision &D) {
    const std::string &Name = D.Call.Name;
    const std::string Target = Context.options().TargetHip.str();
    const std::string Legacy = legacyHipName(D.Call, D.Entry);
    if (!D.Pieces)
      return "'" + Name + "' cannot be rewritten: " + D.Why + "; " +
             (D.Legacy ? "HIP " + Target + " has no *_sync warp functions: "
                         "rewrite it by hand with '" + Legacy + "'"
                       : "widen its 32-bit lane mask to 64 bits by hand "
                         "(0xffffffffffffffffull)");
    if (D.Mask.Dependent)
      return "'" + Name + "' with lane mask " + D.Mask.describe() +
             ", which depends on a template parameter that no instantiation here fixes: "
             "HIP " + Target + " has only the unmasked '" + Legacy + "'; left unchanged";
    if (D.Mixed)
      return "'" + Name + "' has a full lane mask in some instantiations or macro "
             "expansions and " + D.Mask.describe() + " in others: HIP " + Target +
             " has only the unmasked '" + Legacy +
             "', so one rewrite cannot serve all of them; left unchanged";
    return "'" + Name + "' with lane mask " + D.Mask.describe() + ": HIP " + Target +
           " has only the unmasked '" + Legacy +
           "', which runs on every active lane of the 64-lane wavefront, so a mask that "
           "may not cover the whole warp cannot be dropped; left unchanged. If every "
           "lane that reaches this call is in the mask, use '" + Legacy +
           "'; otherwise restructure, or target HIP >= 6.2 with a 64-bit mask";
  }

  /// For a target that predates the call's HIP function: the legacy form,
  /// with the lane mask dropped (__activemask() becomes an expression).
  void writeLegacyCall(const WarpCallDecision &D) {
    const WarpCall &Call = D.Call;
    const WarpCallPieces &P = *D.Pieces;
    const std::string Legacy = legacyHipName(Call, D.Entry);
    if (Call.Fn == WarpFn::ActiveMask) {
      if (!isDroppedMask(Call)) // else removed with the mask argument it is
        edit(P.File, P.NameOffset, P.RParenOffset + 1 - P.NameOffset, Legacy, family(Call.Name),
             Call.Name);
      return;
    }
    if (!isDrop(D.Action) || P.ArgBegin.size() < 2)
      return;
    edit(P.File, P.NameOffset, P.NameLength, Legacy, family(Call.Name), Call.Name);
    edit(P.File, P.ArgBegin[0], P.ArgBegin[1] - P.ArgBegin[0], "", "warp-mask", "");
  }

  SourceContext &Context;
  ASTContext &Ast;
  const WarpCallPlanner &Planner;
  std::set<FileID> Noted;
};

} // namespace

void translateWarpIntrinsics(SourceContext &Context, ASTContext &Ast,
                             const WarpCallPlanner &Plan) {
  WarpTranslator(Context, Ast, Plan).run();
}

} // namespace cu2dcu
