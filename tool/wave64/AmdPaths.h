// Projects that carry their own AMD path. Real code often keeps a wave64
// branch of its own: `#if defined(__HIP_PLATFORM_AMD__) ... kWarpSize = 64
// #else ... 32 #endif`, or one behind a project macro (`#ifdef USE_ROCM`).
// The checks parse the CUDA view, where the 32 branch is live; the port is
// compiled by HIP, which decides such branches differently. This judges each
// W64 finding by the code the port actually compiles.
#pragma once

#include "core/Diagnostic.h"
#include "mapping/ApiMap.h"

#include <string>
#include <vector>

namespace cu2dcu {

/// A preprocessor branch of a file, as a HIP compile for AMD GPUs sees it.
struct AmdPathBranch {
  unsigned Begin = 0, End = 0; // the branch's lines, after its directive
  /// A HIP compile for AMD GPUs never compiles it (decided by
  /// WarpNames::AmdCompileMacros alone).
  bool NotCompiled = false;
  /// A project macro (WarpNames::AmdSwitchNames) whose definition removes the
  /// branch: the project's own AMD path; empty when there is none.
  std::string SwitchMacro;
};

/// The branches of Text's #if / #ifdef / #ifndef / #elif / #else chains that
/// a HIP compile for AMD GPUs drops, or that a project macro would drop. One
/// pass over the raw tokens; conditions are evaluated with three values
/// (macros neither list decides are unknown).
std::vector<AmdPathBranch> amdPathBranches(const std::string &Text, const WarpNames &Names);

/// Drops the W64 findings of File that lie in a branch the port never
/// compiles (with the uses folded into them), and tells those in a branch
/// that a project macro removes which macro selects the project's own AMD
/// path.
void judgeByAmdPaths(std::vector<Diagnostic> &Diagnostics, const std::string &File,
                     const std::string &Text, const WarpNames &Names);

} // namespace cu2dcu
