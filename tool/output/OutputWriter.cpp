#include "output/OutputWriter.h"

#include "core/Backup.h"
#include "core/FaultInjection.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace cu2dcu {

namespace fs = llvm::sys::fs;

std::string writeFileAtomically(const std::string &Path, const std::string &Content,
                                unsigned Permissions) {
  std::string Dir = llvm::sys::path::parent_path(Path).str();
  if (Dir.empty())
    Dir = ".";
  if (std::error_code EC = fs::create_directories(Dir))
    return "cannot create directory '" + Dir + "': " + EC.message();
  if (!fs::is_directory(Dir))
    return "cannot create directory '" + Dir + "': a file of that name is in the way";
  if (int Injected = fault::injectedErrno("create", Path))
    return "cannot create a file in '" + Dir + "': " + std::strerror(Injected);
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = fs::createUniqueFile(Path + ".cu2dcu-%%%%%%.tmp", FD, Temp))
    return "cannot create a file in '" + Dir + "': " + EC.message();
  std::string Error;
  // A simulated full disk writes half of the content first, as a real one
  // may, so that the clean-up of a partial temporary is exercised.
  const int WriteFault = fault::injectedErrno("write", Path);
  const size_t Limit = WriteFault ? Content.size() / 2 : Content.size();
  for (size_t Written = 0; Written < Limit;) {
    ssize_t N = ::write(FD, Content.data() + Written, Limit - Written);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Error = std::string("write failed: ") + std::strerror(N < 0 ? errno : EIO);
      break;
    }
    Written += size_t(N);
  }
  if (Error.empty() && WriteFault)
    Error = std::string("write failed: ") + std::strerror(WriteFault);
  if (::close(FD) != 0 && Error.empty())
    Error = std::string("write failed: ") + std::strerror(errno);
  if (Error.empty())
    if (std::error_code EC = fs::setPermissions(Temp, static_cast<fs::perms>(Permissions)))
      Error = "cannot set permissions: " + EC.message();
  if (Error.empty()) {
    if (int Injected = fault::injectedErrno("rename", Path))
      Error = std::string("cannot rename into place: ") + std::strerror(Injected);
    else if (std::error_code EC = fs::rename(Temp, Path))
      Error = "cannot rename into place: " + EC.message();
  }
  if (!Error.empty())
    fs::remove(Temp);
  return Error;
}

namespace {
unsigned permissionsOf(const std::string &Path) {
  auto Perms = fs::getPermissions(Path);
  return Perms ? static_cast<unsigned>(*Perms) : 0644;
}

/// Whether Path is a regular file (not a link) that holds Content with these
/// permissions already. A re-run leaves such a file alone: its timestamp, and
/// so a build of the output, stays, and the run writes nothing.
bool holdsAlready(const std::string &Path, const std::string &Content, unsigned Permissions) {
  fs::file_status Status;
  if (fs::status(Path, Status, /*Follow=*/false) || Status.type() != fs::file_type::regular_file ||
      Status.getSize() != Content.size() || static_cast<unsigned>(Status.permissions()) != Permissions)
    return false;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return Buffer && (*Buffer)->getBuffer() == Content;
}
} // namespace

std::vector<WriteFailure> writeOutputs(RunResult &Run) {
  std::vector<WriteFailure> Failures;
  for (FileReport &R : Run.Files) {
    if (R.Status == FileStatus::Failed || R.Input.Output.empty())
      continue;
    const unsigned Mode = permissionsOf(R.Input.Source);
    if (holdsAlready(R.Input.Output, R.Translated, Mode))
      continue;
    std::string Error = writeFileAtomically(R.Input.Output, R.Translated, Mode);
    if (!Error.empty()) {
      R.Status = FileStatus::Failed;
      R.ModeReason = Error;
      Failures.push_back({R.Input.Display, Error});
    }
  }
  return Failures;
}

std::vector<WriteFailure> writeInPlace(RunResult &Run) {
  std::vector<WriteFailure> Failures;
  llvm::StringSet<> Done; // two links to one file: written once
  for (FileReport &R : Run.Files) {
    if (R.Status != FileStatus::Translated || !Done.insert(R.Input.Source).second)
      continue;
    auto Fail = [&](const std::string &Error) {
      R.Status = FileStatus::Failed;
      R.ModeReason = Error;
      Failures.push_back({R.Input.Display, Error});
    };
    const std::string Backup = R.Input.Source + BackupSuffix;
    if (fs::exists(Backup)) {
      Fail("backup '" + Backup + "' exists already (from an earlier --in-place run?); run "
           "--restore, or remove it, first");
      continue;
    }
    const unsigned Mode = permissionsOf(R.Input.Source);
    std::string Error = writeFileAtomically(Backup, R.Original, Mode);
    if (!Error.empty()) {
      Fail("cannot write the backup: " + Error);
      continue;
    }
    Error = writeFileAtomically(R.Input.Source, R.Translated, Mode);
    if (!Error.empty()) {
      fs::remove(Backup);
      Fail(Error);
    }
  }
  return Failures;
}

RestoreResult restoreBackups(const std::vector<std::string> &Inputs) {
  RestoreResult Result;
  const llvm::StringRef Suffix = BackupSuffix;
  std::vector<std::string> Backups;
  for (const std::string &Input : Inputs) {
    if (fs::is_directory(Input)) {
      std::error_code EC;
      for (fs::recursive_directory_iterator It(Input, EC, /*follow_symlinks=*/false), End;
           It != End && !EC; It.increment(EC))
        if (llvm::StringRef(It->path()).ends_with(Suffix) &&
            It->type() == fs::file_type::regular_file)
          Backups.push_back(It->path());
      if (EC)
        Result.Failures.push_back({Input, "cannot walk: " + EC.message()});
    } else if (llvm::StringRef(Input).ends_with(Suffix)) {
      Backups.push_back(Input);
    } else if (fs::exists(Input + BackupSuffix)) {
      Backups.push_back(Input + BackupSuffix);
    } else if (!fs::exists(Input)) {
      Result.Failures.push_back({Input, "does not exist"});
    }
  }
  std::sort(Backups.begin(), Backups.end());
  Backups.erase(std::unique(Backups.begin(), Backups.end()), Backups.end());
  for (const std::string &Backup : Backups) {
    std::string Original = Backup.substr(0, Backup.size() - Suffix.size());
    std::error_code EC;
    if (int Injected = fault::injectedErrno("rename", Original))
      EC = std::error_code(Injected, std::generic_category());
    else
      EC = fs::rename(Backup, Original);
    if (EC)
      Result.Failures.push_back({Original, "cannot restore from '" + Backup + "': " + EC.message()});
    else
      ++Result.Restored;
  }
  return Result;
}

} // namespace cu2dcu
