// cu2dcu: ports CUDA source trees to HIP for Hygon DCU and AMD GPUs.
//
// The command line is parsed with llvm::cl rather than CommonOptionsParser
// because inputs may be directories and -p may come without inputs.

#include "discover/InputDiscovery.h"
#include "driver/Translator.h"
#include "output/OutputWriter.h"
#include "report/Statistics.h"
#include "report/TextReport.h"
#include "report/UnifiedDiff.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <unistd.h>

using namespace cu2dcu;
namespace cl = llvm::cl;

namespace {

enum ExitCode { ExitOk = 0, ExitFindings = 1, ExitUsage = 2, ExitInternal = 3 };
enum class FailLevel { Error, Warning, Note, Never };

cl::OptionCategory Category("cu2dcu options");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<file or directory>..."), cl::cat(Category));
cl::opt<std::string> OutputPath("o", cl::desc("Output file or directory"), cl::value_desc("path"),
                                cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory with compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> CudaPath("cuda-path", cl::desc("CUDA installation to parse against "
                                                    "(default: $CUDA_PATH, /usr/local/cuda)"),
                              cl::cat(Category));
cl::list<std::string> ExtraMaps("map", cl::desc("Additional YAML API map (repeatable); "
                                                "overrides shipped entries"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> MappingsDir("mappings", cl::desc("Directory of the shipped API maps"),
                                 cl::init(CU2DCU_DEFAULT_MAPPINGS), cl::cat(Category));
cl::opt<std::string> HipVersionText("hip-version", cl::desc("Target HIP version MAJOR.MINOR"),
                                    cl::init("5.2"), cl::cat(Category));
cl::opt<bool> DryRun("dry-run", cl::desc("Translate and report, write nothing"), cl::cat(Category));
cl::opt<bool> ShowDiff("diff", cl::desc("Print a unified diff of every change on stdout"),
                       cl::cat(Category));
cl::opt<bool> KeepLaunchSyntax("keep-launch-syntax",
                               cl::desc("Keep kernel<<<...>>>() instead of hipLaunchKernelGGL"),
                               cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Parallel translation jobs (output is identical for any N)"),
                       cl::init(1), cl::Prefix, cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Print only errors"), cl::cat(Category));
cl::opt<bool> Progress("progress", cl::desc("Show a progress line (default: on a terminal "
                                            "outside CI)"),
                       cl::cat(Category));
cl::opt<ModeChoice> Mode("mode", cl::desc("How files are parsed"),
                         cl::values(clEnumValN(ModeChoice::Auto, "auto",
                                               "AST, falling back to lexical per file"),
                                    clEnumValN(ModeChoice::Ast, "ast", "AST only; parse errors fail"),
                                    clEnumValN(ModeChoice::Lexical, "lexical", "lexical only")),
                         cl::init(ModeChoice::Auto), cl::cat(Category));
cl::opt<FailLevel> FailOn("fail-on", cl::desc("Exit with 1 when findings reach this level"),
                          cl::values(clEnumValN(FailLevel::Error, "error", "errors (default)"),
                                     clEnumValN(FailLevel::Warning, "warning", "warnings or worse"),
                                     clEnumValN(FailLevel::Note, "note", "any finding"),
                                     clEnumValN(FailLevel::Never, "never", "never")),
                          cl::init(FailLevel::Error), cl::cat(Category));

void printVersion(llvm::raw_ostream &OS) {
  OS << "cu2dcu " << CU2DCU_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

int usageError(const llvm::Twine &Message) {
  llvm::errs() << "cu2dcu: error: " << Message << "\n";
  return ExitUsage;
}

bool reachesFailLevel(const Diagnostic &D) {
  switch (FailOn) {
  case FailLevel::Error:
    return D.Level == Severity::Error;
  case FailLevel::Warning:
    return D.Level != Severity::Note;
  case FailLevel::Note:
    return true;
  case FailLevel::Never:
    return false;
  }
  return false;
}

int run(int Argc, const char **Argv) {
  // Colours only where stderr is a terminal that shows them.
  llvm::errs().enable_colors(llvm::errs().has_colors());
  // Everything after `--` is compiler arguments for every file.
  std::vector<const char *> ToolArgs;
  std::vector<std::string> CompilerArgs;
  bool AfterDashDash = false;
  for (int I = 0; I < Argc; ++I) {
    if (!AfterDashDash && llvm::StringRef(Argv[I]) == "--" && I > 0) {
      AfterDashDash = true;
      continue;
    }
    if (AfterDashDash)
      CompilerArgs.push_back(Argv[I]);
    else
      ToolArgs.push_back(Argv[I]);
  }
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  llvm::raw_string_ostream ErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(ToolArgs.size(), ToolArgs.data(),
                                   "Ports CUDA source trees to HIP for Hygon DCU and AMD GPUs.\n\n"
                                   "  cu2dcu src/ -o out/\n"
                                   "  cu2dcu kernel.cu -o kernel.hip.cpp\n"
                                   "  cu2dcu -p build/ -o out/\n",
                                   &ErrorStream)) {
    llvm::errs() << ParseErrors;
    return ExitUsage;
  }

  auto Target = HipVersion::parse(HipVersionText);
  if (!Target)
    return usageError("--hip-version must be MAJOR.MINOR, got '" + HipVersionText + "'");
  if (Jobs == 0)
    return usageError("-j must be at least 1");
  if (OutputPath.empty() && !DryRun && !ShowDiff)
    return usageError("no output: give -o, or --dry-run / --diff to translate without writing");

  ApiMap Map;
  Map.loadDirectory(MappingsDir);
  for (const std::string &Extra : ExtraMaps)
    Map.loadFile(Extra);
  for (const MapLoadIssue &Issue : Map.issues())
    if (Issue.IsError || !Quiet)
      llvm::errs() << Issue.File << ":" << Issue.Line << ":" << Issue.Column << ": "
                   << (Issue.IsError ? "error: " : "note: ") << Issue.Message << "\n";
  if (Map.hasErrors())
    return usageError("the API maps have errors; nothing was translated");

  DiscoveryRequest Request;
  Request.Inputs = Inputs;
  Request.Output = DryRun ? std::string() : OutputPath.getValue();
  Request.BuildPath = BuildPath;
  Request.ExtraArgs = CompilerArgs;
  if (Inputs.size() > 1 && !OutputPath.empty() && !DryRun && llvm::sys::fs::exists(OutputPath) &&
      !llvm::sys::fs::is_directory(OutputPath))
    return usageError("-o '" + OutputPath + "' must be a directory for several inputs");
  auto Found = discoverInputs(Request);
  if (!Found)
    return usageError(llvm::toString(Found.takeError()));
  if (Inputs.size() == 1 && llvm::sys::fs::is_directory(Inputs.front()) && !OutputPath.empty() &&
      !DryRun && llvm::sys::fs::exists(OutputPath) && !llvm::sys::fs::is_directory(OutputPath))
    return usageError("-o '" + OutputPath + "' exists and is not a directory");

  RunSettings Settings;
  Settings.Translation.TargetHip = *Target;
  Settings.Translation.KeepLaunchSyntax = KeepLaunchSyntax;
  Settings.Mode = Mode;
  Settings.Jobs = Jobs;
  Settings.Toolchain = CudaToolchain::locate(CudaPath);
  if (Mode == ModeChoice::Ast && !Settings.Toolchain.found())
    return usageError("--mode=ast needs CUDA headers: " + Settings.Toolchain.Why);

  const bool ShowProgress =
      Progress || (!Quiet && isatty(STDERR_FILENO) && !std::getenv("CI"));
  if (ShowProgress)
    llvm::errs() << "cu2dcu: translating " << Found->Files.size() << " files with " << Jobs
                 << " job(s)...\n";

  RunResult Run = translateAll(*Found, Map, Settings);
  if (Mode == ModeChoice::Ast)
    for (const FileReport &F : Run.Files)
      if (F.Mode == ParseMode::Lexical && F.ModeReason != "no CUDA found") {
        llvm::errs() << "cu2dcu: error: " << F.Input.Display << " does not parse: " << F.ModeReason
                     << "\n";
        return ExitFindings;
      }

  std::vector<WriteFailure> WriteFailures;
  if (!DryRun && !OutputPath.empty())
    WriteFailures = writeOutputs(Run);

  if (ShowDiff) {
    std::string Error;
    if (!printUnifiedDiffs(Run, llvm::outs(), Error))
      return usageError(Error);
  }

  RunStatistics Stats = computeStatistics(Run);
  if (!Quiet) {
    printDiagnostics(Run, llvm::errs());
    printSummary(Run, Stats, llvm::errs(), OutputPath.empty() || DryRun ? "" : "output in " + OutputPath);
  } else {
    RunResult ErrorsOnly;
    for (const Diagnostic &D : Run.Diagnostics)
      if (D.Level == Severity::Error)
        ErrorsOnly.Diagnostics.push_back(D);
    ErrorsOnly.Files = Run.Files;
    printDiagnostics(ErrorsOnly, llvm::errs());
  }

  if (Stats.Failed > 0 || !WriteFailures.empty())
    return ExitUsage;
  for (const Diagnostic &D : Run.Diagnostics)
    if (reachesFailLevel(D))
      return ExitFindings;
  return ExitOk;
}

} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  llvm::sys::PrintStackTraceOnErrorSignal(Argv[0]);
  try {
    return run(Argc, Argv);
  } catch (const std::exception &E) {
    llvm::errs() << "cu2dcu: internal error: " << E.what() << "\n";
    return ExitInternal;
  }
}
