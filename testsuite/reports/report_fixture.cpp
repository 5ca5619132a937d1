// Writes every report format for a hand-built RunResult that has what the
// test tree cannot produce yet: findings with fixes (applied and suggested),
// a whole-file finding, a finding in a file that is not an input, tabs and
// non-ASCII text. The schema and browser tests read its output.
//
//   cu2dcu-report-fixture OUTDIR   -> OUTDIR/fixture.{json,sarif,html,csv}

#include "report/Reports.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace cu2dcu;

namespace {

Diagnostic finding(const std::string &Text, const std::string &File, const std::string &Needle,
                   const char *Id, Severity Level, std::string Message) {
  Diagnostic D;
  D.CheckId = Id;
  D.Level = Level;
  D.File = File;
  D.Offset = static_cast<unsigned>(Text.find(Needle));
  std::tie(D.Line, D.Column) = lineColumnOf(Text, D.Offset);
  D.Message = std::move(Message);
  return D;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    llvm::errs() << "usage: cu2dcu-report-fixture OUTDIR\n";
    return 2;
  }
  std::string Dir = Argv[1];

  FileReport Warp;
  Warp.Input.Source = "/fixture/src/warp.cu";
  Warp.Input.Display = "src/warp.cu";
  Warp.Input.Action = FileAction::Translate;
  Warp.Mode = ParseMode::Ast;
  Warp.Original = "// Sum über a warp.\n"
                  "__device__ float warpSum(float v) {\n"
                  "\tunsigned mask = __ballot_sync(0xffffffff, v > 0);\n"
                  "  for (int o = 16; o > 0; o /= 2)\n"
                  "    v += __shfl_down_sync(0xffffffff, v, o);\n"
                  "  return v;\n"
                  "}\n";
  // Applied: the loop start; suggested: the mask type.
  size_t Loop = Warp.Original.find("16");
  Warp.Applied.push_back({static_cast<unsigned>(Loop), 2, "warpSize / 2", "wave64", ""});
  Warp.Translated = Warp.Original;
  Warp.Translated.replace(Loop, 2, "warpSize / 2");
  Warp.Status = FileStatus::Translated;
  Warp.LinesChanged = 1;

  FileReport Legacy;
  Legacy.Input.Source = "/fixture/src/legacy.cu";
  Legacy.Input.Display = "src/legacy.cu";
  Legacy.Input.Action = FileAction::Translate;
  Legacy.Mode = ParseMode::Lexical;
  Legacy.ModeReason = "src/legacy.cu:3: error: unknown type name 'vec3'";
  Legacy.Original = "#include <cuda_runtime.h>\nvoid f() { cudaDeviceReset(); }\nvec3 v;\n";
  Legacy.Translated = "#include <hip/hip_runtime.h>\nvoid f() { hipDeviceReset(); }\nvec3 v;\n";
  auto At = [&](const char *Needle) {
    return static_cast<unsigned>(Legacy.Original.find(Needle));
  };
  Legacy.Applied.push_back({At("<cuda_runtime.h>"), 16, "<hip/hip_runtime.h>", "include", ""});
  Legacy.Applied.push_back({At("cudaDeviceReset"), 15, "hipDeviceReset", "runtime",
                            "cudaDeviceReset"});
  Legacy.Status = FileStatus::Translated;
  Legacy.LinesChanged = 2;

  RunResult Run;
  Run.Files = {Warp, Legacy};
  Diagnostic Mask = finding(Warp.Original, "src/warp.cu", "unsigned", "W64-FIXTURE-MASK",
                            Severity::Warning, "a lane mask stored in 32 bits drops lanes 32-63");
  FixIt Widen;
  Widen.Offset = Mask.Offset;
  Widen.Length = 8;
  Widen.Replacement = "unsigned long long";
  Widen.Description = "store the mask in 64 bits";
  Mask.Fixes.push_back(Widen);
  Diagnostic Width = finding(Warp.Original, "src/warp.cu", "16", "W64-FIXTURE-WIDTH",
                             Severity::Warning, "the reduction assumes 32 lanes");
  FixIt Half;
  Half.Offset = static_cast<unsigned>(Loop);
  Half.Length = 2;
  Half.Replacement = "warpSize / 2";
  Half.Description = "start from half the wavefront";
  Half.Applied = true;
  Width.Fixes.push_back(Half);
  Diagnostic Fallback;
  Fallback.CheckId = "CU2DCU-PARSE-FALLBACK";
  Fallback.Level = Severity::Note;
  Fallback.File = "src/legacy.cu";
  Fallback.Message = "translated lexically: " + Legacy.ModeReason;
  Diagnostic Outside;
  Outside.CheckId = "CU2DCU-UNMAPPED";
  Outside.Level = Severity::Warning;
  Outside.File = "/usr/include/thirdparty/helper.cuh";
  Outside.Line = 12;
  Outside.Column = 5;
  Outside.Offset = 300;
  Outside.Message = "'cudaFancy' looks like a CUDA API but no map entry covers it; left unchanged";
  // Related locations: a use folded into a finding, and a definition (no id).
  Width.Related.push_back({"src/legacy.cu", 2, 12, At("cudaDeviceReset"), "W64-FIXTURE-WIDTH",
                           "a use of the constant"});
  Outside.Related.push_back(
      {"src/warp.cu", Mask.Line, Mask.Column, Mask.Offset, "", "the constant is defined here"});
  Run.Diagnostics = {Fallback, Mask, Width, Outside};
  std::sort(Run.Diagnostics.begin(), Run.Diagnostics.end());
  Run.Seconds = 0.25;

  RunStatistics Stats = computeStatistics(Run);
  FindingStates States = classifyFindings(Run, nullptr);
  GateResult Gate = evaluateGate(Run, States, FailThreshold::Warning, 1u);
  ReportContext C;
  C.Run = &Run;
  C.Stats = &Stats;
  C.States = &States;
  C.Gate = &Gate;
  C.ToolVersion = "0.0.0-fixture";
  C.LlvmVersion = "22";
  C.InputRoot = "/fixture";
  C.DocsBase = "https://example.invalid/docs/";
  C.Arguments = {"/fixture", "--dry-run"};
  C.Options = llvm::json::Object{{"dryRun", true}};

  std::string Error;
  bool Ok = writeReportFile(Dir + "/fixture.json", [&](llvm::raw_ostream &OS) {
              OS << llvm::formatv("{0:2}", buildJsonReport(C)) << "\n";
            }, Error) &&
            writeReportFile(Dir + "/fixture.sarif", [&](llvm::raw_ostream &OS) {
              OS << llvm::formatv("{0:2}", buildSarifReport(C)) << "\n";
            }, Error) &&
            writeReportFile(Dir + "/fixture.html", [&](llvm::raw_ostream &OS) {
              writeHtmlReport(C, OS);
            }, Error) &&
            writeReportFile(Dir + "/fixture.csv", [&](llvm::raw_ostream &OS) {
              writeStatsCsv(C, OS);
            }, Error);
  if (!Ok) {
    llvm::errs() << "cu2dcu-report-fixture: " << Error << "\n";
    return 1;
  }
  return 0;
}
