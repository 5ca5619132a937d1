#include "driver/Translator.h"
#include "core/Paths.h"
#include "core/ResultJson.h"

#include "wave64/AmdPaths.h"
#include "wave64/DefinitionSites.h"
#include "wave64/LexicalWave64Scan.h"
#include "wave64/SharedFileFixes.h"
#include "driver/IsolatedParse.h"
#include "driver/PchPlanner.h"
#include "driver/TranslateAction.h"
#include "driver/UnitOutcome.h"
#include "translate/EntryTranslation.h"
#include "lexical/LexicalTranslator.h"
#include "translate/RawTokens.h"
#include "rewrite/EditApplier.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

namespace cu2dcu {

namespace {

/// Records where clang reports errors, and the first one, so that the AST
/// pass can mark what it recovered and a fallback can say why.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error)
      return;
    if (Info.getLocation().isValid())
      Locations.push_back(Info.getLocation());
    if (!First.empty())
      return;
    llvm::SmallString<256> Message;
    Info.FormatDiagnostic(Message);
    First = Message.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      clang::PresumedLoc P = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (P.isValid())
        First = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) + ": " + First;
    }
  }
  std::string First;
  std::vector<clang::SourceLocation> Locations;
};

/// The files a parse looked up, with those of the PCHs it loaded (clang
/// looks up a PCH's project headers again, its system headers not), less
/// the PCHs themselves, which every run builds anew.
std::vector<std::string> filesRead(const clang::FileManager &Files, const SharedPch *Pch) {
  std::vector<std::string> Found = filesLookedUp(Files);
  std::set<std::string> Reads(Found.begin(), Found.end()), Generated;
  for (const SharedPch *P = Pch; P; P = P->Base) {
    Generated.insert({P->PchPath, P->HeaderPath});
    Reads.insert(P->Reads.begin(), P->Reads.end());
  }
  std::vector<std::string> Kept;
  llvm::copy_if(Reads, std::back_inserter(Kept),
                [&](const std::string &Path) { return !Generated.count(Path); });
  return Kept;
}

/// Parses one file as CUDA and runs every matcher over it, with the shared
/// PCH of Choice if it has one. An AST that clang recovered from errors is
/// kept (ParseMode::AstRecovered).
UnitOutcome translateUnit(const InputFile &File, const ApiMap &Map, const RunSettings &Settings,
                          const std::function<bool(const std::string &)> &IsTranslated,
                          const PchPlanner::Choice *Choice = nullptr) {
  UnitOutcome Outcome;
  StageClock Clock;
  ErrorCollector Errors;
  TranslationUnitSetup Setup{Map, Settings.Translation, IsTranslated,
                             Settings.Toolchain.found() ? joinPath(Settings.Toolchain.CudaPath, "include")
                                                        : std::string(),
                             &Outcome.Match, /*OnBeginSource=*/{}, /*Pch=*/nullptr,
                             &Errors.Locations};
  const SharedPch *Pch = Choice ? Choice->Pch : nullptr;
  std::optional<PrefixCheck> Check;
  if (Pch) {
    Check.emplace(Choice->Prefix, *Pch);
    Setup.OnBeginSource = [&](clang::CompilerInstance &CI) { Check->attach(CI); };
    Setup.Pch = Pch;
    // What the preprocessor found in the PCH's project headers, first, as if
    // this parse had entered them.
    Outcome.Result.Files = Pch->Translated.Files;
  }
  std::vector<std::string> Args =
      Pch ? cudaParseArgsWithPch(Settings.Toolchain, File.Source, File.CompileFlags, *Pch)
          : cudaParseArgs(Settings.Toolchain, File.Source, File.CompileFlags);
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions()));
  clang::tooling::ToolInvocation Invocation(Args, makeTranslateAction(Setup, Outcome.Result),
                                            Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  Invocation.run();
  Outcome.Reads = filesRead(*Files, Pch);
  // Parse is the whole invocation less the AST pass, which ran inside it.
  Outcome.Parse = Clock.stop();
  Outcome.Parse.Wall -= Outcome.Match.Wall;
  Outcome.Parse.Cpu -= Outcome.Match.Cpu;
  const bool AstPassRan = Outcome.Match.Count > 0;
  if (Pch && (!AstPassRan || !Check->verified())) {
    // The PCH did not stand in exactly for the headers: what counts is the
    // parse without it.
    UnitOutcome Again = translateUnit(File, Map, Settings, IsTranslated);
    Again.Parse += Outcome.Parse; // the wasted attempt is parse time too
    Again.Parse.Count = 1;
    Again.Match += Outcome.Match;
    Again.Match.Count = 1;
    Again.PchRejected = true;
    return Again;
  }
  Outcome.UsedPch = Pch != nullptr;
  if (Errors.getNumErrors() == 0 && AstPassRan)
    return Outcome;
  Outcome.Result.Failure = ParseFailure::Errors;
  Outcome.Result.FallbackReason =
      Errors.First.empty() ? "clang could not parse the file" : Errors.First;
  if (AstPassRan) {
    Outcome.Result.Mode = ParseMode::AstRecovered;
  } else {
    Outcome.Result.Files.clear();
    Outcome.Result.Mode = ParseMode::Lexical;
  }
  return Outcome;
}

UnitOutcome decodeOutcome(const IsolatedOutcome &Isolated, const std::string &Display) {
  if (Isolated.Ok) {
    if (llvm::Expected<UnitOutcome> Decoded = llvm::json::parse<UnitOutcome>(Isolated.Payload))
      return std::move(*Decoded);
    else
      llvm::consumeError(Decoded.takeError());
  }
  UnitOutcome O;
#ifdef CU2DCU_SANITIZED
  // In a sanitizer build a parser process that exits with a status of its
  // own has printed a sanitizer report: that must fail the run.
  if (Isolated.ExitStatus)
    throw std::runtime_error("the parser process for " + Display + " exited with status " +
                             std::to_string(Isolated.ExitStatus) + " (see the report above)");
#endif
  O.Result.Mode = ParseMode::Lexical;
  O.Result.Failure = Isolated.TimedOut ? ParseFailure::Timeout : ParseFailure::Crash;
  O.Result.FallbackReason =
      Isolated.Ok ? "the parser process sent malformed data" : Isolated.Failure;
  return O;
}

/// The edits and findings of the lexical rules inside Ranges of a file that
/// an AST translated (where clang recovered from errors, or what the AST does
/// not hold), where they do not touch what the AST did.
FileFindings lexicalFillIn(const LexicalTranslator &Lexical, const FileReport &R,
                           const std::vector<ByteRange> &Ranges, const FileFindings &FromAst) {
  FileFindings Lexed;
  std::set<std::string> IncludedHip;
  for (const ByteRange &Range : Ranges)
    Lexical.translateRange(R.Original, Range.Begin, std::min<size_t>(Range.End, R.Original.size()),
                           R.Input.Source, Lexed, IncludedHip);
  auto OverlapsAst = [&](const Edit &E) {
    return llvm::any_of(FromAst.Edits, [&](const Edit &A) {
      return E.Offset < A.Offset + std::max(A.Length, 1u) &&
             A.Offset < E.Offset + std::max(E.Length, 1u);
    });
  };
  FileFindings Kept;
  for (Edit &E : Lexed.Edits)
    if (!OverlapsAst(E))
      Kept.Edits.push_back(std::move(E));
  for (Diagnostic &D : Lexed.Diagnostics)
    if (llvm::none_of(FromAst.Diagnostics, [&](const Diagnostic &A) {
          return A.Offset == D.Offset && A.CheckId == D.CheckId;
        }))
      Kept.Diagnostics.push_back(std::move(D));
  return Kept;
}

/// translateAll in named steps: read the inputs, parse waves of units,
/// decide per file which result stands, apply the edits.
class Pipeline {
public:
  Pipeline(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Given)
      : Map(Map), Settings(Given), Lexical(Map, Settings.Translation) {
    Run.Files.reserve(Inputs.Files.size());
    for (const InputFile &F : Inputs.Files) {
      IndexOf[F.Source] = Run.Files.size();
      FileReport R;
      R.Input = F;
      Run.Files.push_back(std::move(R));
    }
  }

  RunResult run() {
    auto Start = std::chrono::steady_clock::now();
    std::vector<size_t> Units, Headers;
    prepare(Units, Headers);
    settle(Units, parseWave(Units));
    // Headers no cleanly parsed unit included are parsed on their own.
    std::vector<size_t> Alone;
    for (size_t I : Headers)
      if (!takeFromIncluders(Run.Files[I]))
        Alone.push_back(I);
    settle(Alone, parseWave(Alone));
    applyAll();
    addBuildCommands();
    Run.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    return std::move(Run);
  }

  void parseShare(ShardSpec Shard) {
    std::vector<size_t> Units, Headers, Share;
    prepare(Units, Headers);
    for (size_t I = 0; I < Units.size(); ++I)
      if (I % Shard.Count == Shard.Index - 1)
        Share.push_back(Units[I]);
    parseWave(Share);
  }

private:
  void prepare(std::vector<size_t> &Units, std::vector<size_t> &Headers) {
    readInputs(Units, Headers);
    UseAst = Settings.Mode != ModeChoice::Lexical && Settings.Toolchain.found();
    if (UseAst && Settings.SharePch)
      Pchs.emplace(Map, Settings, IsTranslated);
    if (Settings.Store)
      RunDigest = runDigest();
  }
  void readInputs(std::vector<size_t> &Units, std::vector<size_t> &Headers);
  std::string runDigest() const;
  std::string unitKey(const InputFile &File) const;
  std::vector<UnitOutcome> parseWave(const std::vector<size_t> &Wave);
  std::vector<UnitOutcome> parseFresh(const std::vector<size_t> &Wave);
  std::vector<UnitOutcome> parseIsolated(const std::vector<size_t> &Wave,
                                         const std::vector<PchPlanner::Choice> &Choices);
  std::vector<UnitOutcome> parseInProcess(const std::vector<size_t> &Wave,
                                          const std::vector<PchPlanner::Choice> &Choices);
  void settle(const std::vector<size_t> &Wave, std::vector<UnitOutcome> Outcomes);
  void takeRecovered(FileReport &R, TranslationResult &Result);
  bool takeFromIncluders(FileReport &R);
  void collect(const TranslationResult &Result);
  void noteRelocatableDeviceCode(const FileReport &R, const TranslationResult &Result);
  void translateLexically(FileReport &R, ParseFailure Failure, std::string Reason);
  void applyAll();
  void addWave64Definitions();
  void addExplicitInstantiations();
  void addInsertions(const FileReport &R, std::vector<Edit> &Edits) const;
  bool translateBuildFile(FileReport &R);
  std::set<std::string> linkLibrariesUnder(const std::string &Folder);
  void addBuildCommands();
  void dropShimBlockChanges(const FileReport &R, std::vector<Edit> &Edits);
  void addFinding(const FileReport &R, unsigned Offset, const char *CheckId, Severity Level,
                  std::string Message) {
    FileFindings Sink;
    cu2dcu::addFinding(Sink, R.Original, R.Input.Display, Offset, CheckId, Level,
                       std::move(Message));
    Diagnostics.push_back(Sink.Diagnostics.front());
  }

  const ApiMap &Map;
  RunSettings Settings;
  LexicalTranslator Lexical;
  RunResult Run;
  llvm::StringMap<size_t> IndexOf;
  bool UseAst = false;
  std::optional<PchPlanner> Pchs;
  std::string RunDigest; // with a Store: what every unit key covers
  FileDigests Digests;
  /// A read file's state as a stored outcome records it.
  std::function<std::string(const std::string &)> ReadState = [this](const std::string &Path) {
    return Digests.of(Path) + (IsTranslated(Path) ? "+translated" : "");
  };
  std::function<bool(const std::string &)> IsTranslated = [this](const std::string &Path) {
    auto It = IndexOf.find(Path);
    return It != IndexOf.end() && Run.Files[It->second].Input.Action == FileAction::Translate;
  };
  std::map<std::string, std::vector<Edit>> EditsByFile;
  SharedFileFixes SharedFixes; // --fix-wave64: shared files fixed for all units or none
  std::vector<Diagnostic> Diagnostics;
  /// Files a clean AST covered, with the unit that covered them first.
  std::map<std::string, std::string> CleanIncluder;
  /// Files a recovered AST covered (and no clean one): the unit whose
  /// result stands for them, and whether they hold recovered code.
  std::map<std::string, std::pair<std::string, bool>> RecoveredIncluder;
  /// Units that use device code another unit defines (CU2DCU-RDC).
  std::set<std::string> RelocatableUnits;
  /// The link libraries each translated file's HIP headers need (a header
  /// entry's `link`), by file; filled for the first build file.
  std::optional<std::map<std::string, std::set<std::string>>> LinkLibraries;
};

void Pipeline::readInputs(std::vector<size_t> &Units, std::vector<size_t> &Headers) {
  // Read every file to translate; decide which need a parse at all.
  StageClock DiscoverClock;
  for (size_t I = 0; I < Run.Files.size(); ++I) {
    FileReport &R = Run.Files[I];
    auto Text = readInputFile(R.Input.Source);
    if (!Text) {
      R.Status = FileStatus::Failed;
      R.ModeReason = llvm::toString(Text.takeError());
      continue;
    }
    R.Original = std::move(*Text);
    if (R.Input.Action == FileAction::Copy)
      continue;
    R.Mode = ParseMode::Lexical;
    if (R.Original.find('\0') != std::string::npos) {
      R.Input.Action = FileAction::Copy; // binary content with a source name
      R.Mode = ParseMode::Copy;
      R.ModeReason = "binary file copied unchanged";
      continue;
    }
    if (!Lexical.mentionsCuda(R.Original)) {
      R.Mode = ParseMode::None;
      R.ModeReason = "no CUDA found";
      // Nothing to translate, but a warp size may still be defined here.
      TranslationResult Scanned;
      scanWave64Lexically(R.Original, R.Input.Source, Map, Scanned.at(R.Input.Source));
      collect(Scanned);
      continue;
    }
    (R.Input.IsHeader ? Headers : Units).push_back(I);
  }
  Run.Times[Stage::Discover] += DiscoverClock.stop(Run.Files.size());
  // The project's own macros, for the lexical pass (core/Options.h).
  auto Macros = std::make_shared<std::set<std::string>>();
  auto Names = std::make_shared<std::set<std::string>>();
  for (const FileReport &R : Run.Files)
    if (R.Status != FileStatus::Failed && R.Input.Action == FileAction::Translate) {
      Lexical.collectProjectNames(R.Original, *Macros, *Names);
    }
  Settings.Translation.ProjectMacros = std::move(Macros);
  Settings.Translation.ProjectNames = std::move(Names);
}

std::string Pipeline::runDigest() const {
  const TranslationOptions &T = Settings.Translation;
  std::string Text = Settings.StoreSalt;
  llvm::raw_string_ostream OS(Text);
  OS << '\0' << T.TargetHip.str() << T.KeepLaunchSyntax << T.FixWave64 << T.StrictMasks << '\0'
     << Settings.Toolchain.CudaPath << '\0' << llvm::join(T.OffloadArchs, " ");
  for (const auto *Names : {T.ProjectMacros.get(), T.ProjectNames.get()}) {
    OS << '\0';
    for (const std::string &Name : *Names)
      OS << Name << ' ';
  }
  return digestOf(Text);
}

std::string Pipeline::unitKey(const InputFile &File) const {
  std::string Text = RunDigest + '\0' + File.Source;
  for (const std::string &Flag : File.CompileFlags)
    Text += '\0' + Flag;
  return digestOf(Text);
}

/// The wave's outcomes: from the Store where it has them, else parsed.
std::vector<UnitOutcome> Pipeline::parseWave(const std::vector<size_t> &Wave) {
  if (!UseAst) {
    std::vector<UnitOutcome> None(Wave.size());
    for (UnitOutcome &O : None)
      O.Result.Mode = ParseMode::Lexical;
    return None;
  }
  std::vector<UnitOutcome> Outcomes(Wave.size());
  std::vector<std::string> Keys(Wave.size());
  std::vector<size_t> Fresh, FreshFiles; // positions in Wave, and their files
  for (size_t W = 0; W < Wave.size(); ++W) {
    if (Settings.Store) {
      Keys[W] = unitKey(Run.Files[Wave[W]].Input);
      if (std::optional<UnitOutcome> Found = Settings.Store->find(Keys[W], ReadState)) {
        Outcomes[W] = std::move(*Found);
        ++Run.Times.ReusedUnits;
        continue;
      }
    }
    Fresh.push_back(W);
    FreshFiles.push_back(Wave[W]);
  }
  std::vector<UnitOutcome> Parsed = parseFresh(FreshFiles);
  for (size_t F = 0; F < Fresh.size(); ++F) {
    if (Settings.Store)
      Settings.Store->keep(Keys[Fresh[F]], Parsed[F], ReadState);
    Outcomes[Fresh[F]] = std::move(Parsed[F]);
  }
  return Outcomes;
}

std::vector<UnitOutcome> Pipeline::parseFresh(const std::vector<size_t> &Wave) {
  // The shared PCHs for this wave (built before its units are parsed).
  std::vector<PchPlanner::Choice> Choices(Wave.size());
  if (Pchs && Wave.size() > 1) {
    std::vector<const InputFile *> Files;
    std::vector<const std::string *> Texts;
    for (size_t I : Wave) {
      Files.push_back(&Run.Files[I].Input);
      Texts.push_back(&Run.Files[I].Original);
    }
    Choices = Pchs->prepare(Files, Texts, Run.Times);
  }
  std::vector<UnitOutcome> Outcomes = Settings.ParseTimeoutSeconds > 0
                                          ? parseIsolated(Wave, Choices)
                                          : parseInProcess(Wave, Choices);
  for (const UnitOutcome &O : Outcomes) {
    Run.Times[Stage::Parse] += O.Parse;
    Run.Times[Stage::Match] += O.Match;
    Run.Times.PchUnits += O.UsedPch;
    Run.Times.PchRejected += O.PchRejected;
  }
  return Outcomes;
}

std::vector<UnitOutcome>
Pipeline::parseIsolated(const std::vector<size_t> &Wave,
                        const std::vector<PchPlanner::Choice> &Choices) {
  // Each parse in a child process: a hang or a crash costs the file its AST
  // translation, not the run (docs/robustness.md).
  size_t Done = 0;
  auto Parse = [&](const std::vector<size_t> &Which, bool WithPch) {
    return runIsolated(
        Which.size(), Settings.Jobs, Settings.ParseTimeoutSeconds,
        [&](size_t K) {
          size_t W = Which[K];
          return jsonText(toJSON(translateUnit(Run.Files[Wave[W]].Input, Map, Settings,
                                               IsTranslated, WithPch ? &Choices[W] : nullptr)));
        },
        [&](size_t K) { return Run.Files[Wave[Which[K]]].Input.Source; },
        [&](size_t) {
          if (Settings.OnProgress && WithPch)
            Settings.OnProgress(++Done, Wave.size());
        });
  };
  std::vector<size_t> All(Wave.size());
  std::iota(All.begin(), All.end(), 0);
  auto Results = Parse(All, true);
  // A parser process that died with a PCH (a crash in clang's PCH reading)
  // is run again without: the output must not depend on the PCH. A timeout
  // is not, as the parse without a PCH only takes longer.
  std::vector<size_t> Again;
  for (size_t W = 0; W < Wave.size(); ++W)
    if (!Results[W].Ok && Choices[W].Pch && !Results[W].TimedOut)
      Again.push_back(W);
  auto Retried = Parse(Again, false);
  for (size_t A = 0; A < Again.size(); ++A)
    Results[Again[A]] = std::move(Retried[A]);
  std::vector<UnitOutcome> Outcomes(Wave.size());
  for (size_t W = 0; W < Wave.size(); ++W)
    Outcomes[W] = decodeOutcome(Results[W], Run.Files[Wave[W]].Input.Display);
  for (size_t W : Again)
    Outcomes[W].PchRejected = true;
  return Outcomes;
}

std::vector<UnitOutcome>
Pipeline::parseInProcess(const std::vector<size_t> &Wave,
                         const std::vector<PchPlanner::Choice> &Choices) {
  std::vector<UnitOutcome> Outcomes(Wave.size());
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Settings.Jobs)));
  std::mutex ProgressMutex;
  size_t Done = 0;
  for (size_t W = 0; W < Wave.size(); ++W)
    Pool.async([&, W] {
      Outcomes[W] =
          translateUnit(Run.Files[Wave[W]].Input, Map, Settings, IsTranslated, &Choices[W]);
      if (Settings.OnProgress) {
        std::lock_guard<std::mutex> Lock(ProgressMutex);
        Settings.OnProgress(++Done, Wave.size());
      }
    });
  Pool.wait();
  return Outcomes;
}

/// Decides, in input order (so the output does not depend on -j), which
/// result stands for each unit of a wave: its own clean AST; else the clean
/// AST of a unit that includes it; else a recovered AST (its own or an
/// includer's) with the lexical rules filling in; else the lexical pass.
/// Each file takes its edits from one result only.
void Pipeline::settle(const std::vector<size_t> &Wave, std::vector<UnitOutcome> Outcomes) {
  for (size_t W = 0; W < Wave.size(); ++W) {
    FileReport &R = Run.Files[Wave[W]];
    R.CpuSeconds = Outcomes[W].Parse.Cpu + Outcomes[W].Match.Cpu;
    noteRelocatableDeviceCode(R, Outcomes[W].Result);
    if (Outcomes[W].Result.Mode != ParseMode::Ast)
      continue;
    R.Mode = ParseMode::Ast;
    R.ModeReason.clear();
    for (const auto &Entry : Outcomes[W].Result.Files)
      CleanIncluder.emplace(Entry.first, R.Input.Display);
    CleanIncluder.emplace(R.Input.Source, R.Input.Display);
    collect(Outcomes[W].Result);
    SharedFixes.addUnit(R.Input.Source, Outcomes[W].Result);
  }
  // Recovered units that another recovered unit includes (a .cu file meant
  // to be #included) take that unit's result: their context is the includer.
  std::set<std::string> IncludedByRecovered;
  for (size_t W = 0; W < Wave.size(); ++W)
    if (Outcomes[W].Result.Mode == ParseMode::AstRecovered)
      for (const auto &Entry : Outcomes[W].Result.Files)
        if (Entry.first != Run.Files[Wave[W]].Input.Source)
          IncludedByRecovered.insert(Entry.first);
  for (bool Included : {false, true})
    for (size_t W = 0; W < Wave.size(); ++W)
      if (Outcomes[W].Result.Mode == ParseMode::AstRecovered &&
          IncludedByRecovered.count(Run.Files[Wave[W]].Input.Source) == Included)
        takeRecovered(Run.Files[Wave[W]], Outcomes[W].Result);
  for (size_t W = 0; W < Wave.size(); ++W) {
    FileReport &R = Run.Files[Wave[W]];
    const UnitOutcome &O = Outcomes[W];
    if (O.hasAst() || takeFromIncluders(R))
      continue;
    if (!UseAst) {
      bool Asked = Settings.Mode == ModeChoice::Lexical;
      translateLexically(R, Asked ? ParseFailure::Requested : ParseFailure::NoToolchain,
                         Asked ? "--mode=lexical"
                               : "no CUDA headers: " + Settings.Toolchain.Why);
      continue;
    }
    translateLexically(R, O.Result.Failure, O.Result.FallbackReason);
  }
}

/// A unit whose AST clang recovered from errors: what it found in each file
/// no other result has covered, with the lexical rules filling in where the
/// AST was recovered.
void Pipeline::takeRecovered(FileReport &R, TranslationResult &Result) {
  if (takeFromIncluders(R))
    return;
  R.Mode = ParseMode::AstRecovered;
  R.Failure = Result.Failure;
  R.ModeReason = Result.FallbackReason;
  TranslationResult Taken;
  for (auto &[Path, Findings] : Result.Files) {
    if (CleanIncluder.count(Path) || RecoveredIncluder.count(Path))
      continue;
    RecoveredIncluder[Path] = {R.Input.Display, !Findings.RecoveredRanges.empty()};
    auto It = IndexOf.find(Path);
    if (It != IndexOf.end() && !Findings.RecoveredRanges.empty()) {
      FileFindings Lexed =
          lexicalFillIn(Lexical, Run.Files[It->second], Findings.RecoveredRanges, Findings);
      llvm::append_range(Findings.Edits, Lexed.Edits);
      llvm::append_range(Findings.Diagnostics, Lexed.Diagnostics);
    }
    Taken.Files[Path] = std::move(Findings);
  }
  RecoveredIncluder[R.Input.Source] = {R.Input.Display, true};
  collect(Taken);
  SharedFixes.addUnit(R.Input.Source, Taken);
  addFinding(R, 0, check_ids::ParseFallback, Severity::Note,
             "parsed with errors; the lexical rules filled in where clang recovered: " +
                 R.ModeReason);
}

/// A file that the AST of another unit covered: cleanly, or recovered.
bool Pipeline::takeFromIncluders(FileReport &R) {
  auto Clean = CleanIncluder.find(R.Input.Source);
  if (Clean != CleanIncluder.end()) {
    R.Mode = ParseMode::Ast;
    R.Failure = ParseFailure::None;
    R.ModeReason.clear();
    if (Clean->second != R.Input.Display)
      R.ModeReason = "parsed where " + Clean->second + " includes it";
    return true;
  }
  auto Recovered = RecoveredIncluder.find(R.Input.Source);
  if (Recovered == RecoveredIncluder.end())
    return false;
  const auto &[Includer, HasErrors] = Recovered->second;
  R.Mode = HasErrors ? ParseMode::AstRecovered : ParseMode::Ast;
  R.Failure = HasErrors ? ParseFailure::Errors : ParseFailure::None;
  R.ModeReason = "parsed where " + Includer + " (which has errors) includes it";
  return true;
}

/// A unit whose AST found device code defined in another unit: the build
/// files that compile it need relocatable device code.
void Pipeline::noteRelocatableDeviceCode(const FileReport &R, const TranslationResult &Result) {
  if (Result.Mode == ParseMode::Lexical)
    return;
  for (const auto &Entry : Result.Files)
    for (const Diagnostic &D : Entry.second.Diagnostics)
      if (D.CheckId == check_ids::Rdc) {
        RelocatableUnits.insert(R.Input.Source);
        return;
      }
}

void Pipeline::collect(const TranslationResult &Result) {
  for (const auto &[Path, Findings] : Result.Files) {
    auto &Edits = EditsByFile[Path];
    Edits.insert(Edits.end(), Findings.Edits.begin(), Findings.Edits.end());
    auto It = IndexOf.find(Path);
    for (Diagnostic D : Findings.Diagnostics) {
      if (It != IndexOf.end())
        D.File = Run.Files[It->second].Input.Display;
      if (D.Definition)
        if (auto Def = IndexOf.find(D.Definition->File); Def != IndexOf.end())
          D.Definition->File = Run.Files[Def->second].Input.Display;
      Diagnostics.push_back(std::move(D));
    }
  }
}

void Pipeline::translateLexically(FileReport &R, ParseFailure Failure, std::string Reason) {
  StageClock Clock;
  R.Mode = ParseMode::Lexical;
  R.Failure = Failure;
  R.ModeReason = std::move(Reason);
  TranslationResult Result;
  Lexical.translateFile(R.Original, R.Input.Source, Result.at(R.Input.Source));
  scanWave64Lexically(R.Original, R.Input.Source, Map, Result.at(R.Input.Source));
  collect(Result);
  Run.Times[Stage::Match] += Clock.stop();
  // A fallback the user did not ask for is worth a note on the file.
  if (Failure != ParseFailure::Requested)
    addFinding(R, 0, check_ids::ParseFallback, Severity::Note,
               "translated lexically: " + R.ModeReason);
}

/// The AST checks report a warp size or mask at its uses; the line to change
/// is its definition (#define WARP_SIZE 32): reported too, unless a check
/// already reports that line. So is what the token scan finds in code the
/// host-pass parse skipped (#ifdef __CUDA_ARCH__).
void Pipeline::addWave64Definitions() {
  std::set<std::tuple<std::string, unsigned, std::string>> Reported;
  for (const Diagnostic &D : Diagnostics)
    Reported.insert({D.File, D.Line, D.CheckId});
  for (const FileReport &R : Run.Files) {
    if (R.Mode != ParseMode::Ast && R.Mode != ParseMode::AstRecovered)
      continue;
    FileFindings Found;
    scanWave64Lexically(R.Original, R.Input.Display, Map, Found, Wave64Scan::Definitions);
    scanWave64Lexically(R.Original, R.Input.Display, Map, Found, Wave64Scan::DevicePass);
    for (Diagnostic &D : Found.Diagnostics)
      if (!Reported.count({D.File, D.Line, D.CheckId}))
        Diagnostics.push_back(std::move(D));
  }
}

/// Explicit instantiations of function templates leave no declaration in the
/// AST (`template void f<float>(cudaStream_t);`): in files an AST translated,
/// the lexical rules translate them.
void Pipeline::addExplicitInstantiations() {
  for (const FileReport &R : Run.Files) {
    if (R.Input.Action != FileAction::Translate ||
        (R.Mode != ParseMode::Ast && R.Mode != ParseMode::AstRecovered))
      continue;
    std::vector<ByteRange> Ranges = explicitInstantiationRanges(R.Original);
    if (Ranges.empty())
      continue;
    FileFindings FromAst;
    FromAst.Edits = EditsByFile[R.Input.Source];
    llvm::copy_if(Diagnostics, std::back_inserter(FromAst.Diagnostics),
                  [&](const Diagnostic &D) { return D.File == R.Input.Display; });
    FileFindings Lexed = lexicalFillIn(Lexical, R, Ranges, FromAst);
    llvm::append_range(EditsByFile[R.Input.Source], Lexed.Edits);
    for (Diagnostic &D : Lexed.Diagnostics) {
      D.File = R.Input.Display;
      Diagnostics.push_back(std::move(D));
    }
  }
}

/// A Makefile or CMake file among the copied files: translated by the
/// build-file rules; false for any other file.
bool Pipeline::translateBuildFile(FileReport &R) {
  std::optional<BuildFileKind> Kind = classifyBuildFile(R.Input.Source);
  if (!Kind || !Settings.BuildRules)
    return false;
  BuildOptions Options = Settings.Build;
  Options.Folder = llvm::sys::path::parent_path(R.Input.Source).str();
  Options.RelocatableUnits = RelocatableUnits;
  Options.LinkLibraries = linkLibrariesUnder(Options.Folder);
  BuildTranslation T = cu2dcu::translateBuildFile(*Kind, R.Original, R.Input.Display,
                                                   *Settings.BuildRules, Options);
  R.Mode = ParseMode::Build;
  R.Status = T.Text == R.Original ? FileStatus::Unchanged : FileStatus::Translated;
  R.LinesChanged = T.Changes;
  R.Translated = std::move(T.Text);
  for (Diagnostic &D : T.Findings)
    Diagnostics.push_back(std::move(D));
  return true;
}

/// The link libraries (a header entry's `link`) that the HIP headers of the
/// translated files in Folder and below it need.
std::set<std::string> Pipeline::linkLibrariesUnder(const std::string &Folder) {
  if (!LinkLibraries) {
    LinkLibraries.emplace();
    for (const FileReport &R : Run.Files)
      if (R.Input.Action == FileAction::Translate && R.Mode != ParseMode::None &&
          R.Mode != ParseMode::Build && R.Status != FileStatus::Failed)
        Lexical.collectLinkLibraries(R.Original, (*LinkLibraries)[R.Input.Source]);
  }
  std::set<std::string> Under;
  for (const auto &[Path, Libraries] : *LinkLibraries)
    if (isWithin(Path, Folder))
      Under.insert(Libraries.begin(), Libraries.end());
  return Under;
}

/// The commands that build the written output: `make -C` per translated
/// Makefile, and per translated CMake project a configure with the shipped
/// toolchain file (written once at the output root, where the input has no
/// file of that name) and a build. Nothing without an output tree.
void Pipeline::addBuildCommands() {
  const std::string &OutputRoot = Settings.Build.OutputRoot;
  if (OutputRoot.empty() || OutputRoot == Settings.Build.InputRoot)
    return;
  const std::string Toolchain = joinPath(OutputRoot, "cu2dcu-hip-toolchain.cmake");
  bool UsesToolchain = false;
  for (const FileReport &R : Run.Files) {
    if (R.Mode != ParseMode::Build || R.Input.Output.empty())
      continue;
    llvm::StringRef Name = llvm::sys::path::filename(R.Input.Output);
    std::string Folder = llvm::sys::path::parent_path(R.Input.Output).str();
    if (Name == "Makefile" || Name == "makefile" || Name == "GNUmakefile") {
      Run.BuildCommands.push_back("make -C " + Folder);
      continue;
    }
    bool HipProject = Name == "CMakeLists.txt" &&
                      llvm::StringRef(R.Translated).contains_insensitive("project(") &&
                      llvm::StringRef(R.Translated).contains("HIP");
    if (!HipProject)
      continue;
    std::string Build = joinPath(Folder, "build");
    std::string WithToolchain = Settings.HipToolchainFile.empty()
                                    ? std::string()
                                    : " -DCMAKE_TOOLCHAIN_FILE=" + Toolchain;
    Run.BuildCommands.push_back("cmake -S " + Folder + " -B " + Build + WithToolchain +
                                " && cmake --build " + Build);
    UsesToolchain |= !WithToolchain.empty();
  }
  if (!UsesToolchain || IndexOf.count(Toolchain) ||
      llvm::any_of(Run.Files, [&](const FileReport &R) { return R.Input.Output == Toolchain; }))
    return;
  auto Text = readInputFile(Settings.HipToolchainFile);
  if (!Text) {
    llvm::consumeError(Text.takeError());
    return;
  }
  FileReport R;
  R.Input.Source = Settings.HipToolchainFile;
  R.Input.Display = "cu2dcu-hip-toolchain.cmake";
  R.Input.Output = Toolchain;
  R.Status = FileStatus::Copied;
  R.Mode = ParseMode::Copy;
  R.ModeReason = "written by cu2dcu: lets CMake's HIP language configure on a packaged ROCm "
                 "(docs/build-migration.md)";
  R.Original = R.Translated = std::move(*Text);
  Run.Files.push_back(std::move(R));
}

/// Shims an earlier run wrote into the file are left as they are.
void Pipeline::dropShimBlockChanges(const FileReport &R, std::vector<Edit> &Edits) {
  std::vector<ByteRange> Blocks = shimBlocks(R.Original);
  if (Blocks.empty())
    return;
  auto Inside = [&](unsigned Offset) {
    return llvm::any_of(Blocks, [&](const ByteRange &B) { return Offset >= B.Begin && Offset < B.End; });
  };
  llvm::erase_if(Edits, [&](const Edit &E) { return Inside(E.Offset); });
  llvm::erase_if(Diagnostics, [&](const Diagnostic &D) {
    return D.File == R.Input.Display && Inside(D.Offset);
  });
}

/// What the file needs above its code: the guard macros its units' HIP
/// calls need, the runtime include nvcc implies, then the shims its uses were
/// renamed to; insertions at one spot become one edit, in that order.
void Pipeline::addInsertions(const FileReport &R, std::vector<Edit> &Edits) const {
  std::optional<Edit> Guards;
  for (const Edit &E : Edits)
    if (E.Category == GuardDefineCategory && (!Guards || Guards->Text.find(E.Text) == std::string::npos)) {
      if (Guards)
        Guards->Text += E.Text;
      else
        Guards = E;
    }
  llvm::erase_if(Edits, [](const Edit &E) { return E.Category == GuardDefineCategory; });
  std::optional<Edit> Include = implicitRuntimeInclude(Map, R.Input.Source, R.Original, Edits);
  std::optional<Edit> Shims = shimDefinitions(Map, R.Original, Edits);
  std::vector<Edit> Insertions;
  for (std::optional<Edit> *Insertion : {&Guards, &Include, &Shims}) {
    if (!*Insertion)
      continue;
    if (!Insertions.empty() && Insertions.back().Offset == (*Insertion)->Offset)
      Insertions.back().Text += (*Insertion)->Text;
    else
      Insertions.push_back(std::move(**Insertion));
  }
  // A library header's own lines above it (hip_defines) start where an
  // insertion goes: one edit, the insertion first.
  for (Edit &Insertion : Insertions) {
    auto SameSpot = llvm::find_if(
        Edits, [&](const Edit &E) { return E.Offset == Insertion.Offset && E.Length == 0; });
    if (SameSpot != Edits.end())
      SameSpot->Text = Insertion.Text + SameSpot->Text;
    else
      Edits.push_back(std::move(Insertion));
  }
}

void Pipeline::applyAll() {
  StageClock RewriteClock;
  addExplicitInstantiations();
  SharedFixes.apply(EditsByFile, Diagnostics, [&](const std::string &Path) {
    auto It = IndexOf.find(Path);
    return It == IndexOf.end() ? Path : Run.Files[It->second].Input.Display;
  });
  for (FileReport &R : Run.Files) {
    if (R.Status == FileStatus::Failed)
      continue;
    if (R.Input.Action == FileAction::Copy && translateBuildFile(R))
      continue;
    if (R.Input.Action == FileAction::Copy) {
      R.Status = FileStatus::Copied;
      R.Mode = ParseMode::Copy;
      R.Translated = R.Original;
      continue;
    }
    std::vector<Edit> &Edits = EditsByFile[R.Input.Source];
    dropShimBlockChanges(R, Edits);
    if (R.Mode != ParseMode::None)
      addInsertions(R, Edits);
    AppliedEdits Applied = applyEdits(R.Input.Source, R.Original, Edits);
    for (const Edit &E : Applied.Conflicting)
      addFinding(R, E.Offset, check_ids::Launch, Severity::Warning,
                 "conflicting edits at this location; kept the first, dropped '" + E.Text + "'");
    R.Translated = std::move(Applied.Text);
    R.LinesChanged = countChangedLines(R.Original, Applied.Applied);
    R.Applied = std::move(Applied.Applied);
    R.Status = R.Translated == R.Original ? FileStatus::Unchanged : FileStatus::Translated;
  }
  addWave64Definitions();
  std::sort(Diagnostics.begin(), Diagnostics.end());
  Diagnostics.erase(std::unique(Diagnostics.begin(), Diagnostics.end()), Diagnostics.end());
  foldIntoDefinitions(Diagnostics);
  for (const FileReport &R : Run.Files)
    judgeByAmdPaths(Diagnostics, R.Input.Display, R.Original, Map.warpNames());
  // A map or shim note is worth reading once per file, at the first use.
  std::set<std::pair<std::string, std::string>> NotedInFile;
  Diagnostics.erase(std::remove_if(Diagnostics.begin(), Diagnostics.end(),
                                   [&](const Diagnostic &D) {
                                     return (D.CheckId == check_ids::ApiNote ||
                                             D.CheckId == check_ids::Shim) &&
                                            !NotedInFile.insert({D.File, D.Message}).second;
                                   }),
                    Diagnostics.end());
  Run.Diagnostics = std::move(Diagnostics);
  Run.Times[Stage::Rewrite] += RewriteClock.stop(Run.Files.size());
}

} // namespace

RunResult translateAll(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Settings) {
  return Pipeline(Inputs, Map, Settings).run();
}

void parseShard(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Settings,
                ShardSpec Shard) {
  Pipeline(Inputs, Map, Settings).parseShare(Shard);
}

} // namespace cu2dcu
