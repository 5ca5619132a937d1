// The single place that decides what a use of a mapped CUDA name becomes:
// an edit, a finding, or both. The AST matchers and the lexical pass both
// call it, so the two modes agree by construction.
#pragma once

#include "core/CheckIds.h"
#include "core/Options.h"
#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include <optional>
#include <set>
#include <string>

namespace cu2dcu {

/// Records the translation of one use of Entry spelled at [Offset, Offset+Length).
void translateUse(const ApiEntry &Entry, unsigned Offset, unsigned Length,
                  const std::string &Text, const std::string &Path,
                  const TranslationOptions &Options, FileFindings &Out);

/// Where __launch_bounds__(maxThreads, minBlocks) is spelled in a file: the
/// macro name (absent where a user macro wraps it), the end of maxThreads and
/// the range of minBlocks.
struct LaunchBoundsSpelling {
  std::optional<ByteRange> Name;
  unsigned MaxThreadsEnd = 0;
  ByteRange MinBlocks;
};

/// CUDA reads minBlocks as resident blocks per SM, HIP on AMD as minimum waves
/// per execution unit, whose register cap can force spills. Where the map
/// gives __launch_bounds__ a shim, the name becomes the shim, which keeps the
/// argument on HIP's NVIDIA path and drops it on AMD; otherwise the argument
/// is removed. Both modes call it.
void translateLaunchBounds(const ApiMap &Map, const LaunchBoundsSpelling &Use,
                           const std::string &Text, const std::string &Path, FileFindings &Out);

/// Records a finding at Offset of Text.
void addFinding(FileFindings &Out, const std::string &Text, const std::string &Path,
                unsigned Offset, const char *CheckId, Severity Level, std::string Message);

/// Translates one #include. HeaderOffset/HeaderLength cover the header name
/// with its delimiters; LineBegin/LineEnd the whole directive line (with its
/// newline), removed when the HIP header is already included.
void translateInclude(const ApiMap &Map, const std::string &Header, unsigned HeaderOffset,
                      unsigned HeaderLength, unsigned LineBegin, unsigned LineEnd,
                      const std::string &Text, const std::string &Path,
                      const TranslationOptions &Options, FileFindings &Out,
                      std::set<std::string> &IncludedHip);

/// nvcc includes cuda_runtime.h in every .cu file it compiles, so CUDA code
/// often includes nothing. For such a file (Path ends in .cu) whose edits do
/// not already include the HIP runtime header, the edit that includes the
/// map's HIP header for cuda_runtime.h: before the first #include outside
/// any #if, else at the top.
std::optional<Edit> implicitRuntimeInclude(const ApiMap &Map, const std::string &Path,
                                           const std::string &Text,
                                           const std::vector<Edit> &Edits);

/// The edit category of a guard macro's definition (guardDefinition).
inline constexpr const char *GuardDefineCategory = "guard-define";

/// The edit that defines Macro at the very top of Text, before any #include,
/// where a unit uses a HIP name its target declares only with that macro
/// (hip_guard: HIP_ENABLE_WARP_SYNC_BUILTINS for the *_sync warp functions
/// of HIP 6.2 to 6.x). Guarded by #ifndef, so a -D on the command line or
/// the same edit from another unit does no harm. The driver merges it with
/// the other insertions at the top (Translator.cpp, addInsertions).
Edit guardDefinition(const std::string &Text, const std::string &Macro);

/// The W64-WARP-SYNC message for a __syncwarp whose mask (MaskDescription)
/// may not cover the warp, where it becomes its shim Shim; both modes use it.
std::string shimmedSyncWarpMessage(const std::string &MaskDescription, const HipVersion &Target,
                                   const std::string &Shim);

/// The edit category of a use renamed to a shim; the edit's text is the shim.
inline constexpr const char *ShimCategory = "shim";

/// Where Edits rename uses to shims: the edit that writes the shims' code
/// into Text, each once, after the last #include outside any #if that comes
/// before the first use (else at the top of the file).
std::optional<Edit> shimDefinitions(const ApiMap &Map, const std::string &Text,
                                    const std::vector<Edit> &Edits);

/// The shim blocks cu2dcu wrote into Text on an earlier run (#ifndef
/// CU2DCU_SHIM_... to its #endif): their NVIDIA branches spell CUDA names
/// on purpose, so nothing in them is translated or reported again.
std::vector<ByteRange> shimBlocks(const std::string &Text);

/// The edit that removes the first `register` keyword (and the blanks after
/// it) in Text[Begin, End): C++17 has no register storage class, and hipcc
/// rejects it under -std=c++17.
std::optional<Edit> registerKeywordRemoval(const std::string &Text, unsigned Begin, unsigned End);

} // namespace cu2dcu
