// What translating one build file produces, and the options it takes.
#pragma once

#include "core/Diagnostic.h"

#include <string>
#include <vector>

namespace cu2dcu {

enum class BuildFileKind { Makefile, CMake };

/// The check id of every build-file finding.
inline constexpr const char *BuildCheckId = "CU2DCU-BUILD";

struct BuildOptions {
  /// AMD GPU targets the output builds for (--offload-arch, repeatable).
  std::vector<std::string> OffloadArchs{"gfx906"};
};

struct BuildTranslation {
  std::string Text;                 // the translated file; equal to the input when nothing changed
  std::vector<Diagnostic> Findings; // CU2DCU-BUILD, in file order
  unsigned Changes = 0;             // edited spans
};

} // namespace cu2dcu
