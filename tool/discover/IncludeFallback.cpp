#include "discover/IncludeFallback.h"
#include "discover/ProjectHeaders.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

namespace path = llvm::sys::path;

namespace cu2dcu {

namespace {

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
  for (std::string Name : includedNames((*Buffer)->getBuffer().str())) {
    Name = Name.substr(1, Name.size() - 2); // the delimiters
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
