#include "report/Statistics.h"

namespace cu2dcu {

RunStatistics computeStatistics(const RunResult &Run) {
  RunStatistics S;
  for (const FileReport &F : Run.Files) {
    switch (F.Status) {
    case FileStatus::Translated:
      ++S.Translated;
      break;
    case FileStatus::Unchanged:
      ++S.Unchanged;
      break;
    case FileStatus::Copied:
      ++S.Copied;
      break;
    case FileStatus::Failed:
      ++S.Failed;
      break;
    }
    if (F.Input.Action == FileAction::Translate && F.Status != FileStatus::Failed &&
        F.Mode != ParseMode::None)
      ++(F.Mode == ParseMode::Ast            ? S.AstFiles
         : F.Mode == ParseMode::AstRecovered ? S.RecoveredFiles
                                             : S.LexicalFiles);
    S.LinesChanged += F.LinesChanged;
    for (const Edit &E : F.Applied) {
      if (E.Category == "launch")
        ++S.Launches;
      else if (E.Category == "include")
        ++S.Includes;
      else if (E.Category == "symbol")
        ++S.Symbols;
      else if (E.Category == "wave64")
        ++S.Wave64Fixes;
      else if (E.Name == "__launch_bounds__") // removed, or made NVIDIA-only by the shim
        ++S.LaunchBoundsRemoved;
      else if (!E.Name.empty()) {
        ++S.ApiRenames;
        ++S.RenamesByFamily[E.Category];
        ++S.RenamesByName[E.Name];
      }
    }
  }
  for (const Diagnostic &D : Run.Diagnostics) {
    ++S.FindingsByCheck[D.CheckId];
    ++(D.Level == Severity::Error ? S.Errors : D.Level == Severity::Warning ? S.Warnings : S.Notes);
    if (D.CheckId == "CU2DCU-UNSUPPORTED")
      ++S.UnsupportedUses;
  }
  return S;
}

} // namespace cu2dcu
