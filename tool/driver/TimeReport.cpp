#include "driver/TimeReport.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <ctime>
#include <sys/resource.h>

namespace cu2dcu {

double threadCpuSeconds() {
  timespec T;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T) != 0)
    return 0;
  return double(T.tv_sec) + double(T.tv_nsec) * 1e-9;
}

void printTimeReport(const StageTimes &Times, unsigned Jobs,
                     std::chrono::steady_clock::time_point Start, llvm::raw_ostream &OS) {
  double Elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  // The parses may run in child processes (IsolatedParse.h): count them too.
  rusage Self{}, Children{};
  getrusage(RUSAGE_SELF, &Self);
  getrusage(RUSAGE_CHILDREN, &Children);
  auto Seconds = [](const timeval &T) { return double(T.tv_sec) + double(T.tv_usec) * 1e-6; };
  double User = Seconds(Self.ru_utime) + Seconds(Children.ru_utime);
  double System = Seconds(Self.ru_stime) + Seconds(Children.ru_stime);
  long PeakKiB = std::max(Self.ru_maxrss, Children.ru_maxrss);

  OS << "time report (-j " << Jobs << "; parse and match are summed over jobs)\n";
  OS << llvm::format("  %-10s %7s %10s %10s\n", "stage", "count", "wall-s", "cpu-s");
  for (unsigned I = 0; I < StageCount; ++I) {
    const StageTime &T = Times.Stages[I];
    OS << llvm::format("  %-10s %7u %10.3f %10.3f\n", stageName(Stage(I)), T.Count, T.Wall, T.Cpu);
  }
  OS << llvm::format("  %-10s %7s %10.3f %10.3f  (user %.3f, sys %.3f, peak RSS %.1f MiB)\n",
                     "process", "", Elapsed, User + System, User, System,
                     double(PeakKiB) / 1024.0);
  if (Times[Stage::Pch].Count || Times.PchRejected)
    OS << "  shared PCHs: " << Times[Stage::Pch].Count << " built, " << Times.PchUnits
       << " units parsed with one, " << Times.PchRejected << " parsed again without\n";
  if (Times.ReusedUnits)
    OS << "  reused: " << Times.ReusedUnits << " units from the cache or the shards\n";
  for (const std::string &Note : Times.Notes)
    OS << "  note: " << Note << "\n";
}

} // namespace cu2dcu
