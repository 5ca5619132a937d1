#include "discover/BuildDatabase.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cu2dcu {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

using clang::tooling::CompileCommand;

/// Path made absolute against Base, dots removed, symlinks resolved where it
/// exists (discovery looks files up by their real path).
std::string absoluteIn(llvm::StringRef Base, llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  if (path::is_relative(Path)) {
    Abs = Base;
    path::append(Abs, Path);
  }
  fs::make_absolute(Abs); // a relative base: the current directory's
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  return fs::real_path(Abs, Real) ? Abs.str().str() : Real.str().str();
}

class AbsoluteDatabase : public clang::tooling::CompilationDatabase {
public:
  AbsoluteDatabase(std::unique_ptr<CompilationDatabase> Inner, const std::string &BuildPath)
      : Inner(std::move(Inner)), BuildDir(absoluteIn("", BuildPath)) {
    for (CompileCommand C : this->Inner->getAllCompileCommands()) {
      C = absolute(std::move(C));
      auto &Slot = ByFile[C.Filename];
      if (Slot.empty())
        Files.push_back(C.Filename);
      Slot.push_back(C);
      All.push_back(std::move(C));
    }
  }

  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    auto It = ByFile.find(absoluteIn(BuildDir, File));
    if (It != ByFile.end())
      return It->second;
    // A database that does not list its files (compile_flags.txt) answers
    // for any file.
    std::vector<CompileCommand> Commands = Inner->getCompileCommands(File);
    for (CompileCommand &C : Commands)
      C = absolute(std::move(C));
    return Commands;
  }
  std::vector<std::string> getAllFiles() const override { return Files; }
  std::vector<CompileCommand> getAllCompileCommands() const override { return All; }

private:
  CompileCommand absolute(CompileCommand C) const {
    C.Directory = absoluteIn(BuildDir, C.Directory);
    C.Filename = absoluteIn(C.Directory, C.Filename);
    return C;
  }

  std::unique_ptr<CompilationDatabase> Inner;
  std::string BuildDir;
  llvm::StringMap<std::vector<CompileCommand>> ByFile;
  std::vector<std::string> Files;
  std::vector<CompileCommand> All;
};

} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase> loadBuildDatabase(const std::string &BuildPath,
                                                                       std::string &Error) {
  auto Inner = clang::tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
  if (!Inner)
    return nullptr;
  return std::make_unique<AbsoluteDatabase>(std::move(Inner), BuildPath);
}

} // namespace cu2dcu
