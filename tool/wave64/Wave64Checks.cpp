// The registry of wave64 checks. One check per file; each file defines a
// factory declared here. Ids are stable: reports, suppressions and the docs
// under docs/checks/ refer to them.
#include "wave64/Wave64Check.h"
#include "wave64/CheckIds.h"
#include "wave64/WarpAnalysis.h"

namespace cu2dcu {

/// The checks whose findings are about the width a lane grouping numbers.
static bool aboutGroupingWidth(llvm::StringRef Id) {
  return Id == wave64_ids::LaneMath || Id == wave64_ids::WarpCount || Id == wave64_ids::ShuffleOffset ||
         Id == wave64_ids::BlockSize;
}

bool Wave64Check::report(clang::SourceLocation Loc, Severity Level, std::string Message,
                         std::vector<Wave64Fix> Fixes, clang::SourceLocation DefinedAt) {
  if (aboutGroupingWidth(Id) &&
      Shared.Analysis.laneGroupingAt(Shared.Ast, Loc) == LaneGrouping::ConsistentGroups)
    return reportWave64(Shared.Source, Loc, Id, Severity::Note, groupsMessage(Message, ConsistentGroupsReason),
                        {}, DefinedAt, Wave64Role::Assumption, ConsistentGroupsReason);
  return reportWave64(Shared.Source, Loc, Id, Level, std::move(Message), std::move(Fixes),
                      DefinedAt);
}

using CheckFactory = std::unique_ptr<Wave64Check> (*)(Wave64Context &);

std::unique_ptr<Wave64Check> makeLaneMathCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeMask32Check(Wave64Context &);
std::unique_ptr<Wave64Check> makeBallotNarrowCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeShuffleOffsetCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeWarpCountCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeInlinePtxCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeBlockSizeCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeWarpSyncCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeHostWarpSizeCheck(Wave64Context &);

Wave64Checks::Wave64Checks(Wave64Context &Shared, clang::ast_matchers::MatchFinder &Finder) {
  static const CheckFactory Factories[] = {
      makeLaneMathCheck,  makeMask32Check,     makeBallotNarrowCheck, makeShuffleOffsetCheck,
      makeWarpCountCheck, makeInlinePtxCheck,  makeBlockSizeCheck,     makeWarpSyncCheck,
      makeHostWarpSizeCheck,
  };
  for (CheckFactory Make : Factories) {
    Checks.push_back(Make(Shared));
    Checks.back()->registerMatchers(Finder);
  }
}

} // namespace cu2dcu
