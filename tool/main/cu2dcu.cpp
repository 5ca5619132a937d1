// cu2dcu: ports CUDA source trees to HIP for Hygon DCU and AMD GPUs.
//
// The command line is parsed with llvm::cl rather than CommonOptionsParser
// because inputs may be directories and -p may come without inputs.

#include "Explain.h"
#include "Shards.h"
#include "discover/InputDiscovery.h"
#include "core/Paths.h"
#include "driver/Translator.h"
#include "mapping/HipTarget.h"
#include "mapping/MapCache.h"
#include "output/OutputWriter.h"
#include "report/Baseline.h"
#include "report/CheckCatalog.h"
#include "report/Reports.h"
#include "report/Statistics.h"
#include "report/TextReport.h"
#include "report/UnifiedDiff.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <unistd.h>

using namespace cu2dcu;
namespace cl = llvm::cl;

namespace {

enum ExitCode { ExitOk = 0, ExitFindings = 1, ExitUsage = 2, ExitInternal = 3 };

cl::OptionCategory Category("cu2dcu options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."), cl::cat(Category));
cl::opt<std::string> OutputPath("o", cl::desc("Output file or directory"), cl::value_desc("path"),
                                cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory with compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ProjectRoot("root",
                                 cl::desc("Project root of -p without inputs: the output mirrors "
                                          "it (default: the common ancestor of the database's "
                                          "files and the headers they include)"),
                                 cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path", cl::desc("CUDA installation to parse against "
                                                    "(default: $CUDA_PATH, /usr/local/cuda)"),
                              cl::cat(Category));
cl::list<std::string> ExtraMaps("map", cl::desc("Additional YAML API map (repeatable); "
                                                "overrides shipped entries"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> MappingsDir("mappings", cl::desc("Directory of the shipped API maps"),
                                 cl::init(CU2DCU_DEFAULT_MAPPINGS), cl::cat(Category));
cl::opt<std::string> MapCacheDir("map-cache",
                                cl::desc("Folder that caches the loaded maps (default: "
                                         "$XDG_CACHE_HOME/cu2dcu/maps)"),
                                cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoMapCache("no-map-cache", cl::desc("Parse the YAML maps on every run"),
                         cl::cat(Category));
cl::opt<std::string> HipVersionText("hip-version",
                                    cl::desc("Target HIP version MAJOR.MINOR or a profile name "
                                             "(default: the installed HIP, else 5.2)"),
                                    cl::cat(Category));
cl::list<std::string> OffloadArchs("offload-arch",
                                   cl::desc("AMD GPU target of the translated build files "
                                            "(repeatable; default gfx906)"),
                                   cl::value_desc("gfx"), cl::cat(Category));
cl::opt<bool> CopyBuildFiles("copy-build-files",
                             cl::desc("Copy Makefiles and CMake files unchanged instead of "
                                      "translating them"),
                             cl::cat(Category));
cl::opt<bool> DryRun("dry-run", cl::desc("Translate and report, write nothing"), cl::cat(Category));
cl::opt<bool> ShowDiff("diff", cl::desc("Print a unified diff of every change on stdout"),
                       cl::cat(Category));
cl::opt<bool> KeepLaunchSyntax("keep-launch-syntax",
                               cl::desc("Keep kernel<<<...>>>() instead of hipLaunchKernelGGL"),
                               cl::cat(Category));
cl::opt<bool> FixWave64("fix-wave64",
                        cl::desc("Apply the safe wavefront-64 fixes (docs/checks/README.md)"),
                        cl::cat(Category));
cl::opt<bool> StrictMasks("strict-masks",
                          cl::desc("HIP < 6.2: leave a warp *_sync call whose mask may not cover "
                                   "the warp unchanged, instead of dropping the mask with a "
                                   "warning"),
                          cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Parallel translation jobs (output is identical for any N)"),
                       cl::init(1), cl::Prefix, cl::cat(Category));
cl::opt<bool> InPlace("in-place",
                      cl::desc("Translate the inputs in place; each changed file's original "
                               "is kept as FILE.cu2dcu-orig"),
                      cl::cat(Category));
cl::opt<bool> Restore("restore",
                      cl::desc("Put the FILE.cu2dcu-orig backups of --in-place back, and exit"),
                      cl::cat(Category));
cl::opt<unsigned> ParseTimeout("parse-timeout",
                               cl::desc("Seconds a file may take to parse before it is "
                                        "translated lexically (0: no limit, parse in-process)"),
                               cl::value_desc("seconds"), cl::init(120), cl::cat(Category));
cl::opt<std::string> ExplainName("explain",
                                 cl::desc("Print what the maps say about a CUDA name or header "
                                          "at each HIP target (what a use becomes, its "
                                          "findings, shims), and exit"),
                                 cl::value_desc("name"), cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print only errors"), cl::cat(Category));
cl::opt<bool> Progress("progress", cl::desc("Show a progress line (default: on a terminal "
                                            "outside CI)"),
                       cl::cat(Category));
cl::opt<bool> NoPch("no-pch",
                    cl::desc("Parse every file from scratch instead of loading the headers that "
                             "files start with from PCHs built for the run (same output, slower)"),
                    cl::cat(Category));
cl::opt<bool> TimeReport("time-report",
                         cl::desc("Print the time spent per stage (discover, maps, pch, parse, "
                                  "match, rewrite, write, report) on stderr"),
                         cl::cat(Category));
cl::opt<ModeChoice> Mode("mode", cl::desc("How files are parsed"),
                         cl::values(clEnumValN(ModeChoice::Auto, "auto",
                                               "AST, falling back to lexical per file"),
                                    clEnumValN(ModeChoice::Ast, "ast", "AST only; parse errors fail"),
                                    clEnumValN(ModeChoice::Lexical, "lexical", "lexical only")),
                         cl::init(ModeChoice::Auto), cl::cat(Category));
cl::opt<FailThreshold> FailOn(
    "fail-on", cl::desc("Exit with 1 when new findings reach this level"),
    cl::values(clEnumValN(FailThreshold::Error, "error", "errors (default)"),
               clEnumValN(FailThreshold::Warning, "warning", "warnings or worse"),
               clEnumValN(FailThreshold::Note, "note", "any finding"),
               clEnumValN(FailThreshold::Never, "never", "never")),
    cl::init(FailThreshold::Error), cl::cat(Category));
// Reports and the CI gate (docs/reports.md).
cl::opt<unsigned> MaxWarnings("max-warnings", cl::desc("Exit with 1 when new warnings exceed N"),
                              cl::value_desc("N"), cl::cat(Category));
cl::opt<std::string> BaselinePath("baseline", cl::desc("Accept the findings recorded in FILE; "
                                                       "only new ones are shown and gate"),
                                  cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> WriteBaselinePath("write-baseline",
                                       cl::desc("Record every finding of this run in FILE"),
                                       cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> JsonPath("json", cl::desc("Write the JSON report to FILE ('-': stdout)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SarifPath("sarif", cl::desc("Write a SARIF 2.1.0 report to FILE"),
                               cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> HtmlPath("html", cl::desc("Write a self-contained HTML report to FILE"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> StatsCsvPath("stats-csv", cl::desc("Write the statistics as CSV to FILE"),
                                  cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> SummaryMdPath("summary-md",
                                   cl::desc("Write a short Markdown summary for a CI job page "
                                            "to FILE ($GITHUB_STEP_SUMMARY)"),
                                   cl::value_desc("file"), cl::cat(Category));
// Reuse between runs and shards (docs/ci.md).
cl::opt<std::string> CacheDirectory("cache",
                                    cl::desc("Folder that keeps each unit's outcome for later "
                                             "runs (default: $XDG_CACHE_HOME/cu2dcu)"),
                                    cl::value_desc("dir"), cl::cat(Category));
cl::opt<unsigned> CacheLimitMiB("cache-limit-mb",
                                 cl::desc("Prune the cache to this many MiB after the run, the "
                                          "entries used least recently first (default 2048)"),
                                 cl::value_desc("MiB"), cl::init(2048), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("Parse every unit, and keep nothing for later runs"),
                      cl::cat(Category));
cl::opt<std::string> ShardText("shard",
                               cl::desc("Parse only share K of N of the units and write their "
                                        "outcomes to the --json file, for `cu2dcu "
                                        "merge-reports` (docs/ci.md)"),
                               cl::value_desc("K/N"), cl::cat(Category));
cl::opt<std::string> DocsUrl("docs-url", cl::desc("URL of the docs/ folder that reports link "
                                                  "to (default: this build's source tree)"),
                             cl::value_desc("url"), cl::cat(Category));

void printVersion(llvm::raw_ostream &OS) {
  OS << "cu2dcu " << CU2DCU_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

int usageError(const llvm::Twine &Message) {
  llvm::errs() << "cu2dcu: error: " << Message << "\n";
  return ExitUsage;
}

/// The effective options, as the JSON report records them.
llvm::json::Object reportOptions(const std::vector<std::string> &CompilerArgs,
                                 const HipTarget &Target) {
  auto Strings = [](const std::vector<std::string> &L) {
    llvm::json::Array A;
    for (const std::string &S : L)
      A.push_back(S);
    return A;
  };
  auto OrNull = [](const std::string &S) {
    return S.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(S);
  };
  const char *ModeName = Mode == ModeChoice::Ast ? "ast" : Mode == ModeChoice::Lexical ? "lexical"
                                                                                       : "auto";
  return llvm::json::Object{
      {"inputs", Strings(Inputs)},
      {"output", OrNull(OutputPath)},
      {"buildPath", OrNull(BuildPath)},
      {"root", OrNull(ProjectRoot)},
      {"cudaPath", OrNull(CudaPath)},
      {"maps", Strings(ExtraMaps)},
      {"hipVersion", Target.Version.str()},
      {"hipVersionSource", Target.How},
      {"mode", ModeName},
      {"keepLaunchSyntax", KeepLaunchSyntax.getValue()},
      {"offloadArchs", Strings(OffloadArchs.empty() ? BuildOptions().OffloadArchs : OffloadArchs)},
      {"copyBuildFiles", CopyBuildFiles.getValue()},
      {"dryRun", DryRun.getValue()},
      {"jobs", Jobs.getValue()},
      {"failOn", failThresholdName(FailOn)},
      {"maxWarnings", MaxWarnings.getNumOccurrences() ? llvm::json::Value(MaxWarnings.getValue())
                                                      : llvm::json::Value(nullptr)},
      {"baseline", OrNull(BaselinePath)},
      {"compilerArgs", Strings(CompilerArgs)}};
}

void printMapIssues(const std::vector<MapLoadIssue> &Issues) {
  for (const MapLoadIssue &Issue : Issues)
    if (Issue.IsError || !Quiet)
      llvm::errs() << Issue.File << ":" << Issue.Line << ":" << Issue.Column << ": "
                   << (Issue.IsError ? "error: " : "note: ") << Issue.Message << "\n";
}

/// The build-file rules of the mappings folder's buildfiles/, or null where
/// build files are copied as they are (--copy-build-files, or a user's own
/// maps without that folder); false when the rules have errors.
bool loadBuildRules(BuildFlagMap &Rules, const BuildFlagMap *&Use) {
  llvm::SmallString<256> Dir(MappingsDir.getValue());
  llvm::sys::path::append(Dir, "buildfiles");
  Use = nullptr;
  if (CopyBuildFiles || !llvm::sys::fs::is_directory(Dir))
    return true;
  Rules.loadDirectory(std::string(Dir));
  printMapIssues(Rules.issues());
  Use = &Rules;
  return !Rules.hasErrors();
}

/// --restore: puts the --in-place backups under the inputs back.
int restoreCommand() {
  if (Inputs.empty())
    return usageError("--restore needs the files or directories translated with --in-place");
  RestoreResult Restored = restoreBackups(Inputs);
  for (const WriteFailure &F : Restored.Failures)
    llvm::errs() << "cu2dcu: error: " << F.Display << ": " << F.Message << "\n";
  if (!Quiet)
    llvm::errs() << "cu2dcu: restored " << Restored.Restored << " file(s) from their "
                 << BackupSuffix << " backups\n";
  return Restored.Failures.empty() ? ExitOk : ExitUsage;
}

/// The command line split at `--`: everything after it is compiler arguments
/// for every file.
struct SplitCommandLine {
  std::vector<const char *> ToolArgs;
  std::vector<std::string> CompilerArgs;
};

SplitCommandLine splitAtDashDash(int Argc, const char **Argv) {
  SplitCommandLine Split;
  bool AfterDashDash = false;
  for (int I = 0; I < Argc; ++I) {
    if (!AfterDashDash && llvm::StringRef(Argv[I]) == "--" && I > 0) {
      AfterDashDash = true;
      continue;
    }
    if (AfterDashDash)
      Split.CompilerArgs.push_back(Argv[I]);
    else
      Split.ToolArgs.push_back(Argv[I]);
  }
  return Split;
}

/// Parses the tool's options; false (after printing why) when they are wrong.
bool parseToolOptions(const std::vector<const char *> &ToolArgs) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  llvm::raw_string_ostream ErrorStream(ParseErrors);
  if (cl::ParseCommandLineOptions(ToolArgs.size(), ToolArgs.data(),
                                  "Ports CUDA source trees to HIP for Hygon DCU and AMD GPUs.\n\n"
                                  "  cu2dcu src/ -o out/\n"
                                  "  cu2dcu kernel.cu -o kernel.hip.cpp\n"
                                  "  cu2dcu -p build/ -o out/\n",
                                  &ErrorStream))
    return true;
  llvm::errs() << ParseErrors;
  return false;
}

/// Why the output options cannot work together, or empty.
std::string outputConflict() {
  if (InPlace && !OutputPath.empty())
    return "--in-place and -o exclude each other";
  if (OutputPath.empty() && !DryRun && !ShowDiff && !InPlace)
    return "no output: give -o, or --dry-run / --diff to translate without writing";
  return "";
}

/// Loads the API maps and the build-file rules (UsedBuildRules: null where
/// build files are copied); the error when either has errors.
/// The shipped maps and the --map files for Target; false when they have
/// errors (printed, with the warnings, where PrintIssues).
bool loadApiMaps(ApiMap &Map, const HipVersion &Target, bool PrintIssues) {
  Map.setTargetHip(Target);
  if (!NoMapCache)
    Map.setCacheDirectory(MapCacheDir.empty() ? defaultMapCacheDirectory() : MapCacheDir.getValue());
  Map.loadDirectory(MappingsDir);
  for (const std::string &Extra : ExtraMaps)
    Map.loadFile(Extra);
  if (PrintIssues)
    printMapIssues(Map.issues());
  return !Map.hasErrors();
}

std::string loadMaps(const HipTarget &Target, ApiMap &Map, BuildFlagMap &BuildRules,
                     const BuildFlagMap *&UsedBuildRules) {
  if (!loadApiMaps(Map, Target.Version, /*PrintIssues=*/true))
    return "the API maps have errors; nothing was translated";
  if (!loadBuildRules(BuildRules, UsedBuildRules))
    return "the build-file maps have errors; nothing was translated";
  return "";
}

/// --explain NAME: the maps' entry at the HIP versions they are verified
/// against (mappings/tools/verify.py) and at the chosen target.
int explainCommand(const HipTarget &Target) {
  std::vector<HipVersion> Targets = {{5, 2}, {6, 4}};
  if (llvm::none_of(Targets, [&](const HipVersion &V) {
        return !(V < Target.Version) && !(Target.Version < V);
      }))
    Targets.push_back(Target.Version);
  llvm::sort(Targets);
  bool First = true;
  int Status = explainName(
      ExplainName, Targets,
      [&](ApiMap &Map, const HipVersion &Version) {
        bool Ok = loadApiMaps(Map, Version, /*PrintIssues=*/First);
        First = false;
        return Ok;
      },
      llvm::outs());
  return Status == 2 ? ExitUsage : Status;
}

/// --baseline, when given.
llvm::Expected<std::optional<Baseline>> readKnownFindings() {
  if (BaselinePath.empty())
    return std::nullopt;
  auto Read = readBaseline(BaselinePath);
  if (!Read)
    return Read.takeError();
  return std::optional<Baseline>(std::move(*Read));
}

/// nvcc's options, from the build-file rules (mappings/buildfiles/nvcc-flags.yaml).
NvccOptionNames nvccOptionsOf(const BuildFlagMap *BuildRules) {
  NvccOptionNames Names;
  if (BuildRules)
    for (const NvccFlagRule &Rule : BuildRules->nvccFlags())
      for (const std::string &Name : Rule.Names)
        Names[Name] = Rule.TakesValue;
  return Names;
}

/// Finds the inputs (stage 1) and warns about what it skipped; refuses an
/// -o that is a file where a directory is needed.
llvm::Expected<Discovery> discover(const std::vector<std::string> &CompilerArgs,
                                   const CudaToolchain &Toolchain,
                                   const BuildFlagMap *BuildRules, StageTime &Time) {
  auto Refuse = [](const std::string &Message) {
    return llvm::createStringError(std::errc::invalid_argument, "%s", Message.c_str());
  };
  DiscoveryRequest Request;
  Request.Inputs = Inputs;
  Request.Output = DryRun ? std::string() : OutputPath.getValue();
  Request.BuildPath = BuildPath;
  Request.Root = ProjectRoot;
  Request.ExtraArgs = CompilerArgs;
  Request.NvccOptions = nvccOptionsOf(BuildRules);
  if (Toolchain.found())
    Request.SystemRoots.push_back(Toolchain.CudaPath);
  Request.InPlace = InPlace && !DryRun;
  if (Inputs.size() > 1 && !OutputPath.empty() && !DryRun && llvm::sys::fs::exists(OutputPath) &&
      !llvm::sys::fs::is_directory(OutputPath))
    return Refuse("-o '" + OutputPath + "' must be a directory for several inputs");
  StageClock Clock;
  auto Found = discoverInputs(Request);
  Time = Clock.stop(0);
  if (!Found)
    return Found.takeError();
  for (const SkippedInput &S : Found->Skipped)
    llvm::errs() << "cu2dcu: warning: skipped '" << S.Display << "': " << S.Reason << "\n";
  if (Inputs.size() == 1 && llvm::sys::fs::is_directory(Inputs.front()) && !OutputPath.empty() &&
      !DryRun && llvm::sys::fs::exists(OutputPath) && !llvm::sys::fs::is_directory(OutputPath))
    return Refuse("-o '" + OutputPath + "' exists and is not a directory");
  return Found;
}

/// The driver's settings from the options.
RunSettings makeSettings(const HipTarget &Target, const CudaToolchain &Toolchain,
                         const BuildFlagMap *BuildRules, const Discovery &Found) {
  RunSettings Settings;
  Settings.Translation.TargetHip = Target.Version;
  Settings.Translation.KeepLaunchSyntax = KeepLaunchSyntax;
  Settings.Translation.FixWave64 = FixWave64;
  Settings.Translation.StrictMasks = StrictMasks;
  Settings.Mode = Mode;
  Settings.Jobs = Jobs;
  Settings.ParseTimeoutSeconds = ParseTimeout;
  Settings.SharePch = !NoPch;
  Settings.Toolchain = Toolchain;
  Settings.BuildRules = BuildRules;
  if (!OffloadArchs.empty())
    Settings.Build.OffloadArchs.assign(OffloadArchs.begin(), OffloadArchs.end());
  Settings.Translation.OffloadArchs = Settings.Build.OffloadArchs;
  Settings.Build.InputRoot = Found.Root;
  Settings.Build.OutputRoot = Found.OutputRoot;
  std::string HipToolchain = joinPath(MappingsDir, "buildfiles/hip-toolchain.cmake");
  if (BuildRules && llvm::sys::fs::exists(HipToolchain))
    Settings.HipToolchainFile = HipToolchain;
  return Settings;
}

/// --progress (default on a terminal outside CI): a line of parsed units.
void showProgress(RunSettings &Settings, size_t FileCount) {
  if (!Progress && (Quiet || !isatty(STDERR_FILENO) || std::getenv("CI")))
    return;
  llvm::errs() << "cu2dcu: translating " << FileCount << " files with " << Jobs << " job(s)\n";
  // One line, rewritten in place on a terminal, a line per 10% elsewhere.
  const bool Terminal = isatty(STDERR_FILENO);
  Settings.OnProgress = [Terminal](size_t Done, size_t Total) {
    if (Terminal)
      llvm::errs() << "\r  parsed " << Done << "/" << Total << (Done == Total ? "\n" : "");
    else if (Done == Total || Done * 10 / Total != (Done - 1) * 10 / Total)
      llvm::errs() << "  parsed " << Done << "/" << Total << "\n";
  };
}

/// --mode=ast: a file that fell back to the lexical pass fails the run.
bool everyFileParsed(const RunResult &Run) {
  for (const FileReport &F : Run.Files)
    if (F.Mode == ParseMode::Lexical) {
      llvm::errs() << "cu2dcu: error: " << F.Input.Display << " does not parse: " << F.ModeReason
                   << "\n";
      return false;
    }
  return true;
}

/// Writes the output tree (-o) or the inputs (--in-place); stage 5a.
std::vector<WriteFailure> writeResults(RunResult &Run) {
  StageClock Clock;
  std::vector<WriteFailure> Failures;
  if (!DryRun && !OutputPath.empty())
    Failures = writeOutputs(Run);
  else if (!DryRun && InPlace)
    Failures = writeInPlace(Run);
  Run.Times[Stage::Write] += Clock.stop(DryRun || OutputPath.empty() ? 0 : Run.Files.size());
  return Failures;
}

/// What every report shows besides the run (the statistics, finding states
/// and gate are the report stage's).
ReportContext makeReportContext(const RunResult &Run, const Discovery &Found,
                                const SplitCommandLine &Args, const HipTarget &Target) {
  ReportContext Report;
  Report.Run = &Run;
  Report.ToolVersion = CU2DCU_VERSION;
  Report.LlvmVersion = LLVM_VERSION_STRING;
  Report.InputRoot = Found.Root;
  Report.OutputPath = DryRun ? std::string() : OutputPath.getValue();
  Report.DocsBase = DocsUrl.empty() ? defaultDocsBase() : DocsUrl.getValue();
  if (!Report.DocsBase.empty() && Report.DocsBase.back() != '/')
    Report.DocsBase += '/';
  for (size_t I = 1; I < Args.ToolArgs.size(); ++I)
    Report.Arguments.push_back(Args.ToolArgs[I]);
  Report.Options = reportOptions(Args.CompilerArgs, Target);
  return Report;
}

/// Writes the report files asked for (--json, --sarif, --html, --stats-csv,
/// --write-baseline) and lists them in Written; the first error, or empty.
std::string writeReports(const ReportContext &Report, std::vector<std::string> &Written) {
  std::string ReportError;
  auto Emit = [&](const std::string &Path, llvm::function_ref<void(llvm::raw_ostream &)> Write) {
    if (Path.empty() || !ReportError.empty())
      return;
    if (writeReportFile(Path, Write, ReportError) && Path != "-")
      Written.push_back(Path);
  };
  Emit(JsonPath, [&](llvm::raw_ostream &OS) {
    OS << llvm::formatv("{0:2}", buildJsonReport(Report)) << "\n";
  });
  Emit(SarifPath, [&](llvm::raw_ostream &OS) {
    OS << llvm::formatv("{0:2}", buildSarifReport(Report)) << "\n";
  });
  Emit(HtmlPath, [&](llvm::raw_ostream &OS) { writeHtmlReport(Report, OS); });
  Emit(StatsCsvPath, [&](llvm::raw_ostream &OS) { writeStatsCsv(Report, OS); });
  Emit(SummaryMdPath, [&](llvm::raw_ostream &OS) { writeMarkdownSummary(Report, OS); });
  if (ReportError.empty() && !WriteBaselinePath.empty()) {
    if (llvm::Error E = writeBaseline(WriteBaselinePath, *Report.Run, *Report.States,
                                      CU2DCU_VERSION))
      ReportError = llvm::toString(std::move(E));
    else
      Written.push_back(WriteBaselinePath);
  }
  return ReportError;
}

/// The findings and the summary on stderr (--quiet: errors only).
void printOutcome(const ReportContext &Report, const std::vector<std::string> &Written) {
  const RunResult &Run = *Report.Run;
  const FindingStates &States = *Report.States;
  if (Quiet) {
    printDiagnostics(Run, llvm::errs(), &States.Baselined, Severity::Error);
    // Files that could not be read or written are errors too.
    for (const FileReport &F : Run.Files)
      if (F.Status == FileStatus::Failed)
        llvm::errs() << "cu2dcu: error: failed: " << F.Input.Display << ": " << F.ModeReason
                     << "\n";
    return;
  }
  printDiagnostics(Run, llvm::errs(), &States.Baselined);
  std::string Hint = OutputPath.empty() || DryRun ? "" : "output in " + OutputPath;
  for (const std::string &W : Written)
    Hint += (Hint.empty() ? "" : ", ") + W;
  printSummary(Run, *Report.Stats, llvm::errs(), Hint, &States);
  for (const std::string &Reason : Report.Gate->Reasons)
    llvm::errs() << "  gate: failed: " << Reason << "\n";
}

/// Stage 5b: --diff, the statistics, the finding states and the gate, the
/// report files and the summary; the exit status of the run.
int report(RunResult &Run, const std::vector<WriteFailure> &WriteFailures, const Baseline *Known,
           ReportContext Report, std::chrono::steady_clock::time_point RunStart) {
  StageClock ReportClock;
  if (ShowDiff) {
    std::string Error;
    if (!printUnifiedDiffs(Run, llvm::outs(), Error))
      return usageError(Error);
  }
  RunStatistics Stats = computeStatistics(Run);
  FindingStates States = classifyFindings(Run, Known);
  GateResult Gate = evaluateGate(Run, States, FailOn,
                                 MaxWarnings.getNumOccurrences()
                                     ? std::optional<unsigned>(MaxWarnings.getValue())
                                     : std::nullopt);
  // Every report reads the same RunResult, statistics and finding states.
  Report.Stats = &Stats;
  Report.States = &States;
  Report.Gate = &Gate;
  std::vector<std::string> Written;
  std::string ReportError = writeReports(Report, Written);
  printOutcome(Report, Written);
  if (TimeReport) {
    Run.Times[Stage::Report] += ReportClock.stop();
    printTimeReport(Run.Times, Jobs, RunStart, llvm::errs());
  }
  if (!ReportError.empty())
    return usageError(ReportError);
  if (Stats.Failed > 0 || !WriteFailures.empty())
    return ExitUsage;
  return Gate.Failed ? ExitFindings : ExitOk;
}

/// What every unit key covers besides the run's options: this binary, the
/// tool and LLVM versions, the maps, and the environment variables that
/// change clang's header search (any change to them parses again).
std::string storeSalt() {
  std::vector<std::string> Inputs{llvm::sys::fs::getMainExecutable(nullptr, nullptr),
                                  MappingsDir.getValue()};
  llvm::append_range(Inputs, ExtraMaps);
  std::string Salt = digestOfTrees(Inputs) + CU2DCU_VERSION " " LLVM_VERSION_STRING;
  for (const char *Variable : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"}) {
    const char *Value = std::getenv(Variable);
    Salt += std::string(" ") + Variable + "=" + (Value ? Value : "");
  }
  return Salt;
}

/// The run's unit store: the cache, unless --no-cache or a test's injected
/// faults (which a reused outcome would hide), and the outcomes of the
/// shards being merged; null when there is neither.
std::unique_ptr<UnitStore> makeUnitStore(std::vector<StoredUnit> Handed) {
  std::string Dir;
  if (!NoCache && !std::getenv("CU2DCU_TEST_FAULT"))
    Dir = CacheDirectory.empty() ? defaultUnitCacheDirectory() : CacheDirectory.getValue();
  if (Dir.empty() && Handed.empty() && ShardText.empty())
    return nullptr;
  auto Store = std::make_unique<UnitStore>(Dir);
  for (StoredUnit &Unit : Handed)
    Store->add(std::move(Unit));
  return Store;
}

/// After the translation: the cache pruned, and a merge's note of the units
/// that no shard had.
void finishReuse(const UnitStore *Store, bool Merging) {
  if (!Store)
    return;
  Store->prune(uint64_t(CacheLimitMiB) << 20);
  if (Merging && !Quiet && Store->used().size() > Store->hits())
    llvm::errs() << "cu2dcu: note: parsed " << Store->used().size() - Store->hits()
                 << " unit(s) no shard had (headers no unit includes, or changed files)\n";
}

/// --shard: parses the share and writes its outcomes; the merge does the rest.
int runShard(ShardSpec Shard, const Discovery &Found, const ApiMap &Map,
             const RunSettings &Settings, const SplitCommandLine &Args) {
  parseShard(Found, Map, Settings, Shard);
  Settings.Store->prune(uint64_t(CacheLimitMiB) << 20);
  std::vector<std::string> ToolArgs(Args.ToolArgs.begin() + 1, Args.ToolArgs.end());
  const std::vector<StoredUnit> &Units = Settings.Store->used();
  if (llvm::Error E = writeShardFile(JsonPath, Shard, ToolArgs, Args.CompilerArgs, Units,
                                     CU2DCU_VERSION))
    return usageError("cannot write '" + JsonPath + "': " + llvm::toString(std::move(E)));
  if (!Quiet)
    llvm::errs() << "cu2dcu: shard " << Shard.Index << "/" << Shard.Count << ": " << Units.size()
                 << " unit(s), " << Settings.Store->hits() << " from the cache, in " << JsonPath
                 << "; `cu2dcu merge-reports` writes the output and the reports\n";
  return ExitOk;
}

/// --shard's value, checked before any work; nullopt without --shard.
llvm::Expected<std::optional<ShardSpec>> shardOption() {
  if (ShardText.empty())
    return std::nullopt;
  auto Shard = parseShardSpec(ShardText);
  if (!Shard)
    return Shard.takeError();
  if (JsonPath.empty() || JsonPath == "-")
    return llvm::createStringError(std::errc::invalid_argument,
                                   "--shard writes its units to a file: give --json FILE");
  return std::optional<ShardSpec>(*Shard);
}

/// The pipeline: options, maps, discover, translate, write, report. Handed:
/// the outcomes of the shards being merged.
int run(int Argc, const char **Argv, std::vector<StoredUnit> Handed = {}) {
  // Colours only where stderr is a terminal that shows them.
  llvm::errs().enable_colors(llvm::errs().has_colors());
  SplitCommandLine Args = splitAtDashDash(Argc, Argv);
  if (!parseToolOptions(Args.ToolArgs))
    return ExitUsage;
  std::string TargetError;
  auto Target = resolveHipTarget(HipVersionText, joinPath(MappingsDir, "profiles"), TargetError);
  if (!Target)
    return usageError(TargetError);
  if (Jobs == 0)
    return usageError("-j must be at least 1");
  if (Restore)
    return restoreCommand();
  if (!ExplainName.empty())
    return explainCommand(*Target);
  auto Shard = shardOption();
  if (!Shard)
    return usageError(llvm::toString(Shard.takeError()));
  if (std::string Conflict = outputConflict(); !Conflict.empty() && !*Shard)
    return usageError(Conflict);

  const auto RunStart = std::chrono::steady_clock::now(); // --time-report
  StageClock MapsClock;
  ApiMap Map;
  BuildFlagMap BuildRules;
  const BuildFlagMap *UsedBuildRules = nullptr;
  if (std::string Error = loadMaps(*Target, Map, BuildRules, UsedBuildRules); !Error.empty())
    return usageError(Error);
  const StageTime MapsTime = MapsClock.stop();
  auto Known = readKnownFindings();
  if (!Known)
    return usageError(llvm::toString(Known.takeError()));

  const CudaToolchain Toolchain = CudaToolchain::locate(CudaPath);
  StageTime DiscoverTime;
  auto Found = discover(Args.CompilerArgs, Toolchain, UsedBuildRules, DiscoverTime);
  if (!Found)
    return usageError(llvm::toString(Found.takeError()));
  RunSettings Settings = makeSettings(*Target, Toolchain, UsedBuildRules, *Found);
  if (Mode == ModeChoice::Ast && !Settings.Toolchain.found())
    return usageError("--mode=ast needs CUDA headers: " + Settings.Toolchain.Why);
  const bool Merging = !Handed.empty();
  std::unique_ptr<UnitStore> Store = makeUnitStore(std::move(Handed));
  Settings.Store = Store.get();
  if (Store)
    Settings.StoreSalt = storeSalt();
  showProgress(Settings, Found->Files.size());
  if (*Shard)
    return runShard(**Shard, *Found, Map, Settings, Args);

  RunResult Run = translateAll(*Found, Map, Settings);
  finishReuse(Store.get(), Merging);
  if (Mode == ModeChoice::Ast && !everyFileParsed(Run))
    return ExitFindings;
  Run.Times[Stage::Maps] += MapsTime;
  Run.Times[Stage::Discover] += DiscoverTime;
  std::vector<WriteFailure> WriteFailures = writeResults(Run);
  return report(Run, WriteFailures, *Known ? &**Known : nullptr,
                makeReportContext(Run, *Found, Args, *Target), RunStart);
}

} // namespace

/// `cu2dcu merge-reports SHARD.json... [options]`: the run the shards split,
/// with their outcomes.
int mergeReports(int Argc, const char **Argv) {
  MergeRequest Request =
      splitMergeArguments(std::vector<std::string>(Argv + 2, Argv + Argc));
  auto Merged = readShards(Request, CU2DCU_VERSION);
  if (!Merged)
    return usageError(llvm::toString(Merged.takeError()));
  std::vector<std::string> Line{Argv[0]};
  llvm::append_range(Line, Merged->ToolArgs);
  if (!Merged->CompilerArgs.empty()) {
    Line.push_back("--");
    llvm::append_range(Line, Merged->CompilerArgs);
  }
  std::vector<const char *> MergedArgv;
  for (const std::string &Arg : Line)
    MergedArgv.push_back(Arg.c_str());
  return run(int(MergedArgv.size()), MergedArgv.data(), std::move(Merged->Units));
}

int main(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  llvm::sys::PrintStackTraceOnErrorSignal(Argv[0]);
  try {
    if (Argc > 1 && llvm::StringRef(Argv[1]) == "merge-reports")
      return mergeReports(Argc, Argv);
    return run(Argc, Argv);
  } catch (const std::exception &E) {
    llvm::errs() << "cu2dcu: internal error: " << E.what() << "\n";
    return ExitInternal;
  }
}
