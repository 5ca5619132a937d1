// Translates CUDA's warp intrinsics by target HIP version. The rules are the
// map entries' (docs/mapping-schema.md): hip_since is the cut-over, legacy_hip
// what a call becomes before it, mask_shim what a 32-bit mask passes through
// after it. HIP's *_sync warp functions arrived in 6.2 (behind
// HIP_ENABLE_WARP_SYNC_BUILTINS until 7.0) and take a 64-bit lane mask. So:
//  - before: __shfl*_sync(mask, ...) -> __shfl*(...), __ballot_sync(m, p)
//    -> __ballot(p), __any_sync -> __any, __all_sync -> __all,
//    __activemask() -> __ballot(1); __syncwarp is the map's (its shim).
//    The mask is dropped when it provably covers the whole warp (a full
//    32- or 64-bit constant, or __activemask()); any other is dropped with a
//    warning, or under --strict-masks reported (W64-WARP-SYNC, error) and the
//    call left unchanged.
//  - from then on: the calls stay; a full 32-bit mask written in the call is
//    widened to 0xffffffffffffffffull (HIP rejects 32-bit masks), any other
//    32-bit mask passes through the mask shim (cu2dcu_lane_mask).
// A call whose entry has a legacy_hip form is the translator's at every
// target: the name stage (AST and macro bodies alike) leaves its name alone,
// so the translator's findings are the only ones about it.
#pragma once

#include "wave64/WarpAnalysis.h"
#include "wave64/CheckIds.h"
#include "match/SourceContext.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

inline constexpr const char *WarpSyncCheckId = wave64_ids::WarpSync;

/// Where the text of a warp call is written: one buffer (the file, or a macro
/// body) holding the callee name, every argument and the closing parenthesis.
struct WarpCallPieces {
  clang::FileID File;
  unsigned NameOffset = 0, NameLength = 0;
  unsigned RParenOffset = 0;
  std::vector<unsigned> ArgBegin, ArgEnd; // per written argument, [begin, end)
};

/// The pieces of Call, or nothing (with Why) when the call is assembled by
/// macros in a way that a textual rewrite cannot follow.
std::optional<WarpCallPieces> locateWarpCall(const WarpCall &Call, SourceContext &Context,
                                             std::string *Why = nullptr);

/// What the translator does with a call's mask for the target.
/// DropLossy: the mask may not cover the warp, and the target has no *_sync
/// functions: the legacy call runs on every active lane (warned).
/// Extend: a 32-bit mask given to a HIP function that takes a 64-bit one
/// passes through the entry's mask_shim.
enum class MaskAction { None, Drop, DropLossy, Widen, Extend, Refuse };
/// Whether the mask argument is removed (Drop or DropLossy).
bool isDrop(MaskAction A);
/// Entry: the call's map entry, whose hip_since, legacy_hip and mask_shim
/// hold the rules per target; Context: the unit's options and map (the warp
/// roles of the calls in the mask).
MaskAction plannedMaskAction(const WarpCall &Call, const MaskInfo &Mask, const ApiEntry *Entry,
                             const SourceContext &Context, bool Locatable);

/// Whether the target lacks the HIP function of Entry (a warp call's map
/// entry): older than its hip_since, or none at all.
bool predatesHipFunction(const ApiEntry *Entry, const HipVersion &Target);
/// Whether the translator writes calls of Entry's function (name and
/// findings): the map gives it a legacy form (legacy_hip).
bool rewritesCalls(const ApiEntry *Entry);
/// What such a call becomes on a target that predates its HIP function (the
/// entry's legacy_hip: "__shfl_down", "__ballot(1)"); the call's name when the
/// map has none.
std::string legacyHipName(const WarpCall &Call, const ApiEntry *Entry);

/// The translator's decision for one warp call as written. A call in a
/// template stands for all its instantiations, one in a macro body for all its
/// expansions: the mask is dropped (or widened) only when that is right for
/// every one of them.
struct WarpCallDecision {
  WarpCall Call;  // the call as written (a template's pattern)
  const ApiEntry *Entry = nullptr; // its map entry (the rules per target)
  bool Legacy = false; // the target predates its HIP function
  MaskInfo Mask;  // the mask that decided (a partial one when there is one)
  std::optional<WarpCallPieces> Pieces;
  std::string Why; // why Pieces is empty
  MaskAction Action = MaskAction::None;
  bool Mixed = false; // instantiations / expansions disagree
  /// Extend through the lane-group mask shim (WarpNames::LaneGroupMaskShim):
  /// a shuffle's 32-bit mask in a unit that works in 32-lane groups.
  bool GroupMask = false;
  /// The shim an Extend passes the mask through.
  const std::string &maskShim(const ApiMap &Map) const {
    return GroupMask ? Map.warpNames().LaneGroupMaskShim : Entry->MaskShim;
  }
};

/// Decides every warp call of a translation unit: the unit's warp plan, built
/// once (from Analysis, which the checks share), then read by the translator
/// and the checks alike.
class WarpCallPlanner {
public:
  WarpCallPlanner(SourceContext &Context, clang::ASTContext &Ast, WarpAnalysis &Analysis);
  /// The decision for Call's call site, or null outside translated code.
  const WarpCallDecision *decisionFor(const WarpCall &Call) const;
  const std::vector<WarpCallDecision> &decisions() const { return Decisions; }
  /// Whether NameLoc is the name of a call the translator writes
  /// (rewritesCalls): the name stage leaves such a name alone.
  bool rewritesNameAt(clang::SourceLocation NameLoc) const;
  /// The same names as offsets per file, for the lexical pass over macro
  /// bodies.
  const std::map<clang::FileID, std::set<unsigned>> &rewrittenNames() const {
    return RewrittenNames;
  }

private:
  const WarpCallDecision *decisionAt(clang::SourceLocation NameLoc) const;

  SourceContext &Context;
  std::vector<WarpCallDecision> Decisions;
  std::map<std::pair<clang::FileID, unsigned>, size_t> Index;
  std::map<clang::FileID, std::set<unsigned>> RewrittenNames;
};

/// Translates the warp calls of a translation unit as Plan decided them.
void translateWarpIntrinsics(SourceContext &Context, clang::ASTContext &Ast,
                             const WarpCallPlanner &Plan);

} // namespace cu2dcu
