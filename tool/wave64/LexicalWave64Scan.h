// Token-level wavefront-64 findings for files that have no AST (translated
// lexically). Without types or data flow they are guesses from the spelling:
// each is marked lower confidence (Diagnostic::LowConfidence) and uses the
// id of the AST check that covers the same assumption. docs/checks/README.md
// lists what the scan finds.
#pragma once

#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include <string>
#include <vector>

namespace cu2dcu {

enum class Wave64Scan {
  /// A file without an AST: everything the spelling shows, low confidence.
  Everything,
  /// A file the AST checks covered: only the definitions of warp sizes and
  /// masks (#define WARP_SIZE 32, FULL_MASK = 0xffffffff), which they report
  /// at the uses; the definition is the line to change.
  Definitions,
  /// A file the AST checks covered: everything in its device-pass branches
  /// (#ifdef __CUDA_ARCH__), code the host-pass parse skipped; low confidence.
  DevicePass,
};

/// The branches of #if / #ifdef / #elif whose condition is a single macro
/// that only NVIDIA compiles define and that the translation keeps as written
/// (Rules.NvidiaOnlyMacros: __PTX__, __HIP_PLATFORM_NVIDIA__): the AMD
/// compile never sees their code. One pass over the file's raw tokens.
std::vector<ByteRange> nvidiaOnlyBranches(const std::string &Text, const InlinePtxRules &Rules);

/// Scans Text for warp-32 assumptions and adds the findings to Out. Map gives
/// the warp functions, the PTX idioms and the spelling patterns
/// (mappings/device.yaml, mappings/checks/).
void scanWave64Lexically(const std::string &Text, const std::string &Path, const ApiMap &Map,
                         FileFindings &Out, Wave64Scan What = Wave64Scan::Everything);

} // namespace cu2dcu
