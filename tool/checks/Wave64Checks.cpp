// The registry of wave64 checks. One check per file; each file defines a
// factory declared here. Ids are stable: reports, suppressions and the docs
// under docs/checks/ refer to them.
#include "match/WarpAnalysis.h"
#include "checks/Wave64Check.h"

namespace cu2dcu {

using CheckFactory = std::unique_ptr<Wave64Check> (*)(SourceContext &,
                                                      std::shared_ptr<WarpAnalysis>);

std::unique_ptr<Wave64Check> makeLaneMathCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeMask32Check(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeBallotNarrowCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeShuffleOffsetCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeWarpCountCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeInlinePtxCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeBlockSizeCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);
std::unique_ptr<Wave64Check> makeWarpSyncCheck(SourceContext &, std::shared_ptr<WarpAnalysis>);

std::vector<std::unique_ptr<Wave64Check>> makeWave64Checks(SourceContext &Context) {
  static const CheckFactory Factories[] = {
      makeLaneMathCheck,  makeMask32Check,     makeBallotNarrowCheck, makeShuffleOffsetCheck,
      makeWarpCountCheck, makeInlinePtxCheck,  makeBlockSizeCheck,     makeWarpSyncCheck,
  };
  auto Analysis = std::make_shared<WarpAnalysis>();
  std::vector<std::unique_ptr<Wave64Check>> Checks;
  for (CheckFactory Make : Factories)
    Checks.push_back(Make(Context, Analysis));
  return Checks;
}

} // namespace cu2dcu
