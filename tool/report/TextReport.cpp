#include "report/TextReport.h"

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

std::string lineAt(const std::string &Text, unsigned Offset) {
  size_t Begin = Text.rfind('\n', Offset ? Offset - 1 : 0);
  Begin = (Begin == std::string::npos || Offset == 0) ? 0 : Begin + 1;
  if (Offset > 0 && Text[Offset - 1] == '\n')
    Begin = Offset;
  size_t End = Text.find('\n', Offset);
  std::string Line = Text.substr(Begin, End == std::string::npos ? std::string::npos : End - Begin);
  if (!Line.empty() && Line.back() == '\r')
    Line.pop_back();
  return Line;
}

} // namespace

void printDiagnostics(const RunResult &Run, llvm::raw_ostream &OS) {
  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : Run.Files)
    ByDisplay[F.Input.Display] = &F;
  for (const Diagnostic &D : Run.Diagnostics) {
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
      OS << lineAt(It->second->Original, D.Offset) << "\n";
      OS << std::string(D.Column > 0 ? D.Column - 1 : 0, ' ');
      OS.changeColor(llvm::raw_ostream::GREEN, true);
      OS << "^\n";
      OS.resetColor();
    }
    for (const FixIt &Fix : D.Fixes)
      OS << "  fix" << (Fix.Applied ? " (applied)" : "") << ": " << Fix.Description << "\n";
  }
}

void printSummary(const RunResult &Run, const RunStatistics &S, llvm::raw_ostream &OS,
                  const std::string &ReportHint) {
  OS << "cu2dcu: " << Run.Files.size() << " files in " << llvm::format("%.2f", Run.Seconds)
     << " s: " << S.Translated << " translated, " << S.Unchanged << " unchanged, " << S.Copied
     << " copied, " << S.Failed << " failed\n";
  OS << "  parsed: " << S.AstFiles << " with the AST, " << S.LexicalFiles << " lexically\n";
  OS << "  rewritten: " << S.ApiRenames << " API names, " << S.Launches << " kernel launches, "
     << S.Includes << " includes, " << S.Symbols << " symbol arguments; " << S.LinesChanged
     << " lines changed\n";
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
  for (const FileReport &F : Run.Files)
    if (F.Status == FileStatus::Failed)
      OS << "  failed: " << F.Input.Display << ": " << F.ModeReason << "\n";
  if (!ReportHint.empty())
    OS << "  report: " << ReportHint << "\n";
}

} // namespace cu2dcu
