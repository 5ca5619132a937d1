#include "discover/ProjectHeaders.h"

#include "discover/InputDiscovery.h"
#include "parse/CompileFlags.h"

#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cu2dcu {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// The header names of File's #include, #include_next and #import lines, as
/// written with their delimiters ("a.h", <b/c.h>); computed includes
/// (#include MACRO) are not followed.
std::vector<std::string> includedNames(const std::string &Text) {
  llvm::SmallVector<clang::dependency_directives_scan::Token, 64> Tokens;
  llvm::SmallVector<clang::dependency_directives_scan::Directive, 32> Directives;
  std::vector<std::string> Names;
  // The scanner fails only on a malformed file; its includes are then the
  // ones it found, and the parse reports the rest.
  clang::scanSourceForDependencyDirectives(Text, Tokens, Directives);
  for (const auto &D : Directives) {
    if (D.Kind != clang::dependency_directives_scan::pp_include &&
        D.Kind != clang::dependency_directives_scan::pp_include_next &&
        D.Kind != clang::dependency_directives_scan::pp_import)
      continue;
    if (D.Tokens.size() < 3 || D.Tokens[2].Kind != clang::tok::header_name)
      continue;
    Names.push_back(Text.substr(D.Tokens[2].Offset, D.Tokens[2].Length));
  }
  return Names;
}

namespace {

/// Where a command's #include lines are looked up, in the compiler's order.
struct IncludeSearch {
  std::vector<std::string> Quoted; // -iquote, then -I
  std::vector<std::string> Angled; // -I
  std::vector<std::string> Forced; // -include
  std::vector<std::string> System; // -isystem: never the project's
};

/// The path with symlinks resolved, as found headers are; as given when it
/// does not exist.
std::string realOr(const std::string &Path) {
  llvm::SmallString<256> Real;
  return fs::real_path(Path, Real) ? Path : Real.str().str();
}

IncludeSearch searchOf(const std::vector<std::string> &Flags) {
  IncludeSearch S;
  std::vector<std::string> Iquote;
  forEachPathFlag(Flags, [&](PathFlag Kind, llvm::StringRef Value) {
    if (Kind == PathFlag::Include)
      S.Angled.push_back(Value.str());
    else if (Kind == PathFlag::Quote)
      Iquote.push_back(Value.str());
    else if (Kind == PathFlag::Forced)
      S.Forced.push_back(Value.str());
    else
      S.System.push_back(realOr(Value.str()));
  });
  S.Quoted = std::move(Iquote);
  S.Quoted.insert(S.Quoted.end(), S.Angled.begin(), S.Angled.end());
  return S;
}


bool isUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  return Path.starts_with(Dir) && (Path.size() == Dir.size() || Path[Dir.size()] == '/');
}

/// The file a header name denotes, searched as the compiler does, or empty.
std::string resolveInclude(llvm::StringRef Name, llvm::StringRef IncluderDir,
                           const IncludeSearch &Search) {
  if (Name.size() < 3)
    return "";
  bool Quoted = Name.front() == '"';
  llvm::StringRef Spelled = Name.drop_front().drop_back();
  std::vector<std::string> Dirs;
  if (Quoted)
    Dirs.push_back(IncluderDir.str());
  const std::vector<std::string> &Listed = Quoted ? Search.Quoted : Search.Angled;
  Dirs.insert(Dirs.end(), Listed.begin(), Listed.end());
  for (const std::string &Dir : Dirs) {
    llvm::SmallString<256> Candidate(Dir);
    path::append(Candidate, Spelled);
    llvm::SmallString<256> Real;
    if (fs::is_regular_file(Candidate) && !fs::real_path(Candidate, Real))
      return Real.str().str();
  }
  return "";
}

} // namespace

std::vector<ReachedHeader>
findProjectHeaders(const std::vector<std::string> &Sources,
                   const std::vector<std::vector<std::string>> &SourceFlags,
                   const std::vector<std::string> &SystemRoots) {
  llvm::StringSet<> Seen;
  for (const std::string &Source : Sources)
    Seen.insert(Source);
  std::vector<ReachedHeader> Found;
  for (size_t S = 0; S < Sources.size(); ++S) {
    IncludeSearch Search = searchOf(SourceFlags[S]);
    auto IsProjects = [&](llvm::StringRef P) {
      auto Contains = [&](const std::string &Root) { return isUnder(P, Root); };
      return !P.empty() && llvm::none_of(SystemRoots, Contains) &&
             llvm::none_of(Search.System, Contains);
    };
    // Depth first from the source and its forced includes; each file once.
    std::vector<std::string> Pending{Sources[S]};
    for (const std::string &Given : Search.Forced) {
      llvm::SmallString<256> Forced;
      if (!fs::is_regular_file(Given) || fs::real_path(Given, Forced))
        continue; // the parse reports a missing forced include
      if (IsProjects(Forced) && Seen.insert(Forced).second) {
        Found.push_back({Forced.str().str(), Sources[S]});
        Pending.push_back(Forced.str().str());
      }
    }
    while (!Pending.empty()) {
      std::string File = std::move(Pending.back());
      Pending.pop_back();
      auto Text = readInputFile(File);
      if (!Text) {
        llvm::consumeError(Text.takeError());
        continue; // the translation reports a file it cannot read
      }
      for (const std::string &Name : includedNames(*Text)) {
        std::string Header = resolveInclude(Name, path::parent_path(File), Search);
        if (IsProjects(Header) && Seen.insert(Header).second) {
          Found.push_back({Header, Sources[S]});
          Pending.push_back(Header);
        }
      }
    }
  }
  return Found;
}

} // namespace cu2dcu
