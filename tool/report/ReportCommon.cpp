#include "report/Reports.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
  if (Path == "-") {
    Write(llvm::outs());
    llvm::outs().flush();
    return true;
  }
  // Write beside the target and rename, so a reader never sees half a report.
  llvm::SmallString<256> Temp;
  int FD;
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp)) {
    Error = "cannot write '" + Path + "': " + EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Write(OS);
    OS.close();
    if (OS.has_error()) {
      Error = "cannot write '" + Path + "': " + OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    Error = "cannot write '" + Path + "': " + EC.message();
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace cu2dcu
