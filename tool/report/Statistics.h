// Numbers derived from one run, shared by the summary and every report format.
#pragma once

#include "core/RunResult.h"

#include <map>
#include <string>

namespace cu2dcu {

struct RunStatistics {
  unsigned Translated = 0, Unchanged = 0, Copied = 0, Failed = 0;
  unsigned AstFiles = 0, RecoveredFiles = 0, LexicalFiles = 0;
  unsigned Launches = 0, Includes = 0, Symbols = 0, ApiRenames = 0;
  unsigned Wave64Fixes = 0, LaunchBoundsRemoved = 0;
  unsigned LinesChanged = 0;
  std::map<std::string, unsigned> RenamesByFamily;
  std::map<std::string, unsigned> RenamesByName;
  std::map<std::string, unsigned> FindingsByCheck;
  unsigned Errors = 0, Warnings = 0, Notes = 0;
  /// Uses of CUDA APIs with no HIP equivalent (CU2DCU-UNSUPPORTED findings).
  unsigned UnsupportedUses = 0;
};

RunStatistics computeStatistics(const RunResult &Run);

} // namespace cu2dcu
