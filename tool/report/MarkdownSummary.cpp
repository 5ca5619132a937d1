// --summary-md: what a CI job page or a merge-request note shows of a run.
// Bounded in size (the longest lists are cut) so that it fits a job page
// on any tree; the full detail is in the other reports.
#include "report/CheckCatalog.h"
#include "report/Reports.h"

#include <map>

namespace cu2dcu {

namespace {

constexpr size_t MaxFileRows = 10, MaxNewFindings = 20;

/// Markdown table cells must not break the row.
std::string cell(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    Out += C == '|' ? std::string("\\|") : C == '\n' ? std::string(" ") : std::string(1, C);
  return Out;
}

void writeHeadline(const ReportContext &C, llvm::raw_ostream &OS) {
  const RunStatistics &S = *C.Stats;
  const FindingStates &States = *C.States;
  OS << "## cu2dcu " << (C.Gate->Failed ? "gate failed" : "gate passed") << "\n\n";
  OS << "- **Files:** " << C.Run->Files.size() << " (" << S.Translated << " translated, "
     << S.Unchanged << " unchanged, " << S.Copied << " copied, " << S.Failed << " failed)\n";
  OS << "- **Parsed:** " << S.AstFiles << " with an AST, " << S.RecoveredFiles
     << " recovered from errors, " << S.LexicalFiles << " lexically\n";
  OS << "- **Findings:** " << S.Errors << " errors, " << S.Warnings << " warnings, " << S.Notes
     << " notes";
  if (States.HasBaseline)
    OS << "; " << C.Run->Diagnostics.size() - States.BaselinedCount << " new, "
       << States.BaselinedCount << " accepted by the baseline, " << States.StaleEntries
       << " baseline entries no longer found";
  OS << "\n";
  for (const std::string &Reason : C.Gate->Reasons)
    OS << "- **Gate:** " << Reason << "\n";
  if (!C.OutputPath.empty())
    OS << "- **Output:** `" << C.OutputPath << "`\n";
  OS << "\n";
}

void writeByCheck(const ReportContext &C, llvm::raw_ostream &OS) {
  std::map<std::string, unsigned> New;
  for (size_t I = 0; I < C.Run->Diagnostics.size(); ++I)
    if (!C.States->Baselined[I])
      ++New[C.Run->Diagnostics[I].CheckId];
  OS << "### Findings by check\n\n| check | findings | new | what it means |\n|---|---:|---:|---|\n";
  for (const auto &[Id, Count] : C.Stats->FindingsByCheck)
    OS << "| [" << Id << "](" << helpUri(C.DocsBase, Id) << ") | " << Count << " | " << New[Id]
       << " | " << cell(describeCheck(Id).ShortDescription) << " |\n";
  OS << "\n";
}

void writeByFile(const ReportContext &C, llvm::raw_ostream &OS) {
  std::map<std::string, std::array<unsigned, 3>> ByFile; // errors, warnings, notes
  for (const Diagnostic &D : C.Run->Diagnostics)
    ++ByFile[D.File][D.Level == Severity::Error ? 0 : D.Level == Severity::Warning ? 1 : 2];
  std::vector<std::pair<std::string, std::array<unsigned, 3>>> Rows(ByFile.begin(), ByFile.end());
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  OS << "### Files with the most findings\n\n| file | errors | warnings | notes |\n"
        "|---|---:|---:|---:|\n";
  for (size_t I = 0; I < Rows.size() && I < MaxFileRows; ++I)
    OS << "| `" << cell(Rows[I].first) << "` | " << Rows[I].second[0] << " | "
       << Rows[I].second[1] << " | " << Rows[I].second[2] << " |\n";
  if (Rows.size() > MaxFileRows)
    OS << "\n" << Rows.size() - MaxFileRows << " more file(s) with findings: see the reports.\n";
  OS << "\n";
}

/// The findings that are new against the baseline (all, without one) and
/// not notes: what a reviewer of this change has to look at.
void writeNewFindings(const ReportContext &C, llvm::raw_ostream &OS) {
  std::vector<const Diagnostic *> Shown;
  size_t Total = 0;
  for (size_t I = 0; I < C.Run->Diagnostics.size(); ++I) {
    const Diagnostic &D = C.Run->Diagnostics[I];
    if (C.States->Baselined[I] || D.Level == Severity::Note)
      continue;
    if (++Total <= MaxNewFindings)
      Shown.push_back(&D);
  }
  OS << "### " << (C.States->HasBaseline ? "New errors and warnings" : "Errors and warnings")
     << "\n\n";
  if (Shown.empty())
    OS << "None.\n";
  for (const Diagnostic *D : Shown)
    OS << "- `" << D->File << ":" << D->Line << "` " << severityName(D->Level) << " ["
       << D->CheckId << "](" << helpUri(C.DocsBase, D->CheckId) << "): " << cell(D->Message)
       << "\n";
  if (Total > Shown.size())
    OS << "- ... and " << Total - Shown.size() << " more: see the reports.\n";
}

} // namespace

/// The commands that build the output, as a block to copy.
void writeBuildCommands(const ReportContext &C, llvm::raw_ostream &OS) {
  const std::vector<std::string> &Commands = C.Run->BuildCommands;
  if (Commands.empty())
    return;
  OS << "### Build the port\n\n```sh\n";
  for (size_t I = 0; I < Commands.size() && I < MaxFileRows; ++I)
    OS << Commands[I] << "\n";
  OS << "```\n";
  if (Commands.size() > MaxFileRows)
    OS << "\n" << Commands.size() - MaxFileRows << " more in the JSON report (run.buildCommands).\n";
  OS << "\n";
}

void writeMarkdownSummary(const ReportContext &C, llvm::raw_ostream &OS) {
  writeHeadline(C, OS);
  writeBuildCommands(C, OS);
  if (!C.Run->Diagnostics.empty()) {
    writeByCheck(C, OS);
    writeByFile(C, OS);
  }
  writeNewFindings(C, OS);
}

} // namespace cu2dcu
