#include "report/UnifiedDiff.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cu2dcu {

namespace {

bool writeTemp(const std::string &Content, llvm::SmallVectorImpl<char> &Path) {
  int FD;
  if (llvm::sys::fs::createTemporaryFile("cu2dcu-diff", "txt", FD, Path))
    return false;
  llvm::raw_fd_ostream Out(FD, true);
  Out << Content;
  return !Out.has_error();
}

} // namespace

bool printUnifiedDiffs(const RunResult &Run, llvm::raw_ostream &OS, std::string &Error) {
  auto Diff = llvm::sys::findProgramByName("diff");
  if (!Diff) {
    Error = "--diff needs the 'diff' program (diffutils)";
    return false;
  }
  for (const FileReport &F : Run.Files) {
    if (F.Status != FileStatus::Translated)
      continue;
    llvm::SmallString<128> Before, After, Output;
    if (!writeTemp(F.Original, Before) || !writeTemp(F.Translated, After) ||
        llvm::sys::fs::createTemporaryFile("cu2dcu-diff", "out", Output)) {
      Error = "cannot write temporary files for --diff";
      return false;
    }
    llvm::FileRemover RemoveBefore(Before), RemoveAfter(After), RemoveOutput(Output);
    std::string A = "a/" + F.Input.Display, B = "b/" + F.Input.Display;
    llvm::StringRef Args[] = {*Diff, "-u", "--label", A, "--label", B, Before, After};
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Output),
                                                  std::nullopt};
    int Rc = llvm::sys::ExecuteAndWait(*Diff, Args, std::nullopt, Redirects);
    if (Rc != 0 && Rc != 1) {
      Error = "diff failed on " + F.Input.Display;
      return false;
    }
    if (auto Text = llvm::MemoryBuffer::getFile(Output))
      OS << (*Text)->getBuffer();
  }
  return true;
}

} // namespace cu2dcu
