// The time each stage of a run took (--time-report). The driver and main fill
// it; driver/TimeReport.h measures and prints it.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace cu2dcu {

enum class Stage {
  Discover, // find inputs, read them, lexical pre-scan for CUDA
  Maps,     // load the YAML API maps
  Pch,      // build the shared precompiled prefixes of this run
  Parse,    // clang: preprocess (with the preprocessor callbacks) and build the AST
  Match,    // AST visitor, checks and lexical fallback
  Rewrite,  // merge and apply the edits
  Write,    // write the output tree
  Report,   // diagnostics, summaries, reports
};
constexpr unsigned StageCount = unsigned(Stage::Report) + 1;
const char *stageName(Stage S);

struct StageTime {
  double Wall = 0;  // seconds
  double Cpu = 0;   // user+sys seconds of the threads that ran the stage
  unsigned Count = 0; // units of work (files, translation units, prefixes)

  StageTime &operator+=(const StageTime &O) {
    Wall += O.Wall;
    Cpu += O.Cpu;
    Count += O.Count;
    return *this;
  }
};

struct StageTimes {
  std::array<StageTime, StageCount> Stages;
  unsigned PchUnits = 0;    // units parsed with a shared PCH
  unsigned PchRejected = 0; // units whose parse with a PCH was redone without it
  unsigned ReusedUnits = 0; // units whose outcome came from the cache or a shard
  std::vector<std::string> Notes; // why a PCH was not built or not used
  StageTime &operator[](Stage S) { return Stages[unsigned(S)]; }
  const StageTime &operator[](Stage S) const { return Stages[unsigned(S)]; }
};

} // namespace cu2dcu
