// --json: one document per run; its schema is docs/report.schema.json and
// docs/reports.md explains it. Bump FormatVersion on incompatible changes.
#include "core/SourceText.h"
#include "report/CheckCatalog.h"
#include "report/Reports.h"

#include <map>

namespace cu2dcu {

namespace {

constexpr int FormatVersion = 1;

llvm::json::Object countsOf(const std::map<std::string, unsigned> &Counts) {
  llvm::json::Object O;
  for (const auto &[Name, Count] : Counts)
    O[Name] = Count;
  return O;
}

/// How the wave64 checks looked at a file: on its AST, token by token, or
/// not at all (copied, failed).
llvm::json::Value wave64ScanName(const FileReport &F) {
  if (F.Input.Action != FileAction::Translate || F.Status == FileStatus::Failed)
    return nullptr;
  switch (F.Mode) {
  case ParseMode::Ast:
  case ParseMode::AstRecovered:
    return "ast";
  case ParseMode::Lexical:
  case ParseMode::None:
    return "token";
  case ParseMode::Copy:
  case ParseMode::Build:
    break;
  }
  return nullptr;
}

llvm::json::Array relatedOf(const Diagnostic &D) {
  llvm::json::Array Related;
  for (const RelatedLocation &R : D.Related)
    Related.push_back(llvm::json::Object{{"file", R.File},
                                         {"line", R.Line},
                                         {"column", R.Column},
                                         {"offset", R.Offset},
                                         {"id", R.CheckId.empty() ? llvm::json::Value(nullptr)
                                                                  : llvm::json::Value(R.CheckId)},
                                         {"message", R.Message}});
  return Related;
}

/// A string list as a JSON array.
llvm::json::Array arrayOf(const std::vector<std::string> &Strings) {
  llvm::json::Array A;
  for (const std::string &S : Strings)
    A.push_back(S);
  return A;
}

llvm::json::Array filesOf(const RunResult &Run) {
  std::map<std::string, unsigned> FindingsPerFile;
  for (const Diagnostic &D : Run.Diagnostics)
    ++FindingsPerFile[D.File];
  llvm::json::Array Files;
  for (const FileReport &F : Run.Files) {
    llvm::json::Object O{{"path", F.Input.Display},
                         {"status", fileStatusName(F.Status)},
                         {"action", F.Input.Action == FileAction::Translate ? "translate" : "copy"},
                         {"header", F.Input.IsHeader},
                         {"parseMode", parseModeName(F.Mode)},
                         {"parseFailure", F.Failure == ParseFailure::None
                                              ? llvm::json::Value(nullptr)
                                              : llvm::json::Value(parseFailureName(F.Failure))},
                         {"cpuSeconds", F.CpuSeconds},
                         {"wave64", wave64ScanName(F)},
                         {"linesChanged", F.LinesChanged},
                         {"edits", static_cast<int64_t>(F.Applied.size())},
                         {"findings", FindingsPerFile[F.Input.Display]}};
    O["reason"] = F.ModeReason.empty() ? llvm::json::Value(nullptr) : F.ModeReason;
    Files.push_back(std::move(O));
  }
  return Files;
}

/// The fixes of D, with their line and column where the file is known
/// (Original: its text, or null).
llvm::json::Array fixesOf(const Diagnostic &D, const std::string *Original, LineIndexes &Lines) {
  llvm::json::Array Fixes;
  for (const FixIt &Fix : D.Fixes) {
    llvm::json::Object FO{{"offset", Fix.Offset},
                          {"length", Fix.Length},
                          {"replacement", Fix.Replacement},
                          {"description", Fix.Description},
                          {"applied", Fix.Applied}};
    if (Original) {
      auto [Line, Column] = Lines.of(*Original).lineColumn(Fix.Offset);
      FO["line"] = Line;
      FO["column"] = Column;
    }
    Fixes.push_back(std::move(FO));
  }
  return Fixes;
}

llvm::json::Array diagnosticsOf(const ReportContext &C) {
  const RunResult &Run = *C.Run;
  const FindingStates &States = *C.States;
  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : Run.Files)
    ByDisplay[F.Input.Display] = &F;
  llvm::json::Array Diagnostics;
  LineIndexes Lines;
  for (size_t I = 0; I < Run.Diagnostics.size(); ++I) {
    const Diagnostic &D = Run.Diagnostics[I];
    auto It = ByDisplay.find(D.File);
    const std::string *Original = It != ByDisplay.end() ? &It->second->Original : nullptr;
    llvm::json::Object O{{"id", D.CheckId},
                         {"severity", severityName(D.Level)},
                         {"file", D.File},
                         {"line", D.Line},
                         {"column", D.Column},
                         {"offset", D.Offset},
                         {"message", D.Message},
                         {"confidence", D.LowConfidence ? "low" : "high"},
                         {"fixes", fixesOf(D, Original, Lines)},
                         {"related", relatedOf(D)},
                         {"fingerprint", States.Fingerprints[I]},
                         {"helpUri", helpUri(C.DocsBase, D.CheckId)}};
    if (!D.FixWithheld.empty())
      O["fixWithheld"] = D.FixWithheld;
    O["baseline"] = !States.HasBaseline ? llvm::json::Value(nullptr)
                                        : States.Baselined[I] ? "unchanged" : "new";
    Diagnostics.push_back(std::move(O));
  }
  return Diagnostics;
}

llvm::json::Object statisticsOf(const ReportContext &C) {
  const RunResult &Run = *C.Run;
  const RunStatistics &S = *C.Stats;
  const FindingStates &States = *C.States;
  llvm::json::Object Checks;
  for (const auto &[Id, Count] : S.FindingsByCheck) {
    CheckInfo Info = describeCheck(Id);
    Checks[Id] = llvm::json::Object{{"count", Count},
                                    {"description", Info.ShortDescription},
                                    {"helpUri", helpUri(C.DocsBase, Id)}};
  }
  return llvm::json::Object{
      {"files", llvm::json::Object{{"total", static_cast<int64_t>(Run.Files.size())},
                                   {"translated", S.Translated},
                                   {"unchanged", S.Unchanged},
                                   {"copied", S.Copied},
                                   {"failed", S.Failed}}},
      {"parsed", llvm::json::Object{{"ast", S.AstFiles},
                                     {"astRecovered", S.RecoveredFiles},
                                     {"lexical", S.LexicalFiles}}},
      {"apiRenames", S.ApiRenames},
      {"apiRenamesByFamily", countsOf(S.RenamesByFamily)},
      {"apiRenamesByName", countsOf(S.RenamesByName)},
      {"launchesRewritten", S.Launches},
      {"includesRewritten", S.Includes},
      {"symbolArgumentsRewritten", S.Symbols},
      {"wave64FixesApplied", S.Wave64Fixes},
      {"launchBoundsArgumentsRemoved", S.LaunchBoundsRemoved},
      {"unsupportedUses", S.UnsupportedUses},
      {"linesChanged", S.LinesChanged},
      {"findings", llvm::json::Object{{"error", S.Errors},
                                      {"warning", S.Warnings},
                                      {"note", S.Notes},
                                      {"baselined", States.BaselinedCount},
                                      {"new", static_cast<int64_t>(Run.Diagnostics.size()) -
                                                  States.BaselinedCount},
                                      {"staleBaselineEntries", States.StaleEntries}}},
      {"findingsByCheck", std::move(Checks)},
      {"seconds", Run.Seconds},
      // Like the seconds, these depend on the run, not on its result.
      {"units", llvm::json::Object{{"parsed", Run.Times[Stage::Parse].Count},
                                   {"reused", Run.Times.ReusedUnits}}}};
}

llvm::json::Object gateOf(const ReportContext &C) {
  return llvm::json::Object{
      {"failOn", failThresholdName(C.Gate->FailOn)},
      {"maxWarnings", C.Gate->MaxWarnings ? llvm::json::Value(*C.Gate->MaxWarnings)
                                          : llvm::json::Value(nullptr)},
      {"baseline", C.States->HasBaseline},
      {"failed", C.Gate->Failed},
      {"reasons", arrayOf(C.Gate->Reasons)}};
}

} // namespace

llvm::json::Value buildJsonReport(const ReportContext &C) {
  return llvm::json::Object{
      {"format", "cu2dcu-report"},
      {"formatVersion", FormatVersion},
      {"tool", llvm::json::Object{{"name", "cu2dcu"},
                                  {"version", C.ToolVersion},
                                  {"llvmVersion", C.LlvmVersion}}},
      {"run", llvm::json::Object{{"inputRoot", C.InputRoot},
                                 {"output", C.OutputPath.empty() ? llvm::json::Value(nullptr)
                                                                 : C.OutputPath},
                                 {"arguments", arrayOf(C.Arguments)},
                                 {"options", llvm::json::Object(C.Options)},
                                 {"buildCommands", arrayOf(C.Run->BuildCommands)},
                                 {"docsBase", C.DocsBase}}},
      {"gate", gateOf(C)},
      {"files", filesOf(*C.Run)},
      {"diagnostics", diagnosticsOf(C)},
      {"statistics", statisticsOf(C)}};
}

} // namespace cu2dcu
