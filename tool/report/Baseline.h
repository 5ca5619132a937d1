// Fingerprints of findings and the baseline that accepts known ones, so a CI
// gate fails only on new findings.
//
// A fingerprint hashes the check id, the file (as displayed, relative to the
// input root), the text of the finding's source line with blanks normalised,
// and the finding's index among those sharing the first three. Lines inserted
// or removed elsewhere, re-indentation and message rewording leave it as is;
// editing the line itself, renaming the file or a new identical finding
// earlier in the file change it.
#pragma once

#include "core/RunResult.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

/// One fingerprint per diagnostic of Run, in Run.Diagnostics order.
std::vector<std::string> fingerprintDiagnostics(const RunResult &Run);

struct Baseline {
  std::set<std::string> Fingerprints;
};

/// Reads a baseline written by writeBaseline.
llvm::Expected<Baseline> readBaseline(const std::string &Path);

/// Which findings are new and which the baseline accepts.
struct FindingStates {
  std::vector<std::string> Fingerprints; // parallel to Run.Diagnostics
  std::vector<bool> Baselined;           // parallel; all false without a baseline
  bool HasBaseline = false;
  unsigned BaselinedCount = 0;
  unsigned StaleEntries = 0; // baseline entries no finding of this run matched
  unsigned NewErrors = 0, NewWarnings = 0, NewNotes = 0;
};

FindingStates classifyFindings(const RunResult &Run, const Baseline *Known);

/// Writes every finding of Run (accepted or new) as a baseline file.
llvm::Error writeBaseline(const std::string &Path, const RunResult &Run,
                          const FindingStates &States, const std::string &ToolVersion);

} // namespace cu2dcu
