#include "buildfiles/BuildFiles.h"

#include "buildfiles/CMakeTranslator.h"
#include "buildfiles/CompileDatabase.h"
#include "buildfiles/MakefileTranslator.h"

namespace cu2dcu {

std::optional<BuildFileKind> classifyBuildFile(llvm::StringRef Path) {
  llvm::StringRef Name = Path.substr(Path.find_last_of('/') + 1);
  if (Name == "Makefile" || Name == "makefile" || Name == "GNUmakefile" || Name.ends_with(".mk"))
    return BuildFileKind::Makefile;
  if (Name == "CMakeLists.txt" || Name.ends_with(".cmake"))
    return BuildFileKind::CMake;
  if (Name == "compile_commands.json")
    return BuildFileKind::CompileDatabase;
  return std::nullopt;
}

BuildTranslation translateBuildFile(BuildFileKind Kind, llvm::StringRef Text,
                                    llvm::StringRef DisplayPath, const BuildFlagMap &Map,
                                    const BuildOptions &Opts) {
  switch (Kind) {
  case BuildFileKind::Makefile:
    return translateMakefile(Text, DisplayPath, Map, Opts);
  case BuildFileKind::CMake:
    return translateCMake(Text, DisplayPath, Map, Opts);
  case BuildFileKind::CompileDatabase:
    return translateCompileDatabase(Text, DisplayPath, Map, Opts);
  }
  return {};
}

} // namespace cu2dcu
