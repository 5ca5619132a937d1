// Stage 5a: writes the output tree. Every file is written to a temporary
// file in its target directory and renamed into place, so a failure never
// leaves a half-written file; permissions follow the input file.
#pragma once

#include "driver/Translator.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct WriteFailure {
  std::string Display;
  std::string Message;
};

/// Writes one file atomically with the given permission bits.
std::string writeFileAtomically(const std::string &Path, const std::string &Content,
                                unsigned Permissions);

/// Writes every non-failed file of the run; returns the failures.
std::vector<WriteFailure> writeOutputs(RunResult &Run);

} // namespace cu2dcu
