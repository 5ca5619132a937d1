// Per-stage timing for --time-report. Each stage accumulates elapsed time and
// the CPU time of the thread that ran it; the per-unit stages (parse, match)
// run on the worker threads, so their sums are thread-seconds and may exceed
// the run's elapsed time with -j > 1. The driver fills the stages it runs;
// main fills discover, maps, write and report.
#pragma once

#include "llvm/Support/raw_ostream.h"

#include <array>
#include <chrono>
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
  std::vector<std::string> Notes; // why a PCH was not built or not used
  StageTime &operator[](Stage S) { return Stages[unsigned(S)]; }
  const StageTime &operator[](Stage S) const { return Stages[unsigned(S)]; }
};

/// CPU time (user+sys) of the calling thread, in seconds.
double threadCpuSeconds();

/// Measures one stretch of work on the calling thread:
///   StageClock C; ...; Times[Stage::Parse] += C.stop(1);
class StageClock {
public:
  StageClock() : Start(std::chrono::steady_clock::now()), CpuStart(threadCpuSeconds()) {}
  StageTime stop(unsigned Count = 1) const {
    StageTime T;
    T.Wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    T.Cpu = threadCpuSeconds() - CpuStart;
    T.Count = Count;
    return T;
  }

private:
  std::chrono::steady_clock::time_point Start;
  double CpuStart;
};

/// Prints the table of --time-report: one line per stage, then the process
/// totals (elapsed since Start, user+sys CPU of all threads and of the
/// parser processes, the largest peak RSS of either).
/// The format is read by testsuite/bench/run_bench.py; keep it stable.
void printTimeReport(const StageTimes &Times, unsigned Jobs,
                     std::chrono::steady_clock::time_point Start, llvm::raw_ostream &OS);

} // namespace cu2dcu
