#include "discover/InputDiscovery.h"
#include "core/Paths.h"

#include "core/FaultInjection.h"
#include "discover/BuildDatabase.h"
#include "discover/ProjectHeaders.h"
#include "discover/IncludeFallback.h"
#include "parse/CompileFlags.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

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

/// canonical() of many paths in few folders: a folder is resolved once, and
/// a path that is no link itself is its folder's canonical path and its name.
class CanonicalPaths {
public:
  std::string of(const std::string &P) {
    llvm::SmallString<256> Abs(P);
    fs::make_absolute(Abs);
    path::remove_dots(Abs, /*remove_dot_dot=*/true);
    llvm::StringRef Parent = path::parent_path(Abs);
    fs::file_status Status;
    const bool Link = !fs::status(Abs, Status, /*Follow=*/false) &&
                      Status.type() == fs::file_type::symlink_file;
    if (Parent.empty() || Link)
      return canonical(Abs.str().str());
    auto [It, New] = Folders.try_emplace(Parent);
    if (New)
      It->second = canonical(Parent.str());
    return joinPath(It->second, path::filename(Abs));
  }

private:
  llvm::StringMap<std::string> Folders;
};

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

/// Files of our own that are never inputs of an --in-place run: backups and
/// temporaries of an interrupted write.
bool isOwnFile(llvm::StringRef Name) {
  return Name.ends_with(BackupSuffix) ||
         (Name.ends_with(".tmp") && Name.contains(".cu2dcu-"));
}

llvm::Error walkDirectory(const std::string &Dir, const std::string &Exclude, bool InPlace,
                          std::vector<std::string> &Out, std::vector<std::string> &SkippedPaths,
                          std::vector<std::string> &SkippedWhy) {
  std::error_code EC;
  auto Skip = [&](const std::string &Path, const std::string &Why) {
    SkippedPaths.push_back(Path);
    SkippedWhy.push_back(Why);
  };
  for (fs::recursive_directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    auto Status = It->status();
    if (!Status) {
      Skip(It->path(), "cannot read: " + Status.getError().message());
      continue;
    }
    if (Status->type() == fs::file_type::directory_file) {
      if (llvm::is_contained(SkippedDirectories, Name) ||
          (!Exclude.empty() && canonical(It->path()) == Exclude))
        It.no_push();
      continue;
    }
    if (InPlace && isOwnFile(Name))
      continue;
    if (Status->type() == fs::file_type::symlink_file) {
      // Follow links to files only; a link to a directory could loop.
      fs::file_status Target;
      if (std::error_code LinkEC = fs::status(It->path(), Target)) {
        Skip(It->path(), LinkEC == std::errc::too_many_symbolic_link_levels
                             ? "symbolic link loop"
                             : "broken symbolic link: " + LinkEC.message());
        continue;
      }
      if (Target.type() == fs::file_type::directory_file) {
        Skip(It->path(), "symbolic link to a directory (not followed)");
        continue;
      }
      if (Target.type() != fs::file_type::regular_file) {
        Skip(It->path(), "symbolic link to something that is not a regular file");
        continue;
      }
    } else if (Status->type() != fs::file_type::regular_file) {
      Skip(It->path(), "not a regular file (FIFO, socket or device)");
      continue;
    }
    Out.push_back(It->path());
  }
  if (EC)
    return inputError("cannot walk '" + Dir + "': " + EC.message());
  return llvm::Error::success();
}

/// The portable flags the database gives File, paths made absolute against
/// the command's directory.
std::vector<std::string> databaseFlags(const clang::tooling::CompilationDatabase &Database,
                                       const std::string &File, const NvccOptionNames &Nvcc) {
  auto Commands = Database.getCompileCommands(File);
  if (Commands.empty())
    return {};
  return portableCompileFlags(Commands.front().CommandLine, Commands.front().Directory, Nvcc);
}

/// An input as given: a directory (canonical) or a file (canonical directory
/// and the name as given, so a symlinked file keeps its own name).
llvm::Expected<std::string> resolveInput(const std::string &Input) {
  fs::file_status Link, Target;
  if (std::error_code EC = fs::status(Input, Link, /*follow=*/false))
    return EC == std::errc::no_such_file_or_directory
               ? inputError("input '" + Input + "' does not exist")
               : inputError("input '" + Input + "' cannot be read: " + EC.message());
  if (std::error_code EC = fs::status(Input, Target))
    return inputError("input '" + Input + "' cannot be resolved: " +
                      (EC == std::errc::too_many_symbolic_link_levels ? "symbolic link loop"
                                                                      : EC.message()));
  if (Target.type() == fs::file_type::directory_file)
    return canonical(Input);
  if (Target.type() != fs::file_type::regular_file)
    return inputError("input '" + Input + "' is not a regular file or directory");
  llvm::SmallString<256> Abs(Input);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  std::string Dir = canonical(path::parent_path(Abs).str());
  return joinPath(Dir, path::filename(Abs));
}

/// What -p without inputs ports besides the folders of the database's files:
/// the project headers those files reach and the database itself.
struct DatabaseProject {
  std::vector<std::string> Folders; // of the database's files
  std::vector<ReachedHeader> Headers;
  std::string DatabaseFile; // BuildPath/compile_commands.json, when it is one
};

DatabaseProject findDatabaseProject(const clang::tooling::CompilationDatabase &Database,
                                    const DiscoveryRequest &Request) {
  DatabaseProject Project;
  std::vector<std::string> Sources, SystemRoots;
  std::vector<std::vector<std::string>> Flags;
  for (const std::string &F : Database.getAllFiles()) {
    Sources.push_back(canonical(F));
    Flags.push_back(databaseFlags(Database, F, Request.NvccOptions));
    Project.Folders.push_back(canonical(path::parent_path(F).str()));
  }
  for (const std::string &Root : Request.SystemRoots)
    SystemRoots.push_back(canonical(Root));
  Project.Headers = findProjectHeaders(Sources, Flags, SystemRoots);
  llvm::SmallString<256> File(Request.BuildPath);
  path::append(File, "compile_commands.json");
  if (fs::is_regular_file(File))
    Project.DatabaseFile = canonical(File.str().str());
  return Project;
}

/// The root of a -p port: --root, which must hold the database's files, or
/// the common ancestor of those files and the headers they reach.
llvm::Expected<std::string> projectRoot(const DatabaseProject &Project,
                                        const std::string &GivenRoot) {
  if (GivenRoot.empty()) {
    std::vector<std::string> Folders = Project.Folders;
    for (const ReachedHeader &H : Project.Headers)
      Folders.push_back(path::parent_path(H.Path).str());
    return commonAncestor(Folders);
  }
  if (!fs::is_directory(GivenRoot))
    return inputError("--root '" + GivenRoot + "' is not a directory");
  std::string Root = canonical(GivenRoot);
  for (const std::string &Folder : Project.Folders)
    if (!isInside(Folder, Root))
      return inputError("the database's folder '" + Folder + "' is outside --root '" +
                        GivenRoot + "'");
  return Root;
}

/// A path found and the name it has under the root.
struct FoundPath {
  std::string Path, Display;
};

/// The reached headers under the root (the others are skipped: the project
/// ends at --root) and the database; Includer maps each header to the file
/// whose flags it is parsed with.
void addDatabaseProject(const DatabaseProject &Project, const std::string &Root,
                        std::vector<FoundPath> &Found, llvm::StringMap<std::string> &Includer,
                        std::vector<SkippedInput> &Skipped) {
  auto Relative = [&](const std::string &P) { return P.substr(Root.size() + 1); };
  for (const ReachedHeader &H : Project.Headers) {
    if (!isInside(H.Path, Root)) {
      Skipped.push_back({H.Path, "a header the database's files include, outside --root"});
      continue;
    }
    Found.push_back({H.Path, Relative(H.Path)});
    Includer[H.Path] = H.Includer;
  }
  // A database outside the project is written at the output's root.
  if (!Project.DatabaseFile.empty())
    Found.push_back({Project.DatabaseFile, isInside(Project.DatabaseFile, Root)
                                               ? Relative(Project.DatabaseFile)
                                               : path::filename(Project.DatabaseFile).str()});
}

/// The files under the roots (walked) or the roots themselves, named
/// relative to the discovery's root; what the walk skips goes to Skipped.
llvm::Error findPaths(const std::vector<std::string> &Roots, const std::string &OutputRoot,
                      bool InPlace, Discovery &Result, std::vector<FoundPath> &Found) {
  std::vector<std::string> Paths, SkippedPaths, SkippedWhy;
  for (const std::string &Root : Roots) {
    if (!fs::is_directory(Root))
      Paths.push_back(Root);
    else if (llvm::Error E =
                 walkDirectory(Root, OutputRoot, InPlace, Paths, SkippedPaths, SkippedWhy))
      return E;
  }
  auto DisplayOf = [&](const std::string &P) {
    return llvm::StringRef(P)
        .drop_front(isInside(P, Result.Root) && P != Result.Root ? Result.Root.size() + 1 : 0)
        .str();
  };
  for (size_t I = 0; I < SkippedPaths.size(); ++I)
    Result.Skipped.push_back({DisplayOf(SkippedPaths[I]), SkippedWhy[I]});
  for (const std::string &P : Paths)
    Found.push_back({P, DisplayOf(P)});
  return llvm::Error::success();
}

/// The output must not lie inside an input, nor an input inside the output.
llvm::Error checkOutputPlacement(const std::vector<std::string> &Roots,
                                 const std::string &OutputRoot, bool SingleFile,
                                 const std::string &Given) {
  if (OutputRoot.empty())
    return llvm::Error::success();
  for (const std::string &Root : Roots) {
    if (SingleFile ? OutputRoot == Root || OutputRoot == canonical(Root)
                   : isInside(OutputRoot, Root))
      return inputError("output '" + Given + "' is inside the input '" + Root +
                        "'; choose an output outside the input tree");
    if (!SingleFile && isInside(Root, OutputRoot))
      return inputError("input '" + Root + "' is inside the output '" + Given + "'");
  }
  return llvm::Error::success();
}

/// Where a found file is written: beside its name under the output folder
/// (or the output file itself for one input), or in place.
llvm::Expected<std::string> outputOf(const FoundPath &P, const std::string &Source,
                                     const std::string &OutputRoot, bool SingleFile,
                                     const DiscoveryRequest &Request, CanonicalPaths &Canonical) {
  if (Request.InPlace)
    return Source;
  if (OutputRoot.empty())
    return "";
  llvm::SmallString<256> Out(OutputRoot);
  if (!SingleFile)
    path::append(Out, P.Display);
  else if (fs::is_directory(OutputRoot))
    path::append(Out, path::filename(P.Path));
  if (Canonical.of(Out.str().str()) == Source)
    return inputError("output '" + Request.Output + "' would overwrite the input '" + P.Path +
                      "'; choose an output outside the input");
  return Out.str().str();
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

namespace {

/// One input per path found (a symlinked file is mirrored under its own
/// name; the same path given twice is one input), with its output and flags.
llvm::Error addInputFiles(const std::vector<FoundPath> &Found,
                          const llvm::StringMap<std::string> &Includer,
                          const clang::tooling::CompilationDatabase *Database,
                          const std::string &OutputRoot, bool SingleFile,
                          const DiscoveryRequest &Request, std::vector<InputFile> &Files) {
  llvm::StringSet<> Seen;
  CanonicalPaths Canonical;
  for (const FoundPath &P : Found) {
    if (!Seen.insert(P.Display).second)
      continue;
    InputFile F;
    F.Source = Canonical.of(P.Path);
    F.Display = P.Display;
    F.Action = isTranslatableName(F.Source) ? FileAction::Translate : FileAction::Copy;
    F.IsHeader = isHeaderName(F.Source);
    auto Output = outputOf(P, F.Source, OutputRoot, SingleFile, Request, Canonical);
    if (!Output)
      return Output.takeError();
    F.Output = std::move(*Output);
    F.CompileFlags = Request.ExtraArgs;
    if (Database) {
      auto It = Includer.find(F.Source);
      auto Flags = databaseFlags(*Database, It == Includer.end() ? F.Source : It->second,
                                 Request.NvccOptions);
      F.CompileFlags.insert(F.CompileFlags.begin(), Flags.begin(), Flags.end());
    }
    Files.push_back(std::move(F));
  }
  return llvm::Error::success();
}

/// Without a database, a source's includes that only the input tree holds
/// are searched there (IncludeFallback.h).
void addTreeIncludeFallbacks(const std::vector<std::string> &SystemRoots,
                             std::vector<InputFile> &Files) {
  std::vector<std::string> Headers;
  for (const InputFile &F : Files)
    if (F.IsHeader)
      Headers.push_back(F.Source);
  if (Headers.empty())
    return;
  TreeHeaders Tree(Headers);
  for (InputFile &F : Files)
    if (F.Action == FileAction::Translate && !F.IsHeader) {
      std::vector<std::string> IncludeDirs;
      forEachPathFlag(F.CompileFlags, [&](PathFlag Kind, llvm::StringRef Dir) {
        if (Kind == PathFlag::Include)
          IncludeDirs.push_back(Dir.str());
      });
      llvm::append_range(F.CompileFlags, Tree.fallbackFlags(F.Source, IncludeDirs, SystemRoots));
    }
}

} // namespace

llvm::Expected<Discovery> discoverInputs(const DiscoveryRequest &Request) {
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!Request.BuildPath.empty()) {
    std::string Error;
    Database = loadBuildDatabase(Request.BuildPath, Error);
    if (!Database)
      return inputError("no compilation database in '" + Request.BuildPath + "': " + Error);
  }

  std::vector<std::string> Roots;
  for (const std::string &Input : Request.Inputs) {
    auto Root = resolveInput(Input);
    if (!Root)
      return Root.takeError();
    Roots.push_back(*Root);
  }
  std::optional<DatabaseProject> Project;
  if (Roots.empty() && Database) {
    Project = findDatabaseProject(*Database, Request);
    Roots = Project->Folders;
  }
  if (Roots.empty())
    return inputError("no input: give files or directories, or -p with a compile_commands.json");
  if (!Request.Root.empty() && !Project)
    return inputError("--root is the project root of -p without inputs");

  const bool SingleFile = Request.Inputs.size() == 1 && !fs::is_directory(Roots.front());
  Discovery Result;
  if (Project) {
    auto Root = projectRoot(*Project, Request.Root);
    if (!Root)
      return Root.takeError();
    Result.Root = *Root;
  } else {
    Result.Root = SingleFile ? path::parent_path(Roots.front()).str() : commonAncestor(Roots);
  }
  std::string OutputRoot =
      Request.Output.empty() || Request.InPlace ? "" : canonical(Request.Output);
  if (llvm::Error E = checkOutputPlacement(Roots, OutputRoot, SingleFile, Request.Output))
    return E;
  if (!SingleFile)
    Result.OutputRoot = Request.InPlace ? Result.Root : OutputRoot;

  std::vector<FoundPath> Found;
  llvm::StringMap<std::string> Includer; // -p: a header's flags are its includer's
  if (llvm::Error E = findPaths(Roots, OutputRoot, Request.InPlace, Result, Found))
    return E;
  if (Project)
    addDatabaseProject(*Project, Result.Root, Found, Includer, Result.Skipped);
  std::sort(Result.Skipped.begin(), Result.Skipped.end(),
            [](const SkippedInput &A, const SkippedInput &B) { return A.Display < B.Display; });
  if (llvm::Error E = addInputFiles(Found, Includer, Database.get(), OutputRoot, SingleFile,
                                    Request, Result.Files))
    return E;
  if (!Database)
    addTreeIncludeFallbacks(Request.SystemRoots, Result.Files);
  std::sort(Result.Files.begin(), Result.Files.end(),
            [](const InputFile &A, const InputFile &B) { return A.Display < B.Display; });
  return Result;
}

} // namespace cu2dcu

namespace cu2dcu {

llvm::Expected<std::string> readInputFile(const std::string &Path) {
  auto Fail = [&](int Errno) {
    return llvm::createStringError(std::error_code(Errno, std::generic_category()),
                                   "cannot read: %s", std::strerror(Errno));
  };
  if (int Injected = fault::injectedErrno("read", Path))
    return Fail(Injected);
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (FD < 0)
    return Fail(errno);
  struct stat St;
  if (::fstat(FD, &St) != 0) {
    int E = errno;
    ::close(FD);
    return Fail(E);
  }
  if (!S_ISREG(St.st_mode)) {
    ::close(FD);
    return llvm::createStringError(std::make_error_code(std::errc::invalid_argument),
                                   "cannot read: not a regular file");
  }
  std::string Text;
  if (St.st_size > 0)
    Text.reserve(size_t(St.st_size));
  char Buffer[1 << 16];
  while (true) {
    ssize_t N = ::read(FD, Buffer, sizeof Buffer);
    if (N == 0)
      break;
    if (N < 0) {
      if (errno == EINTR)
        continue;
      int E = errno;
      ::close(FD);
      return Fail(E);
    }
    Text.append(Buffer, size_t(N));
  }
  ::close(FD);
  return Text;
}

} // namespace cu2dcu
