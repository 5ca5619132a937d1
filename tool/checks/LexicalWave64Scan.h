// Token-level wavefront-64 findings for files that have no AST (translated
// lexically). Without types or data flow they are guesses from the spelling:
// each is marked lower confidence (Diagnostic::LowConfidence) and uses the
// id of the AST check that covers the same assumption. docs/checks/README.md
// lists what the scan finds.
#pragma once

#include "core/TranslationResult.h"

#include <string>

namespace cu2dcu {

enum class Wave64Scan {
  /// A file without an AST: everything the spelling shows, low confidence.
  Everything,
  /// A file the AST checks covered: only the definitions of warp sizes and
  /// masks (#define WARP_SIZE 32, FULL_MASK = 0xffffffff), which they report
  /// at the uses; the definition is the line to change.
  Definitions,
};

/// Scans Text for warp-32 assumptions and adds the findings to Out.
void scanWave64Lexically(const std::string &Text, const std::string &Path, FileFindings &Out,
                         Wave64Scan What = Wave64Scan::Everything);

} // namespace cu2dcu
