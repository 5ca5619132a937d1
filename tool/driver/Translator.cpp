#include "driver/Translator.h"

#include "driver/IsolatedParse.h"
#include "driver/PchPlanner.h"
#include "driver/TranslateAction.h"
#include "lexical/EntryTranslation.h"
#include "lexical/LexicalTranslator.h"
#include "rewrite/EditApplier.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticBuffer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

namespace cu2dcu {

const char *fileStatusName(FileStatus S) {
  switch (S) {
  case FileStatus::Translated:
    return "translated";
  case FileStatus::Unchanged:
    return "unchanged";
  case FileStatus::Copied:
    return "copied";
  case FileStatus::Failed:
    return "failed";
  }
  return "?";
}

namespace {

/// Records the first error clang reports, so a fallback can say why.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || !First.empty())
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
};

struct UnitOutcome {
  TranslationResult Result;
  bool Parsed = false;
  StageTime Parse, Match; // --time-report
  bool UsedPch = false;     // parsed with a shared PCH
  bool PchRejected = false; // parsed with one, then again without it
};

/// Parses one file as CUDA and runs every matcher over it, with the shared
/// PCH of Choice if it has one.
UnitOutcome translateUnit(const InputFile &File, const ApiMap &Map, const RunSettings &Settings,
                          const std::function<bool(const std::string &)> &IsTranslated,
                          const PchPlanner::Choice *Choice = nullptr) {
  UnitOutcome Outcome;
  StageClock Clock;
  TranslationUnitSetup Setup{Map, Settings.Translation, IsTranslated,
                             Settings.Toolchain.found() ? Settings.Toolchain.CudaPath + "/include"
                                                        : std::string(),
                             &Outcome.Match, /*OnBeginSource=*/{}, /*Pch=*/nullptr};
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
  FirstErrorConsumer Errors;
  clang::tooling::ToolInvocation Invocation(Args, makeTranslateAction(Setup, Outcome.Result),
                                            Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  bool Ok = Invocation.run();
  // Parse is the whole invocation less the AST pass, which ran inside it.
  Outcome.Parse = Clock.stop();
  Outcome.Parse.Wall -= Outcome.Match.Wall;
  Outcome.Parse.Cpu -= Outcome.Match.Cpu;
  Outcome.Parsed = Ok && Errors.getNumErrors() == 0;
  if (Pch && (!Outcome.Parsed || !Check->verified())) {
    // The PCH did not stand in exactly for the headers (or the unit does not
    // parse): what counts is the parse without it.
    UnitOutcome Again = translateUnit(File, Map, Settings, IsTranslated);
    Again.Parse += Outcome.Parse; // the wasted attempt is parse time too
    Again.Parse.Count = 1;
    Again.Match += Outcome.Match;
    Again.Match.Count = 1;
    Again.PchRejected = true;
    return Again;
  }
  Outcome.UsedPch = Pch != nullptr;
  if (!Outcome.Parsed) {
    Outcome.Result.Files.clear();
    Outcome.Result.Mode = ParseMode::Lexical;
    Outcome.Result.FallbackReason = Errors.First.empty() ? "clang could not parse the file"
                                                         : Errors.First;
  }
  return Outcome;
}

/// A unit's outcome through the pipe of an isolated parse.
std::string encodeOutcome(const UnitOutcome &O) {
  std::string Out;
  encodeU64(O.Parsed, Out);
  encodeU64(O.UsedPch, Out);
  encodeU64(O.PchRejected, Out);
  for (const StageTime *T : {&O.Parse, &O.Match}) {
    encodeDouble(T->Wall, Out);
    encodeDouble(T->Cpu, Out);
    encodeU64(T->Count, Out);
  }
  encodeResult(O.Result, Out);
  return Out;
}

UnitOutcome decodeOutcome(const IsolatedOutcome &Isolated, const std::string &Display) {
  UnitOutcome O;
  size_t Pos = 0;
  uint64_t Parsed = 0, Count = 0, UsedPch = 0, PchRejected = 0;
  bool Ok = Isolated.Ok && decodeU64(Isolated.Payload, Pos, Parsed) &&
            decodeU64(Isolated.Payload, Pos, UsedPch) &&
            decodeU64(Isolated.Payload, Pos, PchRejected);
  for (StageTime *T : {&O.Parse, &O.Match}) {
    Ok = Ok && decodeDouble(Isolated.Payload, Pos, T->Wall) &&
         decodeDouble(Isolated.Payload, Pos, T->Cpu) && decodeU64(Isolated.Payload, Pos, Count);
    T->Count = unsigned(Count);
  }
  Ok = Ok && decodeResult(Isolated.Payload, Pos, O.Result) && Pos == Isolated.Payload.size();
  if (Ok) {
    O.Parsed = Parsed != 0;
    O.UsedPch = UsedPch != 0;
    O.PchRejected = PchRejected != 0;
    return O;
  }
#ifdef CU2DCU_SANITIZED
  // In a sanitizer build a parser process that exits with a status of its
  // own has printed a sanitizer report: that must fail the run.
  if (Isolated.ExitStatus)
    throw std::runtime_error("the parser process for " + Display + " exited with status " +
                             std::to_string(Isolated.ExitStatus) + " (see the report above)");
#endif
  O = UnitOutcome();
  O.Result.Mode = ParseMode::Lexical;
  O.Result.FallbackReason =
      Isolated.Ok ? "the parser process sent malformed data" : Isolated.Failure;
  return O;
}

} // namespace

RunResult translateAll(const Discovery &Inputs, const ApiMap &Map, const RunSettings &Given) {
  RunSettings Settings = Given; // ProjectMacros is filled below
  auto Start = std::chrono::steady_clock::now();
  RunResult Run;
  Run.Files.reserve(Inputs.Files.size());
  llvm::StringMap<size_t> IndexOf;
  for (const InputFile &F : Inputs.Files) {
    IndexOf[F.Source] = Run.Files.size();
    FileReport R;
    R.Input = F;
    Run.Files.push_back(std::move(R));
  }

  LexicalTranslator Lexical(Map, Settings.Translation);
  // Read every file to translate; decide which need a parse at all.
  StageClock DiscoverClock;
  std::vector<size_t> Units, Headers;
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
      continue;
    }
    (R.Input.IsHeader ? Headers : Units).push_back(I);
  }
  Run.Times[Stage::Discover] += DiscoverClock.stop(Run.Files.size());
  // The project's own macros, for the lexical pass (core/Options.h).
  auto Macros = std::make_shared<std::set<std::string>>();
  for (const FileReport &R : Run.Files)
    if (R.Status != FileStatus::Failed && R.Input.Action == FileAction::Translate)
      LexicalTranslator::collectMacroNames(R.Original, *Macros);
  Settings.Translation.ProjectMacros = std::move(Macros);

  auto IsTranslated = [&](const std::string &Path) {
    auto It = IndexOf.find(Path);
    return It != IndexOf.end() && Run.Files[It->second].Input.Action == FileAction::Translate;
  };

  std::map<std::string, std::vector<Edit>> EditsByFile;
  std::vector<Diagnostic> Diagnostics;
  std::set<std::string> CoveredByAst;
  auto Collect = [&](const TranslationResult &Result) {
    for (const auto &[Path, Findings] : Result.Files) {
      auto &Edits = EditsByFile[Path];
      Edits.insert(Edits.end(), Findings.Edits.begin(), Findings.Edits.end());
      for (Diagnostic D : Findings.Diagnostics) {
        auto It = IndexOf.find(Path);
        if (It != IndexOf.end())
          D.File = Run.Files[It->second].Input.Display;
        Diagnostics.push_back(std::move(D));
      }
    }
  };
  auto TranslateLexically = [&](FileReport &R, std::string Reason) {
    StageClock Clock;
    R.Mode = ParseMode::Lexical;
    R.ModeReason = std::move(Reason);
    TranslationResult Result;
    Lexical.translateFile(R.Original, R.Input.Source, Result.at(R.Input.Source));
    Collect(Result);
    Run.Times[Stage::Match] += Clock.stop();
  };

  const bool UseAst = Settings.Mode != ModeChoice::Lexical && Settings.Toolchain.found();
  std::optional<PchPlanner> Pchs;
  if (UseAst && Settings.SharePch)
    Pchs.emplace(Map, Settings, IsTranslated);
  auto RunWave = [&](const std::vector<size_t> &Wave) {
    std::vector<UnitOutcome> Outcomes(Wave.size());
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
    if (UseAst && Settings.ParseTimeoutSeconds > 0) {
      // Each parse in a child process: a hang or a crash costs the file its
      // AST translation, not the run (docs/robustness.md).
      size_t Done = 0;
      auto Results = runIsolated(
          Wave.size(), Settings.Jobs, Settings.ParseTimeoutSeconds,
          [&](size_t W) {
            return encodeOutcome(translateUnit(Run.Files[Wave[W]].Input, Map, Settings,
                                               IsTranslated, &Choices[W]));
          },
          [&](size_t W) { return Run.Files[Wave[W]].Input.Source; },
          [&](size_t) {
            if (Settings.OnProgress)
              Settings.OnProgress(++Done, Wave.size());
          });
      // A parser process that died with a PCH (a crash in clang's PCH
      // reading) is run again without: the output must not depend on the
      // PCH. A timeout is not, as the parse without a PCH only takes longer.
      std::vector<size_t> Again;
      for (size_t W = 0; W < Wave.size(); ++W)
        if (!Results[W].Ok && Choices[W].Pch &&
            !llvm::StringRef(Results[W].Failure).starts_with("parsing timed out"))
          Again.push_back(W);
      auto Retried = runIsolated(
          Again.size(), Settings.Jobs, Settings.ParseTimeoutSeconds,
          [&](size_t A) {
            return encodeOutcome(
                translateUnit(Run.Files[Wave[Again[A]]].Input, Map, Settings, IsTranslated));
          },
          [&](size_t A) { return Run.Files[Wave[Again[A]]].Input.Source; }, nullptr);
      for (size_t A = 0; A < Again.size(); ++A)
        Results[Again[A]] = std::move(Retried[A]);
      for (size_t W = 0; W < Wave.size(); ++W)
        Outcomes[W] = decodeOutcome(Results[W], Run.Files[Wave[W]].Input.Display);
      for (size_t W : Again)
        Outcomes[W].PchRejected = true;
    } else if (UseAst) {
      llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Settings.Jobs)));
      std::mutex ProgressMutex;
      size_t Done = 0;
      for (size_t W = 0; W < Wave.size(); ++W)
        Pool.async([&, W] {
          Outcomes[W] = translateUnit(Run.Files[Wave[W]].Input, Map, Settings, IsTranslated,
                                      &Choices[W]);
          if (Settings.OnProgress) {
            std::lock_guard<std::mutex> Lock(ProgressMutex);
            Settings.OnProgress(++Done, Wave.size());
          }
        });
      Pool.wait();
    }
    // Merge in input order so the output does not depend on -j.
    for (size_t W = 0; W < Wave.size(); ++W) {
      FileReport &R = Run.Files[Wave[W]];
      if (UseAst) {
        Run.Times[Stage::Parse] += Outcomes[W].Parse;
        Run.Times[Stage::Match] += Outcomes[W].Match;
        Run.Times.PchUnits += Outcomes[W].UsedPch;
        Run.Times.PchRejected += Outcomes[W].PchRejected;
      }
      if (!UseAst && Settings.Mode == ModeChoice::Lexical) {
        TranslateLexically(R, "--mode=lexical");
        continue;
      }
      if (!UseAst || !Outcomes[W].Parsed) {
        // A fallback the user did not ask for is worth a note on the file.
        TranslateLexically(R, UseAst ? Outcomes[W].Result.FallbackReason
                                     : "no CUDA headers: " + Settings.Toolchain.Why);
        FileFindings Sink;
        addFinding(Sink, R.Original, R.Input.Display, 0, check_ids::ParseFallback, Severity::Note,
                   "translated lexically: " + R.ModeReason);
        Diagnostics.push_back(Sink.Diagnostics.front());
        continue;
      }
      R.Mode = ParseMode::Ast;
      R.ModeReason.clear();
      for (const auto &[Path, Findings] : Outcomes[W].Result.Files)
        CoveredByAst.insert(Path);
      CoveredByAst.insert(R.Input.Source);
      Collect(Outcomes[W].Result);
    }
  };
  RunWave(Units);
  // Headers no source file included are parsed on their own.
  std::vector<size_t> Uncovered;
  for (size_t I : Headers) {
    if (CoveredByAst.count(Run.Files[I].Input.Source))
      Run.Files[I].Mode = ParseMode::Ast;
    else
      Uncovered.push_back(I);
  }
  RunWave(Uncovered);

  StageClock RewriteClock;
  for (FileReport &R : Run.Files) {
    if (R.Status == FileStatus::Failed)
      continue;
    if (R.Input.Action == FileAction::Copy) {
      R.Status = FileStatus::Copied;
      R.Mode = ParseMode::Copy;
      R.Translated = R.Original;
      continue;
    }
    AppliedEdits Applied = applyEdits(R.Input.Source, R.Original, EditsByFile[R.Input.Source]);
    for (const Edit &E : Applied.Conflicting) {
      FileFindings Sink;
      addFinding(Sink, R.Original, R.Input.Display, E.Offset, check_ids::Launch, Severity::Warning,
                 "conflicting edits at this location; kept the first, dropped '" + E.Text + "'");
      Diagnostics.push_back(Sink.Diagnostics.front());
    }
    R.Translated = std::move(Applied.Text);
    R.LinesChanged = countChangedLines(R.Original, Applied.Applied);
    R.Applied = std::move(Applied.Applied);
    R.Status = R.Translated == R.Original ? FileStatus::Unchanged : FileStatus::Translated;
  }

  std::sort(Diagnostics.begin(), Diagnostics.end());
  Diagnostics.erase(std::unique(Diagnostics.begin(), Diagnostics.end()), Diagnostics.end());
  // A map note is worth reading once per file, at the first use.
  std::set<std::pair<std::string, std::string>> NotedInFile;
  Diagnostics.erase(std::remove_if(Diagnostics.begin(), Diagnostics.end(),
                                   [&](const Diagnostic &D) {
                                     return D.CheckId == check_ids::ApiNote &&
                                            !NotedInFile.insert({D.File, D.Message}).second;
                                   }),
                    Diagnostics.end());
  Run.Diagnostics = std::move(Diagnostics);
  Run.Times[Stage::Rewrite] += RewriteClock.stop(Run.Files.size());
  Run.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  return Run;
}

} // namespace cu2dcu
