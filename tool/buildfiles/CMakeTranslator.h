// CMake: the CUDA language, packages, targets, variables and properties
// become CMake's HIP language (CMake >= 3.21) and the ROCm packages
// (docs/build-migration.md says why this form). The file is tokenized into
// commands and arguments; edits touch arguments, never comments or layout.
#pragma once

#include "buildfiles/BuildFlagMap.h"
#include "buildfiles/BuildTranslation.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct CMakeArgument {
  enum Kind { Unquoted, Quoted, Bracket };
  Kind K = Unquoted;
  unsigned Begin = 0, End = 0; // the argument as written, quotes included
  std::string Value;           // without quotes or brackets
};

struct CMakeCommand {
  std::string Name; // as written
  unsigned NameBegin = 0;
  unsigned LineBegin = 0; // start of the line the command starts on
  unsigned End = 0;       // after ')'
  std::vector<CMakeArgument> Args;
};

/// Tokenizes a CMake file (exposed for tests); a command without its ')'
/// ends the list.
std::vector<CMakeCommand> parseCMake(llvm::StringRef Text);

BuildTranslation translateCMake(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                const BuildFlagMap &Map, const BuildOptions &Opts);

} // namespace cu2dcu
