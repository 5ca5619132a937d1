// The machine- and reviewer-facing reports (--json, --sarif, --html,
// --stats-csv) and the CI gate (--fail-on, --max-warnings, --baseline). Every
// format reads the same in-memory RunResult, RunStatistics and FindingStates.
#pragma once

#include "core/RunResult.h"
#include "report/Baseline.h"
#include "report/Statistics.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace cu2dcu {

enum class FailThreshold { Error, Warning, Note, Never };
const char *failThresholdName(FailThreshold T);

/// The exit decision for findings, taken before any report is written so
/// that the reports can record it.
struct GateResult {
  FailThreshold FailOn = FailThreshold::Error;
  std::optional<unsigned> MaxWarnings;
  bool Failed = false;
  std::vector<std::string> Reasons; // why it failed, one sentence each
};

/// Only new findings (not accepted by the baseline) count.
GateResult evaluateGate(const RunResult &Run, const FindingStates &States, FailThreshold FailOn,
                        std::optional<unsigned> MaxWarnings);

/// Everything a report shows besides the run itself.
struct ReportContext {
  const RunResult *Run = nullptr;
  const RunStatistics *Stats = nullptr;
  const FindingStates *States = nullptr;
  const GateResult *Gate = nullptr;
  std::string ToolVersion;
  std::string LlvmVersion;
  std::string InputRoot;  // absolute, the root display paths are relative to
  std::string OutputPath; // -o as given; empty when nothing was written
  std::string DocsBase;   // URL of docs/, ending in '/'
  std::vector<std::string> Arguments; // the command line after the program name
  llvm::json::Object Options;         // effective option values
};

/// --json: see docs/reports.md and docs/report.schema.json.
llvm::json::Value buildJsonReport(const ReportContext &C);
/// --sarif: SARIF 2.1.0.
llvm::json::Value buildSarifReport(const ReportContext &C);
/// --html: one self-contained page.
void writeHtmlReport(const ReportContext &C, llvm::raw_ostream &OS);
/// --summary-md: a short Markdown page for a CI job (report/MarkdownSummary.cpp).
void writeMarkdownSummary(const ReportContext &C, llvm::raw_ostream &OS);
/// --stats-csv: kind,name,value rows.
void writeStatsCsv(const ReportContext &C, llvm::raw_ostream &OS);

/// Writes Content to Path through a temporary file; "-" is stdout.
bool writeReportFile(const std::string &Path, llvm::function_ref<void(llvm::raw_ostream &)> Write,
                     std::string &Error);

} // namespace cu2dcu
