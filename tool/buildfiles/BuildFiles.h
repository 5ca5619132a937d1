// The public entry point of build-file translation: which files are build
// files, and their translation. The driver reads the map once
// (mappings/buildfiles/) and calls translateBuildFile for each build file.
#pragma once

#include "buildfiles/BuildFlagMap.h"
#include "buildfiles/BuildTranslation.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace cu2dcu {

/// Makefile, makefile, GNUmakefile, *.mk -> Makefile; CMakeLists.txt,
/// *.cmake -> CMake; compile_commands.json -> CompileDatabase; anything
/// else -> none.
std::optional<BuildFileKind> classifyBuildFile(llvm::StringRef Path);

/// Translates one build file's text. DisplayPath names it in the findings.
BuildTranslation translateBuildFile(BuildFileKind Kind, llvm::StringRef Text,
                                    llvm::StringRef DisplayPath, const BuildFlagMap &Map,
                                    const BuildOptions &Opts);

} // namespace cu2dcu
