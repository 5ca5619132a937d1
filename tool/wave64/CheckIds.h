// The stable ids of the wavefront-64 checks: one place for the checks, the
// lexical scan, the warp translators and the reports. docs/checks/ has a page
// per id; reports, baselines and suppressions refer to them.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace cu2dcu::wave64_ids {
inline constexpr const char *LaneMath = "W64-LANE-MATH";
inline constexpr const char *Mask32 = "W64-MASK32";
inline constexpr const char *BallotNarrow = "W64-BALLOT-NARROW";
inline constexpr const char *ShuffleOffset = "W64-SHFL-OFFSET";
inline constexpr const char *WarpCount = "W64-WARP-COUNT";
inline constexpr const char *InlinePtx = "W64-INLINE-PTX";
inline constexpr const char *BlockSize = "W64-BLOCK-SIZE";
inline constexpr const char *WarpSync = "W64-WARP-SYNC";
inline constexpr const char *HostWarpSize = "W64-HOST-WARP-SIZE";

/// Whether Id is a wavefront-64 check's.
inline bool isWave64(llvm::StringRef Id) { return Id.starts_with("W64-"); }
} // namespace cu2dcu::wave64_ids
