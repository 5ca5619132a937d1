// Stage 5a: writes the output tree. Every file is written to a temporary
// file in its target directory and renamed into place, so a failure never
// leaves a half-written file; permissions follow the input file.
#pragma once

#include "core/RunResult.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct WriteFailure {
  std::string Display;
  std::string Message;
};

/// Writes one file atomically with the given permission bits: a temporary
/// beside Path, renamed over it. On failure the temporary is removed and Path
/// is as it was. Returns the error message, empty on success. Honours the
/// test-only CU2DCU_TEST_FAULT=create/write/rename:... (core/FaultInjection.h).
std::string writeFileAtomically(const std::string &Path, const std::string &Content,
                                unsigned Permissions);

/// Writes every non-failed file of the run, but leaves an output that holds
/// its content and permissions already as it is; returns the failures.
std::vector<WriteFailure> writeOutputs(RunResult &Run);

/// --in-place: for every file the run changed, writes its backup
/// FILE.cu2dcu-orig (the original bytes and mode), then replaces FILE; both
/// atomically. A file whose backup exists already is refused (its backup
/// holds the true original), and a failed replace removes the new backup.
std::vector<WriteFailure> writeInPlace(RunResult &Run);

struct RestoreResult {
  unsigned Restored = 0;
  std::vector<WriteFailure> Failures;
};

/// --restore: renames every FILE.cu2dcu-orig under Inputs (files or
/// directories) back over FILE.
RestoreResult restoreBackups(const std::vector<std::string> &Inputs);

} // namespace cu2dcu
