// Which HIP version the output targets: --hip-version MAJOR.MINOR, a named
// DCU toolkit profile (mappings/profiles/*.yaml), or by default the HIP found
// on this machine, else HIP 5.2 (the oldest HIP the maps are checked against).
#pragma once

#include "mapping/ApiMap.h"

#include <optional>
#include <string>

namespace cu2dcu {

struct HipTarget {
  HipVersion Version;
  std::string How; // "--hip-version 6.2", "profile dtk-25.04", "installed HIP at ...", "default"
};

/// The HIP version declared by hip_version.h under $HIP_PATH, /opt/rocm or /usr.
std::optional<HipTarget> installedHip();

/// Resolves Text (empty: the default). Error is set when Text names neither a
/// version nor a profile, or a profile file is broken.
std::optional<HipTarget> resolveHipTarget(const std::string &Text, const std::string &ProfilesDir,
                                          std::string &Error);

} // namespace cu2dcu
