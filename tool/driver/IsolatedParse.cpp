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
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cu2dcu {

namespace {

/// A forked process that runs work items one after another: the parent
/// writes an item's index to Command; the worker writes the item's stderr,
/// then Marker to stderr, and the item's result, framed by its length, to
/// the result stream. Keeping a worker for many items spares each parse a
/// fresh address space (a third of the CPU time went to page faults).
struct Worker {
  pid_t Pid = -1;
  int Command = -1;
  int FD[2] = {-1, -1}; // the results, the worker's stderr
  std::optional<size_t> Item; // the item it works on
  std::chrono::steady_clock::time_point Deadline;
  std::string Data[2];
};

/// Ends an item's stderr; diagnostics never hold a NUL.
const std::string Marker("\0cu2dcu-item-end\0", 17);

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

/// The wall-clock backstop for an item that blocks without using CPU time
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

bool readAll(int FD, void *Into, size_t Size) {
  char *At = static_cast<char *>(Into);
  for (size_t Done = 0; Done < Size;) {
    ssize_t N = ::read(FD, At + Done, Size - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += size_t(N);
  }
  return true;
}

/// Gives the next item TimeoutSeconds of CPU time on top of what the worker
/// has used. CPU time, not wall time, decides: a loaded machine must not turn
/// a slow parse into a fallback (the output would depend on the load).
void limitCpu(unsigned TimeoutSeconds) {
  struct rusage Used;
  ::getrusage(RUSAGE_SELF, &Used);
  rlim_t Spent = rlim_t(Used.ru_utime.tv_sec + Used.ru_stime.tv_sec) + 1;
  struct rlimit Limit;
  ::getrlimit(RLIMIT_CPU, &Limit);
  Limit.rlim_cur = Spent + TimeoutSeconds;
  if (Limit.rlim_max != RLIM_INFINITY && Limit.rlim_cur > Limit.rlim_max)
    Limit.rlim_cur = Limit.rlim_max;
  ::setrlimit(RLIMIT_CPU, &Limit);
}

/// In the worker: runs the items the parent sends until it closes Command;
/// never returns.
[[noreturn]] void serve(int Command, int Out, int Err, unsigned TimeoutSeconds,
                        const std::function<std::string(size_t)> &Work,
                        const std::function<std::string(size_t)> &Name) {
  // The parent decides what of the worker's stderr the user sees (a crash's
  // stack dump is thousands of lines; its location is kept).
  ::dup2(Err, STDERR_FILENO);
  ::close(Err);
  if (TimeoutSeconds > 0)
    ::signal(SIGXCPU, SIG_DFL); // no stack dump: it is a timeout, not a crash
  uint64_t Item;
  while (readAll(Command, &Item, sizeof Item)) {
    if (TimeoutSeconds > 0)
      limitCpu(TimeoutSeconds);
    std::string Fault = fault::injected("parse", Name(Item));
    if (Fault == "hang")
      while (true)
        ::pause();
    if (Fault == "crash") {
      ::signal(SIGSEGV, SIG_DFL);
      ::raise(SIGSEGV);
    }
    std::string Result = Work(Item);
    writeAll(STDERR_FILENO, Marker);
    uint64_t Size = Result.size();
    writeAll(Out, std::string(reinterpret_cast<const char *>(&Size), sizeof Size) + Result);
  }
  _exit(0); // no atexit handlers, no flushing of the parent's buffers
}

/// Forks a worker with a pipe for its items, one for its results and one for
/// its stderr; false (Failure set) when that is not possible. The worker
/// closes its copies of the other workers' pipes, so that each sees the end
/// of its items when the parent closes them.
bool startWorker(unsigned TimeoutSeconds, const std::function<std::string(size_t)> &Work,
                 const std::function<std::string(size_t)> &Name, std::vector<Worker> &Running,
                 std::string &Failure) {
  // The items go through a socket: the parent's send() to a worker that is
  // gone fails with EPIPE instead of raising SIGPIPE.
  int Pipes[3][2];
  for (int P = 0; P < 3; ++P)
    if ((P == 0 ? ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pipes[P])
                : ::pipe2(Pipes[P], O_CLOEXEC)) != 0) {
      Failure = std::string("cannot create a pipe: ") + std::strerror(errno);
      for (int Q = 0; Q < P; ++Q)
        ::close(Pipes[Q][0]), ::close(Pipes[Q][1]);
      return false;
    }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    Failure = std::string("cannot start the parser process: ") + std::strerror(errno);
    for (auto &Pipe : Pipes)
      ::close(Pipe[0]), ::close(Pipe[1]);
    return false;
  }
  if (Pid == 0) {
    for (const Worker &Other : Running)
      for (int FD : {Other.Command, Other.FD[0], Other.FD[1]})
        ::close(FD);
    ::close(Pipes[0][1]), ::close(Pipes[1][0]), ::close(Pipes[2][0]);
    serve(Pipes[0][0], Pipes[1][1], Pipes[2][1], TimeoutSeconds, Work, Name);
  }
  ::close(Pipes[0][0]), ::close(Pipes[1][1]), ::close(Pipes[2][1]);
  Worker W;
  W.Pid = Pid;
  W.Command = Pipes[0][1];
  W.FD[0] = Pipes[1][0];
  W.FD[1] = Pipes[2][0];
  Running.push_back(std::move(W));
  return true;
}

/// Forwards an item's stderr to the user, unless it is a crash's dump.
void forward(IsolatedOutcome &O, const std::string &Stderr, bool Crashed) {
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
}

/// Reaps a worker whose streams ended (or kills it, TimedOut), and tells
/// what became of the item it was on.
IsolatedOutcome finishWorker(Worker &W, bool TimedOut, unsigned TimeoutSeconds) {
  IsolatedOutcome O;
  if (TimedOut)
    ::kill(W.Pid, SIGKILL);
  for (int *FD : {&W.Command, &W.FD[0], &W.FD[1]})
    if (*FD >= 0) {
      ::close(*FD);
      *FD = -1;
    }
  int Status = 0;
  while (::waitpid(W.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  const std::string &Stderr = W.Data[1];
  const bool Crashed = !TimedOut && WIFSIGNALED(Status) && WTERMSIG(Status) != SIGXCPU;
  O.TimedOut = TimedOut || (WIFSIGNALED(Status) && WTERMSIG(Status) == SIGXCPU);
  if (TimedOut) {
    O.Failure = "parsing timed out (no result after " +
                std::to_string(wallLimit(TimeoutSeconds)) + " s)";
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
  if (W.Item)
    forward(O, Stderr, Crashed);
  return O;
}

/// The worker's finished item: its result, once the result and the end of
/// its stderr have both arrived.
std::optional<IsolatedOutcome> finishedItem(Worker &W) {
  size_t End = W.Data[1].find(Marker);
  uint64_t Size = 0;
  if (!W.Item || End == std::string::npos || W.Data[0].size() < sizeof Size)
    return std::nullopt;
  std::memcpy(&Size, W.Data[0].data(), sizeof Size);
  if (W.Data[0].size() < sizeof Size + Size)
    return std::nullopt;
  IsolatedOutcome O;
  O.Ok = true;
  O.Payload = W.Data[0].substr(sizeof Size, Size);
  W.Data[0].erase(0, sizeof Size + Size);
  forward(O, W.Data[1].substr(0, End), /*Crashed=*/false);
  W.Data[1].erase(0, End + Marker.size());
  return O;
}

/// Waits until a worker has output or reaches its wall-clock deadline, and
/// reads what is there; false when poll failed.
bool readWorkers(std::vector<Worker> &Running) {
  std::vector<pollfd> Polls;
  std::vector<std::pair<size_t, int>> Owner; // (worker, stream) of each poll entry
  int Wait = -1;
  auto Now = std::chrono::steady_clock::now();
  for (size_t R = 0; R < Running.size(); ++R) {
    const Worker &W = Running[R];
    for (int K = 0; K < 2; ++K)
      if (W.FD[K] >= 0) {
        Polls.push_back({W.FD[K], POLLIN, 0});
        Owner.push_back({R, K});
      }
    if (W.Item) {
      auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(W.Deadline - Now).count();
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
    Worker &W = Running[Owner[P].first];
    int K = Owner[P].second;
    char Buffer[1 << 16];
    ssize_t N = ::read(W.FD[K], Buffer, sizeof Buffer);
    if (N > 0) {
      W.Data[K].append(Buffer, size_t(N));
    } else if (N == 0 || errno != EINTR) {
      ::close(W.FD[K]); // end of this stream
      W.FD[K] = -1;
    }
  }
  return true;
}

/// Takes the workers' finished items, reaps the workers that died, quit or
/// ran past their item's deadline, and gives the idle ones the next item.
void serviceWorkers(std::vector<Worker> &Running, unsigned TimeoutSeconds,
                    const std::function<void(size_t, IsolatedOutcome)> &Done,
                    const std::function<void(Worker &)> &Dispatch) {
  auto Now = std::chrono::steady_clock::now();
  // Walk backwards: a reaped worker is removed from Running.
  for (size_t R = Running.size(); R-- > 0;) {
    Worker &W = Running[R];
    if (std::optional<IsolatedOutcome> O = finishedItem(W)) {
      size_t Item = *W.Item;
      W.Item.reset();
      Done(Item, std::move(*O));
      Dispatch(W);
      continue;
    }
    const bool Ended = W.FD[0] < 0 && W.FD[1] < 0;
    const bool Late = W.Item && Now >= W.Deadline;
    if (!Ended && !Late)
      continue;
    IsolatedOutcome O = finishWorker(W, /*TimedOut=*/!Ended, TimeoutSeconds);
    if (W.Item)
      Done(*W.Item, std::move(O));
    Running.erase(Running.begin() + R);
  }
}

} // namespace

std::vector<IsolatedOutcome>
runIsolated(size_t Count, unsigned Jobs, unsigned TimeoutSeconds,
            const std::function<std::string(size_t)> &Work,
            const std::function<std::string(size_t)> &Name,
            const std::function<void(size_t)> &OnDone) {
  std::vector<IsolatedOutcome> Outcomes(Count);
  std::vector<Worker> Running;
  size_t Next = 0;
  auto Done = [&](size_t Item, IsolatedOutcome O) {
    Outcomes[Item] = std::move(O);
    if (OnDone)
      OnDone(Item);
  };
  // Give each idle worker the next item; a worker with none left quits.
  auto Dispatch = [&](Worker &W) {
    if (Next == Count) {
      ::close(W.Command);
      W.Command = -1;
      return;
    }
    uint64_t Item = Next++;
    W.Item = Item;
    W.Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wallLimit(TimeoutSeconds));
    // A worker that is gone is reaped by its streams' end; no SIGPIPE here.
    (void)!::send(W.Command, &Item, sizeof Item, MSG_NOSIGNAL);
  };
  while (Next < Count || !Running.empty()) {
    while (Running.size() < std::max(1u, Jobs) && Next < Count) {
      std::string Failure;
      if (!startWorker(TimeoutSeconds, Work, Name, Running, Failure)) {
        IsolatedOutcome O;
        O.Failure = Failure;
        Done(Next++, std::move(O));
        continue;
      }
      Dispatch(Running.back());
    }
    if (!Running.empty() && !readWorkers(Running))
      break; // the loop below reaps
    serviceWorkers(Running, TimeoutSeconds, Done, Dispatch);
  }
  // Only reached early if poll failed: do not leave workers behind.
  while (!Running.empty()) {
    finishWorker(Running.back(), /*TimedOut=*/true, TimeoutSeconds);
    Running.pop_back();
  }
  return Outcomes;
}

} // namespace cu2dcu
