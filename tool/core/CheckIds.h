// Check ids of the translator's own findings (the wave64 checks name theirs
// in checks/). Both modes, the checks and the reports use them.
#pragma once

namespace cu2dcu::check_ids {
inline constexpr const char *Unsupported = "CU2DCU-UNSUPPORTED";
inline constexpr const char *Unmapped = "CU2DCU-UNMAPPED";
inline constexpr const char *HipVersion = "CU2DCU-HIP-VERSION";
inline constexpr const char *Removed = "CU2DCU-REMOVED";
inline constexpr const char *Launch = "CU2DCU-LAUNCH";
inline constexpr const char *ParseFallback = "CU2DCU-PARSE-FALLBACK";
inline constexpr const char *LaunchBounds = "CU2DCU-LAUNCH-BOUNDS";
inline constexpr const char *ApiNote = "CU2DCU-API-NOTE";
inline constexpr const char *Shim = "CU2DCU-SHIM";
inline constexpr const char *HipDeclared = "CU2DCU-HIP-DECLARED";
inline constexpr const char *Rdc = "CU2DCU-RDC";
inline constexpr const char *Collision = "CU2DCU-COLLISION";
inline constexpr const char *Arch = "CU2DCU-ARCH";
inline constexpr const char *Member = "CU2DCU-MEMBER";
} // namespace cu2dcu::check_ids
