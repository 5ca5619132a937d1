// Path joining through llvm::sys::path, so that a base with or without a
// trailing separator gives the same path; and containment by components.
#pragma once

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <string>

namespace cu2dcu {

/// Base/Relative (Relative may hold several components: "include/cccl").
inline std::string joinPath(llvm::StringRef Base, llvm::StringRef Relative) {
  llvm::SmallString<256> Path(Base);
  llvm::sys::path::append(Path, Relative);
  return std::string(Path);
}

/// Whether Path is Folder or lies below it, compared by components (/a/bc
/// is not below /a/b).
inline bool isWithin(llvm::StringRef Path, llvm::StringRef Folder) {
  auto P = llvm::sys::path::begin(Path), PathEnd = llvm::sys::path::end(Path);
  for (auto F = llvm::sys::path::begin(Folder), End = llvm::sys::path::end(Folder); F != End;
       ++F, ++P)
    if (P == PathEnd || *P != *F)
      return false;
  return true;
}

} // namespace cu2dcu
