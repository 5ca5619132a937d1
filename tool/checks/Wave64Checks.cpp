// The registry of wave64 checks. One check per file; each file defines a
// factory declared here. Ids are stable: reports, suppressions and the docs
// under docs/checks/ refer to them.
#include "checks/Wave64Check.h"

namespace cu2dcu {

using CheckFactory = std::unique_ptr<Wave64Check> (*)(Wave64Context &);

std::unique_ptr<Wave64Check> makeLaneMathCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeMask32Check(Wave64Context &);
std::unique_ptr<Wave64Check> makeBallotNarrowCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeShuffleOffsetCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeWarpCountCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeInlinePtxCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeBlockSizeCheck(Wave64Context &);
std::unique_ptr<Wave64Check> makeWarpSyncCheck(Wave64Context &);

Wave64Checks::Wave64Checks(Wave64Context &Shared, clang::ast_matchers::MatchFinder &Finder) {
  static const CheckFactory Factories[] = {
      makeLaneMathCheck,  makeMask32Check,     makeBallotNarrowCheck, makeShuffleOffsetCheck,
      makeWarpCountCheck, makeInlinePtxCheck,  makeBlockSizeCheck,     makeWarpSyncCheck,
  };
  for (CheckFactory Make : Factories) {
    Checks.push_back(Make(Shared));
    Checks.back()->registerMatchers(Finder);
  }
}

} // namespace cu2dcu
