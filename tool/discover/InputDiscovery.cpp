#include "discover/InputDiscovery.h"

#include "parse/CudaToolchain.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace cu2dcu {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

const char *const SourceExtensions[] = {".cu", ".cpp", ".cc", ".cxx", ".c"};
const char *const HeaderExtensions[] = {".cuh", ".h", ".hpp", ".hh", ".inl"};
const char *const SkippedDirectories[] = {".git", ".hg", ".svn"};

llvm::Error inputError(const llvm::Twine &Message) {
  return llvm::createStringError(std::make_error_code(std::errc::invalid_argument), Message);
}

/// Absolute, normalised path; resolves symlinks of the longest existing prefix
/// so that paths that do not exist yet (the output) compare correctly.
std::string canonical(const std::string &P) {
  llvm::SmallString<256> Abs(P);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Existing(Abs), Rest;
  while (!Existing.empty() && !fs::exists(Existing)) {
    llvm::SmallString<256> Tail(path::filename(Existing));
    if (!Rest.empty())
      path::append(Tail, Rest);
    Rest = Tail;
    path::remove_filename(Existing);
  }
  llvm::SmallString<256> Real;
  if (Existing.empty() || fs::real_path(Existing, Real))
    return Abs.str().str();
  if (!Rest.empty())
    path::append(Real, Rest);
  return Real.str().str();
}

bool isInside(const std::string &Child, const std::string &Parent) {
  return Child == Parent ||
         (Child.size() > Parent.size() && Child.compare(0, Parent.size(), Parent) == 0 &&
          Child[Parent.size()] == '/');
}

std::string commonAncestor(const std::vector<std::string> &Paths) {
  std::string Common = Paths.front();
  for (const std::string &P : Paths)
    while (!isInside(P, Common))
      Common = path::parent_path(Common).str();
  return Common;
}

llvm::Error walkDirectory(const std::string &Dir, const std::string &Exclude,
                          std::vector<std::string> &Out) {
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    auto Status = It->status();
    if (!Status)
      return inputError("cannot read '" + It->path() + "': " + Status.getError().message());
    if (Status->type() == fs::file_type::directory_file) {
      if (llvm::is_contained(SkippedDirectories, Name) ||
          (!Exclude.empty() && canonical(It->path()) == Exclude))
        It.no_push();
      continue;
    }
    if (Status->type() == fs::file_type::symlink_file) {
      // Follow links to files only; a link to a directory could loop.
      fs::file_status Target;
      if (fs::status(It->path(), Target) || Target.type() != fs::file_type::regular_file)
        continue;
    } else if (Status->type() != fs::file_type::regular_file) {
      continue;
    }
    Out.push_back(It->path());
  }
  if (EC)
    return inputError("cannot walk '" + Dir + "': " + EC.message());
  return llvm::Error::success();
}

} // namespace

bool isHeaderName(const std::string &P) {
  llvm::StringRef Ext = path::extension(P);
  return llvm::is_contained(HeaderExtensions, Ext);
}

bool isTranslatableName(const std::string &P) {
  llvm::StringRef Ext = path::extension(P);
  return isHeaderName(P) || llvm::is_contained(SourceExtensions, Ext);
}

llvm::Expected<Discovery> discoverInputs(const DiscoveryRequest &Request) {
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!Request.BuildPath.empty()) {
    std::string Error;
    Database = clang::tooling::CompilationDatabase::autoDetectFromDirectory(Request.BuildPath, Error);
    if (!Database)
      return inputError("no compilation database in '" + Request.BuildPath + "': " + Error);
  }

  std::vector<std::string> Roots;
  for (const std::string &Input : Request.Inputs) {
    if (!fs::exists(Input))
      return inputError("input '" + Input + "' does not exist");
    Roots.push_back(canonical(Input));
  }
  if (Roots.empty() && Database)
    for (const std::string &F : Database->getAllFiles())
      Roots.push_back(canonical(path::parent_path(F).str()));
  if (Roots.empty())
    return inputError("no input: give files or directories, or -p with a compile_commands.json");

  const bool SingleFile = Request.Inputs.size() == 1 && !fs::is_directory(Roots.front());
  Discovery Result;
  Result.Root = SingleFile ? path::parent_path(Roots.front()).str() : commonAncestor(Roots);

  std::string OutputRoot = Request.Output.empty() ? "" : canonical(Request.Output);
  if (!OutputRoot.empty()) {
    for (const std::string &Root : Roots) {
      if (SingleFile ? OutputRoot == Root : isInside(OutputRoot, Root))
        return inputError("output '" + Request.Output + "' is inside the input '" + Root +
                          "'; choose an output outside the input tree");
      if (!SingleFile && isInside(Root, OutputRoot))
        return inputError("input '" + Root + "' is inside the output '" + Request.Output + "'");
    }
  }

  std::vector<std::string> Paths;
  for (const std::string &Root : Roots) {
    if (fs::is_directory(Root)) {
      if (llvm::Error E = walkDirectory(Root, OutputRoot, Paths))
        return std::move(E);
    } else {
      Paths.push_back(Root);
    }
  }
  llvm::StringSet<> Seen;
  for (const std::string &P : Paths) {
    std::string Source = canonical(P);
    if (!Seen.insert(Source).second)
      continue;
    InputFile F;
    F.Source = Source;
    llvm::SmallString<256> Relative(llvm::StringRef(Source).drop_front(
        isInside(Source, Result.Root) ? Result.Root.size() + 1 : 0));
    F.Display = Relative.str().str();
    F.Action = isTranslatableName(Source) ? FileAction::Translate : FileAction::Copy;
    F.IsHeader = isHeaderName(Source);
    if (!OutputRoot.empty()) {
      if (SingleFile) {
        F.Output = fs::is_directory(OutputRoot)
                       ? (OutputRoot + "/" + path::filename(Source).str())
                       : OutputRoot;
      } else {
        llvm::SmallString<256> Out(OutputRoot);
        path::append(Out, F.Display);
        F.Output = Out.str().str();
      }
    }
    F.CompileFlags = Request.ExtraArgs;
    if (Database) {
      auto Commands = Database->getCompileCommands(Source);
      if (!Commands.empty()) {
        auto Flags = keepPortableFlags(Commands.front().CommandLine);
        // Relative -I paths are relative to the command's directory.
        for (std::string &Flag : Flags)
          if (Flag.rfind("-I", 0) == 0 && Flag.size() > 2 && Flag[2] != '/')
            Flag = "-I" + Commands.front().Directory + "/" + Flag.substr(2);
        F.CompileFlags.insert(F.CompileFlags.begin(), Flags.begin(), Flags.end());
      }
    }
    Result.Files.push_back(std::move(F));
  }
  std::sort(Result.Files.begin(), Result.Files.end(),
            [](const InputFile &A, const InputFile &B) { return A.Display < B.Display; });
  return Result;
}

} // namespace cu2dcu
