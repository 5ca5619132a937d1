// compile_commands.json of the translated tree: every command compiles the
// translated file where it is written. nvcc commands become hipcc commands
// by the same flag rules as Makefiles (nvcc-flags.yaml, libraries.yaml,
// toolkit-paths.yaml), and the paths the commands name move from the input
// tree to the output tree (compile-database.yaml).
#pragma once

#include "buildfiles/BuildFlagMap.h"
#include "buildfiles/BuildTranslation.h"

#include "llvm/ADT/StringRef.h"

namespace cu2dcu {

/// Reads the database through clang's JSONCompilationDatabase (both the
/// "command" and the "arguments" forms) and writes it with llvm::json, each
/// entry with "directory", "file", "arguments" and, when given, "output".
/// A file clang cannot read as a database stays as written, with a finding.
BuildTranslation translateCompileDatabase(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                          const BuildFlagMap &Map, const BuildOptions &Opts);

} // namespace cu2dcu
