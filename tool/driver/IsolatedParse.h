// Runs the parses in child processes, so that a translation unit that makes
// clang hang, crash or run out of stack cannot take the run with it: the
// child is killed after a timeout (or dies), and the driver translates that
// file lexically and records why. A child (a worker) parses one unit after
// another until one kills it; a new worker takes the rest. The workers are
// forked from the calling thread, which must be the only thread (no thread
// pool is running), and send their results back through a pipe (as JSON:
// core/ResultJson.h).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace cu2dcu {

struct IsolatedOutcome {
  bool Ok = false;
  std::string Payload; // what Work returned in the child, when Ok
  std::string Failure; // why not: a timeout, "the parser crashed (signal 11: ...)"
  /// The child exited with a status of its own (not a signal, not our
  /// timeout): in a sanitizer build that is a sanitizer report.
  int ExitStatus = 0;
  bool TimedOut = false; // out of CPU or wall time
};

/// Runs Work(I) for every I in [0, Count) in at most Jobs forked workers,
/// each item with TimeoutSeconds of CPU time (0: no limit) and, for an item
/// that blocks, 3 * TimeoutSeconds + 10 s of wall time. OnDone(I) is
/// called in the parent as each finishes. Honours the test-only
/// CU2DCU_TEST_FAULT=parse:hang|crash:SUBSTRING, matched against Name(I).
std::vector<IsolatedOutcome>
runIsolated(size_t Count, unsigned Jobs, unsigned TimeoutSeconds,
            const std::function<std::string(size_t)> &Work,
            const std::function<std::string(size_t)> &Name,
            const std::function<void(size_t)> &OnDone);

} // namespace cu2dcu
