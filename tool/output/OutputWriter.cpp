#include "output/OutputWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cu2dcu {

namespace fs = llvm::sys::fs;

std::string writeFileAtomically(const std::string &Path, const std::string &Content,
                                unsigned Permissions) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (std::error_code EC = fs::create_directories(Dir))
    return "cannot create directory '" + Dir.str() + "': " + EC.message();
  int FD = -1;
  llvm::SmallString<256> Temp;
  std::string Model = (Path + ".cu2dcu-%%%%%%.tmp");
  if (std::error_code EC = fs::createUniqueFile(Model, FD, Temp))
    return "cannot create a file in '" + Dir.str() + "': " + EC.message();
  std::string Error;
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Content;
    Out.flush();
    if (Out.has_error()) {
      Error = "write failed: " + Out.error().message();
      Out.clear_error();
    }
    Out.close();
    if (Out.has_error()) {
      if (Error.empty())
        Error = "write failed: " + Out.error().message();
      Out.clear_error();
    }
  }
  if (Error.empty())
    if (std::error_code EC = fs::setPermissions(Temp, static_cast<fs::perms>(Permissions)))
      Error = "cannot set permissions: " + EC.message();
  if (Error.empty())
    if (std::error_code EC = fs::rename(Temp, Path))
      Error = "cannot rename into place: " + EC.message();
  if (!Error.empty())
    fs::remove(Temp);
  return Error;
}

std::vector<WriteFailure> writeOutputs(RunResult &Run) {
  std::vector<WriteFailure> Failures;
  for (FileReport &R : Run.Files) {
    if (R.Status == FileStatus::Failed || R.Input.Output.empty())
      continue;
    auto Perms = fs::getPermissions(R.Input.Source);
    unsigned Mode = Perms ? static_cast<unsigned>(*Perms) : 0644;
    std::string Error = writeFileAtomically(R.Input.Output, R.Translated, Mode);
    if (!Error.empty()) {
      R.Status = FileStatus::Failed;
      R.ModeReason = Error;
      Failures.push_back({R.Input.Display, Error});
    }
  }
  return Failures;
}

} // namespace cu2dcu
