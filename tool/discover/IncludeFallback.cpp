#include "discover/IncludeFallback.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace path = llvm::sys::path;

namespace cu2dcu {

namespace {

/// The names of Text's #include directives (both forms), as written.
std::vector<std::string> includeNames(llvm::StringRef Text) {
  static const llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]");
  std::vector<std::string> Names;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 2> Match;
    if (Line.contains("include") && Include.match(Line, &Match))
      Names.push_back(Match[1].str());
  }
  return Names;
}

bool existsUnder(const std::string &Dir, const std::string &Name) {
  llvm::SmallString<256> P(Dir);
  path::append(P, Name);
  return llvm::sys::fs::exists(P);
}

} // namespace

std::vector<std::string> TreeHeaders::fallbackFlags(const std::string &Source,
                                                    const std::vector<std::string> &FlagDirs,
                                                    const std::vector<std::string> &SystemRoots) const {
  auto Buffer = llvm::MemoryBuffer::getFile(Source);
  if (!Buffer)
    return {};
  std::vector<std::string> Searched = {path::parent_path(Source).str()};
  llvm::append_range(Searched, FlagDirs);
  for (const std::string &Root : SystemRoots) {
    llvm::SmallString<256> Include(Root);
    path::append(Include, "include");
    Searched.push_back(Include.str().str());
  }
  std::vector<std::string> Flags;
  std::set<std::string> Added;
  for (const std::string &Name : includeNames((*Buffer)->getBuffer())) {
    if (path::is_absolute(Name) ||
        llvm::any_of(Searched, [&](const std::string &D) { return existsUnder(D, Name); }))
      continue;
    std::set<std::string> Folders;
    for (const std::string &Header : Paths) {
      llvm::StringRef H(Header);
      if (H.size() > Name.size() && H.ends_with(Name) && path::is_separator(H[H.size() - Name.size() - 1]))
        Folders.insert(H.drop_back(Name.size() + 1).str());
    }
    if (Folders.size() == 1 && Added.insert(*Folders.begin()).second) {
      Flags.push_back("-idirafter");
      Flags.push_back(*Folders.begin());
    }
  }
  return Flags;
}

} // namespace cu2dcu
