#include "driver/PchPlanner.h"

#include "core/Paths.h"
#include "core/ResultJson.h"

#include "driver/IsolatedParse.h"
#include "driver/TranslateAction.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>

namespace cu2dcu {

namespace {

/// What a PCH build in a child process sends back.
std::string encodeBuild(const SharedPch &Pch, const StageTime &Time) {
  return jsonText(llvm::json::Object{{"ok", Pch.Ok},
                                     {"why", textToJSON(Pch.Why)},
                                     {"includes", textsToJSON(Pch.Includes)},
                                     {"resolved", textsToJSON(Pch.Resolved)},
                                     {"mustSkip", textToJSON(Pch.MustSkip)},
                                     {"shadowNames", textsToJSON(Pch.ShadowNames)},
                                     {"translated", Pch.Translated},
                                     {"translatedFiles", textsToJSON(Pch.TranslatedFiles)},
                                     {"wholeUnit", Pch.WholeUnit},
                                     {"reads", textsToJSON(Pch.Reads)},
                                     {"time", Time}});
}

bool decodeBuild(llvm::StringRef Data, SharedPch &Pch, StageTime &Time) {
  llvm::Expected<llvm::json::Value> Value = llvm::json::parse(Data);
  if (!Value) {
    llvm::consumeError(Value.takeError());
    return false;
  }
  llvm::json::Path::Root Root("pch");
  llvm::json::ObjectMapper M(*Value, Root);
  std::vector<std::string> Shadow;
  if (!M || !M.map("ok", Pch.Ok) || !M.map("wholeUnit", Pch.WholeUnit) ||
      !M.map("translated", Pch.Translated) || !M.map("time", Time))
    return false;
  const llvm::json::Object &O = *Value->getAsObject();
  const llvm::json::Value *Why = O.get("why"), *MustSkip = O.get("mustSkip");
  if (!Why || !textFromJSON(*Why, Pch.Why, Root) || !MustSkip ||
      !textFromJSON(*MustSkip, Pch.MustSkip, Root) ||
      !textsFromJSON(O, "includes", Pch.Includes, Root) ||
      !textsFromJSON(O, "resolved", Pch.Resolved, Root) ||
      !textsFromJSON(O, "shadowNames", Shadow, Root) ||
      !textsFromJSON(O, "translatedFiles", Pch.TranslatedFiles, Root) ||
      !textsFromJSON(O, "reads", Pch.Reads, Root))
    return false;
  Time.Count = 1;
  Pch.ShadowNames = std::set<std::string>(Shadow.begin(), Shadow.end());
  return true;
}

std::vector<std::string> keys(const IncludePrefix &Prefix) {
  std::vector<std::string> Out;
  for (const PrefixInclude &I : Prefix.Includes)
    Out.push_back(I.Key);
  return Out;
}

std::vector<std::string> prefixOf(const std::vector<std::string> &Path, size_t K) {
  return std::vector<std::string>(Path.begin(), Path.begin() + K);
}

std::string joinFlags(const std::vector<std::string> &Flags) {
  std::string Key;
  for (const std::string &F : Flags)
    Key += F + '\n';
  return Key;
}

} // namespace

PchPlanner::PchPlanner(const ApiMap &Map, const RunSettings &Settings,
                       std::function<bool(const std::string &)> IsTranslated)
    : Map(Map), Settings(Settings), IsTranslated(std::move(IsTranslated)) {}

PchPlanner::~PchPlanner() {
  if (!Dir.empty())
    llvm::sys::fs::remove_directories(Dir, /*IgnoreErrors=*/true);
}

std::vector<PchPlanner::Choice>
PchPlanner::prepare(const std::vector<const InputFile *> &Files,
                    const std::vector<const std::string *> &Texts, StageTimes &Times) {
  StageClock ScanClock;
  std::vector<Choice> Choices(Files.size());
  std::vector<std::vector<std::string>> Paths(Files.size());
  std::vector<std::string> Flags(Files.size());
  // How many units start with each run of #includes, per flags: a trie.
  std::map<Key, unsigned> Starts;
  std::vector<bool> HasInclude(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    for (const std::string &F : Files[I]->CompileFlags)
      HasInclude[I] = HasInclude[I] || llvm::StringRef(F).starts_with("-include");
    Choices[I].Prefix = scanIncludePrefix(Files[I]->Source, *Texts[I], Files[I]->CompileFlags);
    Paths[I] = keys(Choices[I].Prefix);
    Flags[I] = joinFlags(Files[I]->CompileFlags);
    for (size_t K = 0; K <= Paths[I].size(); ++K)
      ++Starts[{Flags[I], prefixOf(Paths[I], K)}];
  }
  // Each unit uses the PCH of the longest run it shares with another unit.
  // A PCH is chained to the one of the longest shorter run where fewer units
  // share more (a branch of the trie), so every header is parsed once per
  // branch, not once per PCH.
  std::vector<SharedPch *> Todo;
  for (size_t I = 0; I < Files.size(); ++I) {
    auto Count = [&](size_t K) { return Starts[{Flags[I], prefixOf(Paths[I], K)}]; };
    if (Count(0) < 2 || HasInclude[I])
      continue; // the only unit with these flags, or -include files would come twice
    size_t Deepest = 0;
    while (Deepest < Paths[I].size() && Count(Deepest + 1) >= 2)
      ++Deepest;
    SharedPch *Base = nullptr;
    for (size_t K = 0; K <= Deepest; ++K) {
      if (K < Deepest && Count(K + 1) == Count(K))
        continue; // no unit stops or branches off here
      Key Node{Flags[I], prefixOf(Paths[I], K)};
      if (auto It = Pchs.find(Node); It != Pchs.end()) {
        Base = It->second.get();
        continue;
      }
      Base = addPch(std::move(Node), *Files[I], Choices[I].Prefix, K, Base);
      if (!Base)
        return Choices; // no PCH this run: every unit is parsed from scratch
      Todo.push_back(Base);
    }
    Choices[I].Pch = Base;
  }
  Times[Stage::Pch] += ScanClock.stop(0);
  build(Todo, Times);
  keepUsable(Choices, Files, Times);
  return Choices;
}

SharedPch *PchPlanner::addPch(Key Node, const InputFile &File, const IncludePrefix &Prefix,
                              size_t Length, SharedPch *Base) {
  if (Dir.empty()) {
    llvm::SmallString<128> Made;
    if (llvm::sys::fs::createUniqueDirectory("cu2dcu-pch", Made))
      return nullptr;
    Dir = Made.str().str();
  }
  auto Pch = std::make_unique<SharedPch>();
  std::string Stem = joinPath(Dir, "prefix-" + std::to_string(Pchs.size()));
  Pch->Flags = File.CompileFlags;
  for (size_t J = 0; J < Length; ++J) // as this unit finds them
    Pch->Includes.push_back(Prefix.Includes[J].Spelling);
  Pch->Base = Base;
  Pch->HeaderPath = Stem + ".h";
  Pch->PchPath = Stem + ".pch";
  // Not RemoveFileOnSignal: a parser process that crashes (forked, so
  // with the same list) would delete the PCHs the others still load.
  return Pchs.emplace(std::move(Node), std::move(Pch)).first->second.get();
}

void PchPlanner::keepUsable(std::vector<Choice> &Choices,
                            const std::vector<const InputFile *> &Files, StageTimes &Times) {
  for (size_t I = 0; I < Files.size(); ++I) {
    Choice &C = Choices[I];
    while (C.Pch && !C.Pch->Ok) // what could be built of its chain
      C.Pch = C.Pch->Base;
    // A unit its own PCH includes (a header wave, a cycle): parse it alone.
    if (C.Pch && std::find(C.Pch->TranslatedFiles.begin(), C.Pch->TranslatedFiles.end(),
                           Files[I]->Source) != C.Pch->TranslatedFiles.end())
      C.Pch = nullptr;
    if (C.Pch && !pchUsableFrom(*C.Pch, llvm::sys::path::parent_path(Files[I]->Source).str())) {
      Times.Notes.push_back(Files[I]->Display + ": its directory shadows a header of its PCH");
      C.Pch = nullptr;
    }
  }
}

void PchPlanner::build(const std::vector<SharedPch *> &Todo, StageTimes &Times) {
  // A chained PCH needs its base: build in rounds, each of the PCHs whose
  // base is done, in parallel.
  std::set<const SharedPch *> Pending(Todo.begin(), Todo.end());
  while (!Pending.empty()) {
    std::vector<SharedPch *> Round;
    for (SharedPch *Pch : Todo)
      if (Pending.count(Pch) && !Pending.count(Pch->Base))
        Round.push_back(Pch);
    for (SharedPch *Pch : Round) {
      Pending.erase(Pch);
      while (Pch->Base && !Pch->Base->Ok) // chain to what the base's chain could build
        Pch->Base = Pch->Base->Base;
    }
    buildRound(Round, Times);
  }
}

void PchPlanner::buildRound(const std::vector<SharedPch *> &Round, StageTimes &Times) {
  std::vector<StageTime> Spent(Round.size());
  auto Build = [&](size_t I) {
    StageClock Clock;
    SharedPch &Pch = *Round[I];
    const size_t BaseCount = Pch.Base ? Pch.Base->Includes.size() : 0;
    while (true) {
      PchTranslation Recorder(Map, Settings.Translation, IsTranslated,
                              joinPath(Settings.Toolchain.CudaPath, "include"));
      int FirstNotReentrant = -1;
      bool Ok = buildSharedPch(
          Pch, Settings.Toolchain, [&](clang::CompilerInstance &CI) { Recorder.attach(CI); },
          IsTranslated, FirstNotReentrant);
      if (!Ok && FirstNotReentrant > int(BaseCount)) {
        Pch.Includes.resize(FirstNotReentrant); // up to the one that does something again
        continue;
      }
      if (Ok)
        Recorder.finish(Pch);
      break;
    }
    Spent[I] = Clock.stop();
  };
  if (Settings.ParseTimeoutSeconds > 0) {
    // Like the parses, in child processes: a header that hangs or crashes
    // clang costs its PCH, not the run.
    auto Results = runIsolated(
        Round.size(), Settings.Jobs, Settings.ParseTimeoutSeconds,
        [&](size_t I) {
          Build(I);
          return encodeBuild(*Round[I], Spent[I]);
        },
        [](size_t) { return std::string(); }, // not a parse: no fault injection
        nullptr);
    for (size_t I = 0; I < Round.size(); ++I) {
      SharedPch &Pch = *Round[I];
      if (!Results[I].Ok || !decodeBuild(Results[I].Payload, Pch, Spent[I])) {
        Pch.Ok = false;
        Pch.Why = Results[I].Ok ? "malformed data from the PCH process" : Results[I].Failure;
      }
    }
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Settings.Jobs)));
    for (size_t I = 0; I < Round.size(); ++I)
      Pool.async([&, I] { Build(I); });
    Pool.wait();
  }
  for (size_t I = 0; I < Round.size(); ++I) {
    Times[Stage::Pch] += Spent[I];
    if (Round[I]->Ok)
      inheritFromBase(*Round[I]);
    else
      Times.Notes.push_back("a PCH of " + std::to_string(Round[I]->Includes.size()) +
                            " #includes was not built: " + Round[I]->Why);
  }
}

} // namespace cu2dcu
