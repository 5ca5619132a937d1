// Options that change what a translation produces (not where files go).
#pragma once

#include "mapping/ApiMap.h"

namespace cu2dcu {

struct TranslationOptions {
  /// HIP version the output must build with; APIs newer than it are reported.
  HipVersion TargetHip{5, 2};
  /// Keep kernel<<<...>>>(...) instead of hipLaunchKernelGGL.
  bool KeepLaunchSyntax = false;
  /// Apply the fixes that wave64 checks mark as safe.
  bool FixWave64 = false;
};

} // namespace cu2dcu
