#include "report/TextReport.h"

#include "report/Baseline.h"
#include "core/SourceText.h"

#include "llvm/Support/Format.h"

#include <map>

namespace cu2dcu {

namespace {

llvm::raw_ostream::Colors colorOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return llvm::raw_ostream::RED;
  case Severity::Warning:
    return llvm::raw_ostream::MAGENTA;
  case Severity::Note:
    return llvm::raw_ostream::CYAN;
  }
  return llvm::raw_ostream::WHITE;
}

/// Spaces up to Column, keeping the line's tabs so the caret lines up.
std::string caretPadding(const std::string &Line, unsigned Column) {
  std::string Pad;
  for (unsigned I = 0; I + 1 < Column && I < Line.size(); ++I)
    Pad += Line[I] == '\t' ? '\t' : ' ';
  return Pad;
}

/// The uses folded into a definition site, or the definition of a use, as the
/// JSON, SARIF and HTML reports list them.
void printRelated(const Diagnostic &D, llvm::raw_ostream &OS) {
  for (const RelatedLocation &R : D.Related) {
    OS << "  " << (R.CheckId.empty() ? "definition" : "use") << ": " << R.File << ":" << R.Line
       << ":" << R.Column << ": ";
    if (!R.CheckId.empty())
      OS << "[" << R.CheckId << "] ";
    OS << R.Message << "\n";
  }
}

} // namespace

void printDiagnostics(const RunResult &Run, llvm::raw_ostream &OS, const std::vector<bool> *Hide,
                      Severity MinLevel) {
  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : Run.Files)
    ByDisplay[F.Input.Display] = &F;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    const Diagnostic &D = Run.Diagnostics[I];
    if ((Hide && I < Hide->size() && (*Hide)[I]) || D.Level < MinLevel)
      continue;
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    OS << D.File;
    if (D.Line)
      OS << ":" << D.Line << ":" << D.Column;
    OS << ": ";
    OS.changeColor(colorOf(D.Level), /*Bold=*/true);
    OS << severityName(D.Level) << ": ";
    OS.resetColor();
    OS << D.Message << " [" << D.CheckId << "]\n";
    auto It = ByDisplay.find(D.File);
    if (D.Line && It != ByDisplay.end()) {
      std::string Line = lineAt(It->second->Original, D.Offset);
      OS << Line << "\n" << caretPadding(Line, D.Column);
      OS.changeColor(llvm::raw_ostream::GREEN, true);
      OS << "^\n";
      OS.resetColor();
    }
    for (const FixIt &Fix : D.Fixes)
      OS << "  fix" << (Fix.Applied ? " (applied)" : "") << ": " << Fix.Description << "\n";
    if (!D.FixWithheld.empty())
      OS << "  fix withheld: " << D.FixWithheld << "\n";
    printRelated(D, OS);
  }
}

/// Files translated lexically although the AST was asked for, or from a
/// recovered AST, and why (the first clang error, a timeout, a crash,
/// missing CUDA headers).
void printFallbacks(const RunResult &Run, llvm::raw_ostream &OS) {
  std::map<std::pair<ParseMode, std::string>, std::vector<std::string>> Fallbacks;
  for (const FileReport &F : Run.Files)
    if ((F.Mode == ParseMode::Lexical || F.Mode == ParseMode::AstRecovered) &&
        !F.ModeReason.empty() && F.Failure != ParseFailure::Requested)
      Fallbacks[{F.Mode, F.ModeReason}].push_back(F.Input.Display);
  for (const auto &[Key, Files] : Fallbacks) {
    const auto &[Mode, Reason] = Key;
    OS << (Mode == ParseMode::Lexical ? "  lexical: " : "  recovered: ");
    for (size_t I = 0; I < Files.size() && I < 5; ++I)
      OS << (I ? ", " : "") << Files[I];
    if (Files.size() > 5)
      OS << " and " << (Files.size() - 5) << " more";
    OS << ": " << Reason << "\n";
  }
}

/// The commands that build the output, the first few (the JSON has all).
void printBuildCommands(const RunResult &Run, llvm::raw_ostream &OS) {
  const size_t Shown = 5;
  for (size_t I = 0; I < Run.BuildCommands.size() && I < Shown; ++I)
    OS << "  build: " << Run.BuildCommands[I] << "\n";
  if (Run.BuildCommands.size() > Shown)
    OS << "  build: " << Run.BuildCommands.size() - Shown
       << " more commands in the JSON report (run.buildCommands)\n";
}

void printSummary(const RunResult &Run, const RunStatistics &S, llvm::raw_ostream &OS,
                  const std::string &ReportHint, const FindingStates *States) {
  OS << "cu2dcu: " << Run.Files.size() << " files in " << llvm::format("%.2f", Run.Seconds)
     << " s: " << S.Translated << " translated, " << S.Unchanged << " unchanged, " << S.Copied
     << " copied, " << S.Failed << " failed\n";
  OS << "  parsed: " << S.AstFiles << " with the AST, ";
  if (S.RecoveredFiles)
    OS << S.RecoveredFiles << " with an AST recovered from errors, ";
  OS << S.LexicalFiles << " lexically\n";
  printFallbacks(Run, OS);
  OS << "  rewritten: " << S.ApiRenames << " API names, " << S.Launches << " kernel launches, "
     << S.Includes << " includes, " << S.Symbols << " symbol arguments, " << S.Wave64Fixes
     << " wave64 fixes, " << S.LaunchBoundsRemoved << " launch-bounds arguments; "
     << S.LinesChanged << " lines changed\n";
  if (!S.RenamesByFamily.empty()) {
    OS << "  by family:";
    for (const auto &[Family, Count] : S.RenamesByFamily)
      OS << " " << Family << "=" << Count;
    OS << "\n";
  }
  OS << "  findings: " << S.Errors << " errors, " << S.Warnings << " warnings, " << S.Notes
     << " notes";
  if (!S.FindingsByCheck.empty()) {
    OS << " (";
    bool First = true;
    for (const auto &[Check, Count] : S.FindingsByCheck) {
      OS << (First ? "" : ", ") << Check << " " << Count;
      First = false;
    }
    OS << ")";
  }
  OS << "\n";
  if (S.UnsupportedUses)
    OS << "  unsupported: " << S.UnsupportedUses << " uses of CUDA APIs with no HIP equivalent\n";
  if (States && States->HasBaseline) {
    OS << "  baseline: " << States->BaselinedCount << " known findings accepted (not shown), "
       << (Run.Diagnostics.size() - States->BaselinedCount) << " new";
    if (States->StaleEntries)
      OS << "; " << States->StaleEntries << " baseline entries no longer found";
    OS << "\n";
  }
  for (const FileReport &F : Run.Files)
    if (F.Status == FileStatus::Failed)
      OS << "  failed: " << F.Input.Display << ": " << F.ModeReason << "\n";
  if (!ReportHint.empty())
    OS << "  report: " << ReportHint << "\n";
  printBuildCommands(Run, OS);
}

} // namespace cu2dcu
