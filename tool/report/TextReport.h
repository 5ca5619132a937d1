// Compiler-style diagnostics (file:line:col: severity: message [ID], the
// source line and a caret) and the one-screen summary at the end of a run.
#pragma once

#include "core/RunResult.h"
#include "report/Statistics.h"

#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

struct FindingStates;

/// Prints every diagnostic at or above MinLevel, except those Hide marks
/// (findings a --baseline accepts); Hide may be null.
void printDiagnostics(const RunResult &Run, llvm::raw_ostream &OS,
                      const std::vector<bool> *Hide = nullptr, Severity MinLevel = Severity::Note);
/// States may be null (no baseline information).
void printSummary(const RunResult &Run, const RunStatistics &Stats, llvm::raw_ostream &OS,
                  const std::string &ReportHint, const FindingStates *States = nullptr);

} // namespace cu2dcu
