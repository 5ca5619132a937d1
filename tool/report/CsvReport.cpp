// --stats-csv: the run's statistics as "kind,name,value" rows (RFC 4180),
// one table that spreadsheets and CI dashboards read without a schema.
#include "report/Reports.h"

#include <map>

namespace cu2dcu {

namespace {

std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\r\n") == std::string::npos)
    return S;
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"')
      Out += '"';
    Out += C;
  }
  return Out + "\"";
}

} // namespace

void writeStatsCsv(const ReportContext &C, llvm::raw_ostream &OS) {
  const RunResult &Run = *C.Run;
  const RunStatistics &S = *C.Stats;
  auto Row = [&](const char *Kind, const std::string &Name, uint64_t Value) {
    OS << Kind << "," << csvField(Name) << "," << Value << "\r\n";
  };
  OS << "kind,name,value\r\n";
  Row("files", "total", Run.Files.size());
  Row("files", "translated", S.Translated);
  Row("files", "unchanged", S.Unchanged);
  Row("files", "copied", S.Copied);
  Row("files", "failed", S.Failed);
  Row("parsed", "ast", S.AstFiles);
  Row("parsed", "lexical", S.LexicalFiles);
  Row("rewritten", "api_names", S.ApiRenames);
  Row("rewritten", "kernel_launches", S.Launches);
  Row("rewritten", "includes", S.Includes);
  Row("rewritten", "symbol_arguments", S.Symbols);
  Row("rewritten", "wave64_fixes", S.Wave64Fixes);
  Row("rewritten", "launch_bounds_arguments_removed", S.LaunchBoundsRemoved);
  Row("rewritten", "lines_changed", S.LinesChanged);
  Row("unsupported", "uses", S.UnsupportedUses);
  Row("findings", "error", S.Errors);
  Row("findings", "warning", S.Warnings);
  Row("findings", "note", S.Notes);
  Row("findings", "baselined", C.States->BaselinedCount);
  Row("findings", "new", Run.Diagnostics.size() - C.States->BaselinedCount);
  for (const auto &[Family, Count] : S.RenamesByFamily)
    Row("api_family", Family, Count);
  for (const auto &[Name, Count] : S.RenamesByName)
    Row("api_name", Name, Count);
  for (const auto &[Check, Count] : S.FindingsByCheck)
    Row("check", Check, Count);
  for (const FileReport &F : Run.Files)
    if (F.LinesChanged)
      Row("file_lines_changed", F.Input.Display, F.LinesChanged);
}

} // namespace cu2dcu
