// Compiler-style diagnostics (file:line:col: severity: message [ID], the
// source line and a caret) and the one-screen summary at the end of a run.
#pragma once

#include "driver/Translator.h"
#include "report/Statistics.h"

#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

void printDiagnostics(const RunResult &Run, llvm::raw_ostream &OS);
void printSummary(const RunResult &Run, const RunStatistics &Stats, llvm::raw_ostream &OS,
                  const std::string &ReportHint);

} // namespace cu2dcu
