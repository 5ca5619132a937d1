#include "report/Reports.h"

#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

const char *failThresholdName(FailThreshold T) {
  switch (T) {
  case FailThreshold::Error:
    return "error";
  case FailThreshold::Warning:
    return "warning";
  case FailThreshold::Note:
    return "note";
  case FailThreshold::Never:
    return "never";
  }
  return "?";
}

GateResult evaluateGate(const RunResult &Run, const FindingStates &States, FailThreshold FailOn,
                        std::optional<unsigned> MaxWarnings) {
  GateResult G;
  G.FailOn = FailOn;
  G.MaxWarnings = MaxWarnings;
  unsigned AtLevel = 0;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    if (States.Baselined[I])
      continue;
    Severity L = Run.Diagnostics[I].Level;
    if ((FailOn == FailThreshold::Error && L == Severity::Error) ||
        (FailOn == FailThreshold::Warning && L != Severity::Note) || FailOn == FailThreshold::Note)
      ++AtLevel;
  }
  std::string New = States.HasBaseline ? "new " : "";
  if (AtLevel)
    G.Reasons.push_back(std::to_string(AtLevel) + " " + New + "finding(s) at or above --fail-on=" +
                        failThresholdName(FailOn));
  if (MaxWarnings && States.NewWarnings > *MaxWarnings)
    G.Reasons.push_back(std::to_string(States.NewWarnings) + " " + New +
                        "warning(s), more than --max-warnings=" + std::to_string(*MaxWarnings));
  G.Failed = !G.Reasons.empty();
  return G;
}

bool writeReportFile(const std::string &Path, llvm::function_ref<void(llvm::raw_ostream &)> Write,
                     std::string &Error) {
  // llvm::writeToOutput writes beside the target and renames, so a reader
  // never sees half a report; "-" is stdout.
  llvm::Error E = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    Write(OS);
    return llvm::Error::success();
  });
  if (Path == "-")
    llvm::outs().flush();
  if (E) {
    Error = "cannot write '" + Path + "': " + llvm::toString(std::move(E));
    return false;
  }
  return true;
}

} // namespace cu2dcu
