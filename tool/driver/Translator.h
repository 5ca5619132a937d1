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
};

RunResult translateAll(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Settings);

} // namespace cu2dcu
