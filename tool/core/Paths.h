// Path joining through llvm::sys::path, so that a base with or without a
// trailing separator gives the same path.
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

} // namespace cu2dcu
