// Options that change what a translation produces (not where files go).
#pragma once

#include "core/HipVersion.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

/// The AMD GPU target a port is for unless --offload-arch says otherwise
/// (gfx906: MI50 and Hygon's DCUs).
inline constexpr const char *DefaultOffloadArch = "gfx906";

struct TranslationOptions {
  /// HIP version the output must build with; APIs newer than it are reported.
  HipVersion TargetHip{5, 2};
  /// Keep kernel<<<...>>>(...) instead of hipLaunchKernelGGL.
  bool KeepLaunchSyntax = false;
  /// Apply the fixes that wave64 checks mark as safe.
  bool FixWave64 = false;
  /// Targets without *_sync warp functions: leave a call whose mask may not
  /// cover the whole warp as written (for the compiler to reject) instead of
  /// dropping the mask with a warning.
  bool StrictMasks = false;
  /// AMD GPU targets of the port (--offload-arch): a library header whose
  /// HIP library has no code for one of them is reported (hip_archs).
  std::vector<std::string> OffloadArchs{DefaultOffloadArch};
  /// Macros the project itself defines (#define NAME in any input file): the
  /// lexical pass does not report them as unmapped CUDA names, and a launch
  /// written as their argument counts as a statement. Filled by the driver.
  std::shared_ptr<const std::set<std::string>> ProjectMacros;
  /// Names that look like CUDA's but that a project file declares (a
  /// cudaCheck helper function): not reported as unmapped by the lexical
  /// pass. Filled by the driver.
  std::shared_ptr<const std::set<std::string>> ProjectNames;
};

} // namespace cu2dcu
