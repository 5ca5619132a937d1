// Per-stage timing for --time-report. Each stage accumulates elapsed time and
// the CPU time of the thread that ran it; the per-unit stages (parse, match)
// run on the worker threads, so their sums are thread-seconds and may exceed
// the run's elapsed time with -j > 1. The driver fills the stages it runs;
// main fills discover, maps, write and report.
#pragma once

#include "core/StageTimes.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>

namespace cu2dcu {

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
