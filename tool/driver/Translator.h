// Runs the pipeline over discovered inputs: parse and match every translation
// unit (in parallel), fall back to the lexical pass where parsing fails, merge
// the edits per file and apply them. Produces one in-memory RunResult that
// the output and report stages read; it writes nothing itself.
#pragma once

#include "core/Options.h"
#include "core/RunResult.h"
#include "discover/InputDiscovery.h"
#include "buildfiles/BuildFiles.h"
#include "driver/TimeReport.h"
#include "driver/UnitStore.h"
#include "mapping/ApiMap.h"
#include "parse/CudaToolchain.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cu2dcu {

struct RunSettings {
  TranslationOptions Translation;
  ModeChoice Mode = ModeChoice::Auto;
  unsigned Jobs = 1;
  /// Each parse runs in a child process that is killed after this many
  /// seconds (or when it crashes); the file is then translated lexically and
  /// the reason recorded. 0: parse in-process, without a limit.
  unsigned ParseTimeoutSeconds = 0;
  /// Units that start with the same #include lines load those headers from a
  /// PCH built once per run (parse/SharedPch.h); the output is the same
  /// without.
  bool SharePch = true;
  /// Called after each parsed translation unit (from worker threads, one call
  /// at a time) with the number done and the number to parse in this wave.
  std::function<void(size_t Done, size_t Total)> OnProgress;
  CudaToolchain Toolchain;
  /// Build files (Makefile, CMake) are translated with these rules; without
  /// them they are copied unchanged.
  const BuildFlagMap *BuildRules = nullptr;
  BuildOptions Build;
  /// The toolchain file that lets CMake's HIP language configure on a
  /// packaged ROCm it does not know (mappings/buildfiles/hip-toolchain.cmake):
  /// written beside a translated CMake project's output, and named by its
  /// configure command. Empty: none.
  std::string HipToolchainFile;
  /// Reuses unit outcomes (--cache, merged shards) and records each one the
  /// run uses; null: every unit is parsed.
  UnitStore *Store = nullptr;
  /// What a unit's key covers besides the unit and the translation options:
  /// the tool's binary and the maps it loaded.
  std::string StoreSalt;
};

/// A CI matrix's share of the work (--shard K/N): the units whose position
/// among the run's units is K-1 modulo N.
struct ShardSpec {
  unsigned Index = 1, Count = 1;
};

RunResult translateAll(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Settings);

/// Parses a shard's units only, into Settings.Store (which must be set);
/// applies and writes nothing. The merge (a run given every shard's units)
/// settles the headers and writes the output.
void parseShard(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Settings,
                ShardSpec Shard);

} // namespace cu2dcu
