#include "driver/IsolatedParse.h"

#include "core/FaultInjection.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cu2dcu {

namespace {

struct Child {
  pid_t Pid = -1;
  int FD[2] = {-1, -1}; // the result, the child's stderr
  size_t Index = 0;
  std::chrono::steady_clock::time_point Deadline;
  bool HasDeadline = false;
  std::string Data[2];
};

void writeAll(int FD, const std::string &Data) {
  for (size_t Done = 0; Done < Data.size();) {
    ssize_t N = ::write(FD, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      _exit(120);
    Done += size_t(N);
  }
}

/// The wall-clock backstop for a child that blocks without using CPU time
/// (an #include of a FIFO, a stuck file system).
unsigned wallLimit(unsigned TimeoutSeconds) { return 3 * TimeoutSeconds + 10; }

/// Where a crash happened, from LLVM's crash report ("1.\t<file:line:col>
/// ...: current parser token"), or "".
/// "file:line:col" from the first entry of LLVM's pretty stack trace, when
/// it names a source location (an entry such as "ASTMatcher: Processing"
/// does not, and is not worth showing).
std::string crashLocation(const std::string &Stderr) {
  size_t At = Stderr.find("\n1.\t");
  if (At == std::string::npos)
    return "";
  llvm::StringRef Entry = llvm::StringRef(Stderr).substr(At + 4);
  Entry = Entry.take_until([](char C) { return C == '\n'; });
  llvm::SmallVector<llvm::StringRef, 4> Match;
  if (!llvm::Regex("^([^: \t]+):([0-9]+):([0-9]+)").match(Entry, &Match))
    return "";
  return Match[0].str();
}

std::string describeStatus(int Status, unsigned TimeoutSeconds) {
  if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    if (Sig == SIGXCPU)
      return "parsing timed out (more than " + std::to_string(TimeoutSeconds) +
             " s of CPU time)";
    const char *Name = strsignal(Sig);
    return "the parser crashed (signal " + std::to_string(Sig) + ": " +
           (Name ? Name : "unknown") + ")";
  }
  if (WIFEXITED(Status))
    return "the parser exited with status " + std::to_string(WEXITSTATUS(Status));
  return "the parser stopped";
}

/// In the child: limits its CPU time, runs Work and writes its result to
/// Out; never returns.
[[noreturn]] void runChild(int Out, int Err, unsigned TimeoutSeconds, const std::string &Name,
                           const std::function<std::string()> &Work) {
  // The parent decides what of the child's stderr the user sees (a crash's
  // stack dump is thousands of lines; its location is kept).
  ::dup2(Err, STDERR_FILENO);
  ::close(Err);
  if (TimeoutSeconds > 0) {
    // CPU time, not wall time, decides: a loaded machine must not turn a
    // slow parse into a fallback (the output would depend on the load).
    struct rlimit Limit;
    Limit.rlim_cur = TimeoutSeconds;
    Limit.rlim_max = TimeoutSeconds + 5;
    ::setrlimit(RLIMIT_CPU, &Limit);
    ::signal(SIGXCPU, SIG_DFL); // no stack dump: it is a timeout, not a crash
  }
  std::string Fault = fault::injected("parse", Name);
  if (Fault == "hang")
    while (true)
      ::pause();
  if (Fault == "crash") {
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
  }
  writeAll(Out, Work());
  ::close(Out);
  _exit(0); // no atexit handlers, no flushing of the parent's buffers
}

/// Forks the child of work item Index with a pipe for its result and one for
/// its stderr; false (Failure set) when that is not possible.
bool startChild(size_t Index, unsigned TimeoutSeconds, const std::string &Name,
                const std::function<std::string()> &Work, std::vector<Child> &Running,
                std::string &Failure) {
  int Out[2], Err[2];
  if (::pipe2(Out, O_CLOEXEC) != 0) {
    Failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  if (::pipe2(Err, O_CLOEXEC) != 0) {
    Failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    ::close(Out[0]);
    ::close(Out[1]);
    return false;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    Failure = std::string("cannot start the parser process: ") + std::strerror(errno);
    for (int FD : {Out[0], Out[1], Err[0], Err[1]})
      ::close(FD);
    return false;
  }
  if (Pid == 0) {
    ::close(Out[0]);
    ::close(Err[0]);
    runChild(Out[1], Err[1], TimeoutSeconds, Name, Work);
  }
  ::close(Out[1]);
  ::close(Err[1]);
  Child C;
  C.Pid = Pid;
  C.FD[0] = Out[0];
  C.FD[1] = Err[0];
  C.Index = Index;
  C.HasDeadline = TimeoutSeconds > 0;
  C.Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wallLimit(TimeoutSeconds));
  Running.push_back(std::move(C));
  return true;
}

/// Reaps a child whose streams ended (or kills it, TimedOut) and tells what
/// it produced; its stderr is forwarded unless it is a crash's dump.
IsolatedOutcome finishChild(Child &C, bool TimedOut, unsigned TimeoutSeconds) {
  IsolatedOutcome O;
  if (TimedOut)
    ::kill(C.Pid, SIGKILL);
  for (int &FD : C.FD)
    if (FD >= 0) {
      ::close(FD);
      FD = -1;
    }
  int Status = 0;
  while (::waitpid(C.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  const std::string &Stderr = C.Data[1];
  const bool Crashed = !TimedOut && WIFSIGNALED(Status) && WTERMSIG(Status) != SIGXCPU;
  O.TimedOut = TimedOut || (WIFSIGNALED(Status) && WTERMSIG(Status) == SIGXCPU);
  if (TimedOut) {
    O.Failure = "parsing timed out (no result after " +
                std::to_string(wallLimit(TimeoutSeconds)) + " s)";
  } else if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0) {
    O.Ok = true;
    O.Payload = std::move(C.Data[0]);
  } else {
    O.Failure = describeStatus(Status, TimeoutSeconds);
    if (Crashed) {
      std::string Where = crashLocation(Stderr);
      if (!Where.empty())
        O.Failure += " at " + Where;
    }
    if (WIFEXITED(Status))
      O.ExitStatus = WEXITSTATUS(Status);
  }
#ifdef CU2DCU_SANITIZED
  // A crash that LLVM's handler saw first ("Stack dump:", clang's stack
  // overflow on deeply nested input) ends in the sanitizer's SEGV report
  // and an exit status: contained like any crash. A report without it is
  // a memory or UB error the sanitizers found: it fails the run.
  const bool LlvmCrash = O.ExitStatus && Stderr.find("Stack dump:") != std::string::npos;
  if (LlvmCrash) {
    O.ExitStatus = 0;
    O.Failure = "the parser crashed";
    std::string Where = crashLocation(Stderr);
    if (!Where.empty() && Where.find("unknown") == std::string::npos)
      O.Failure += " at " + Where;
  }
  const bool Forward = !LlvmCrash && !Crashed; // sanitizer reports must be seen
#else
  const bool Forward = !Crashed; // a crash is summarised in the reason
#endif
  if (Forward && !Stderr.empty())
    (void)!::write(STDERR_FILENO, Stderr.data(), Stderr.size());
  return O;
}

/// Waits until a running child has output or reaches its wall-clock
/// deadline, and reads what is there; false when poll failed.
bool readChildren(std::vector<Child> &Running) {
  std::vector<pollfd> Polls;
  std::vector<std::pair<size_t, int>> Owner; // (child, stream) of each poll entry
  int Wait = -1;
  auto Now = std::chrono::steady_clock::now();
  for (size_t R = 0; R < Running.size(); ++R) {
    const Child &C = Running[R];
    for (int K = 0; K < 2; ++K)
      if (C.FD[K] >= 0) {
        Polls.push_back({C.FD[K], POLLIN, 0});
        Owner.push_back({R, K});
      }
    if (C.HasDeadline) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(C.Deadline - Now).count();
      int Ms = int(std::max<long long>(0, std::min<long long>(Left + 1, 1 << 30)));
      Wait = Wait < 0 ? Ms : std::min(Wait, Ms);
    }
  }
  int Ready = ::poll(Polls.data(), Polls.size(), Wait);
  if (Ready < 0 && errno != EINTR)
    return false; // cannot happen with valid descriptors
  for (size_t P = 0; Ready > 0 && P < Polls.size(); ++P) {
    if (!(Polls[P].revents & (POLLIN | POLLHUP | POLLERR)))
      continue;
    Child &C = Running[Owner[P].first];
    int K = Owner[P].second;
    char Buffer[1 << 16];
    ssize_t N = ::read(C.FD[K], Buffer, sizeof Buffer);
    if (N > 0) {
      C.Data[K].append(Buffer, size_t(N));
    } else if (N == 0 || errno != EINTR) {
      ::close(C.FD[K]); // end of this stream
      C.FD[K] = -1;
    }
  }
  return true;
}

} // namespace

std::vector<IsolatedOutcome>
runIsolated(size_t Count, unsigned Jobs, unsigned TimeoutSeconds,
            const std::function<std::string(size_t)> &Work,
            const std::function<std::string(size_t)> &Name,
            const std::function<void(size_t)> &OnDone) {
  std::vector<IsolatedOutcome> Outcomes(Count);
  std::vector<Child> Running;
  Jobs = std::max(1u, Jobs);
  auto Finish = [&](size_t R, bool TimedOut) {
    size_t Index = Running[R].Index;
    Outcomes[Index] = finishChild(Running[R], TimedOut, TimeoutSeconds);
    if (OnDone)
      OnDone(Index);
    Running.erase(Running.begin() + R);
  };
  size_t Next = 0;
  while (Next < Count || !Running.empty()) {
    while (Running.size() < Jobs && Next < Count) {
      size_t I = Next++;
      if (!startChild(I, TimeoutSeconds, Name(I), [&, I] { return Work(I); }, Running,
                      Outcomes[I].Failure) &&
          OnDone)
        OnDone(I);
    }
    if (Running.empty())
      continue;
    if (!readChildren(Running))
      break; // the loop below reaps
    auto Now = std::chrono::steady_clock::now();
    // Walk backwards: Finish removes the child from Running.
    for (size_t R = Running.size(); R-- > 0;) {
      if (Running[R].FD[0] < 0 && Running[R].FD[1] < 0)
        Finish(R, /*TimedOut=*/false); // both streams ended: the child is done
      else if (Running[R].HasDeadline && Now >= Running[R].Deadline)
        Finish(R, /*TimedOut=*/true);
    }
  }
  // Only reached early if poll failed: do not leave children behind.
  while (!Running.empty())
    Finish(Running.size() - 1, /*TimedOut=*/true);
  return Outcomes;
}

} // namespace cu2dcu
