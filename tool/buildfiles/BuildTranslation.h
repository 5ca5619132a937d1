// What translating one build file produces, and the options it takes.
#pragma once

#include "core/Diagnostic.h"
#include "core/Options.h"

#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

enum class BuildFileKind { Makefile, CMake, CompileDatabase };

/// The check id of every build-file finding.
inline constexpr const char *BuildCheckId = "CU2DCU-BUILD";

struct BuildOptions {
  /// AMD GPU targets the output builds for (--offload-arch, repeatable).
  std::vector<std::string> OffloadArchs{DefaultOffloadArch};
  /// Where the tree is written: a compile database's paths under InputRoot
  /// move under OutputRoot (empty: they stay where they are).
  std::string InputRoot, OutputRoot;
  /// The folder of the file being translated: a compile database's relative
  /// "directory" is relative to it (the driver sets it per file).
  std::string Folder;
  /// CUDA sources (absolute paths) that use device code another source
  /// defines: a CMake target built from one gains -fgpu-rdc.
  std::set<std::string> RelocatableUnits;
  /// Libraries that the HIP headers of the translated sources under the
  /// folder need at link time where the CUDA headers needed none (a map
  /// header entry's `link`): link lines and targets gain them.
  std::set<std::string> LinkLibraries;
};

struct BuildTranslation {
  std::string Text;                 // the translated file; equal to the input when nothing changed
  std::vector<Diagnostic> Findings; // CU2DCU-BUILD, in file order
  unsigned Changes = 0;             // edited spans
};

} // namespace cu2dcu
