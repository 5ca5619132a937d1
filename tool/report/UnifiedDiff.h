// --diff: a unified diff of every translated file, as `diff -u` prints it.
#pragma once

#include "core/RunResult.h"

#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

/// Returns false (with Error set) when the diff program could not be run.
bool printUnifiedDiffs(const RunResult &Run, llvm::raw_ostream &OS, std::string &Error);

} // namespace cu2dcu
