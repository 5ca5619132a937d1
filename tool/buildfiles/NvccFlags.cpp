#include "buildfiles/NvccFlags.h"

#include "llvm/ADT/StringExtras.h"

namespace cu2dcu {

std::vector<std::string> splitHostOptions(llvm::StringRef Value) {
  // nvcc splits the value at commas; each part may be quoted, and a quoted
  // part may hold several options.
  std::vector<std::string> Words;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    if (Part.size() >= 2 && (Part.front() == '"' || Part.front() == '\'') &&
        Part.back() == Part.front())
      Part = Part.drop_front().drop_back();
    llvm::SmallVector<llvm::StringRef, 4> Spaced;
    llvm::SplitString(Part, Spaced);
    for (llvm::StringRef W : Spaced)
      Words.push_back(W.str());
  }
  return Words;
}

std::vector<std::string> applyWordTranslation(const std::vector<std::string> &Words,
                                              const WordTranslation &T) {
  std::vector<std::string> Out;
  size_t Next = 0;
  for (const WordEdit &E : T.Edits) {
    Out.insert(Out.end(), Words.begin() + Next, Words.begin() + E.First);
    Out.insert(Out.end(), E.Words.begin(), E.Words.end());
    Next = E.First + E.Count;
  }
  Out.insert(Out.end(), Words.begin() + Next, Words.end());
  return Out;
}

const std::string *NvccFlagTranslator::hipCompiler(llvm::StringRef Word) const {
  size_t Slash = Word.rfind('/');
  return Map.hipCompiler((Slash == llvm::StringRef::npos ? Word : Word.substr(Slash + 1)).str());
}

std::vector<std::string> NvccFlagTranslator::offloadArchFlags() const {
  std::vector<std::string> Words;
  for (const std::string &Arch : Opts.OffloadArchs)
    Words.push_back("--offload-arch=" + Arch);
  return Words;
}

const NameRule *NvccFlagTranslator::libraryRule(llvm::StringRef Word) const {
  Word.consume_front("-l");
  return Map.library(Word.str());
}

NvccFlagTranslator::FlagUse NvccFlagTranslator::parseFlag(const std::vector<std::string> &Words,
                                                          size_t I) const {
  llvm::StringRef W = Words[I];
  if (!W.consume_front("-"))
    return {};
  W.consume_front("-");
  auto [Name, Joined] = W.split('=');
  FlagUse U;
  U.Spelling = Words[I];
  U.Rule = Map.findFlag(Name.str());
  if (!U.Rule)
    return {};
  bool HasEquals = W.contains('=');
  if (!U.Rule->TakesValue)
    return HasEquals ? FlagUse{} : U;
  if (HasEquals) {
    U.Value = Joined.str();
  } else if (I + 1 < Words.size()) {
    U.Value = Words[I + 1];
    U.Count = 2;
  } else {
    return {}; // a value-taking flag at the end: not one we can read
  }
  return U;
}

bool NvccFlagTranslator::hasDistinctiveFlag(const std::vector<std::string> &Words) const {
  for (size_t I = 0; I < Words.size(); ++I)
    if (FlagUse U = parseFlag(Words, I);
        U.Rule && (U.Rule->Distinctive || llvm::is_contained(U.Rule->DistinctiveValues, U.Value)))
      return true;
  return false;
}

void NvccFlagTranslator::applyFlag(const FlagUse &U, size_t I, bool &ArchDone,
                                   WordTranslation &Out) const {
  const NvccFlagRule &R = *U.Rule;
  auto Note = [&](Severity Level, const std::string &Msg) { Out.Notes.push_back({I, Level, Msg}); };
  if (R.Level && R.Action != FlagAction::Unsupported)
    Note(*R.Level, "'" + U.Spelling + "': " + R.Reason);
  WordEdit E{I, U.Count, {}};
  switch (R.Action) {
  case FlagAction::Unsupported:
    Note(R.Level.value_or(Severity::Warning), "'" + U.Spelling + "' left as written: " + R.Reason);
    return;
  case FlagAction::OffloadArch:
    if (!ArchDone)
      E.Words = offloadArchFlags();
    ArchDone = true;
    break;
  case FlagAction::HostOptions:
    E.Words = splitHostOptions(U.Value);
    break;
  case FlagAction::LinkerOptions:
    E.Words = {"-Wl," + U.Value};
    break;
  case FlagAction::Replace:
    if (!R.ByValue.empty()) {
      auto It = R.ByValue.find(U.Value);
      if (It == R.ByValue.end())
        return; // a value the map does not translate: the flag is valid as it is
      E.Words = It->second;
    } else {
      for (const std::string &H : R.Hip) {
        std::string Word = H;
        if (size_t P = Word.find("{value}"); P != std::string::npos)
          Word.replace(P, 7, U.Value);
        E.Words.push_back(Word);
      }
    }
    break;
  }
  Out.Edits.push_back(std::move(E));
}

std::optional<llvm::StringRef> NvccFlagTranslator::underToolkitRoot(llvm::StringRef Path) const {
  for (const char *Open : {"$(", "${"}) {
    if (!Path.starts_with(Open))
      continue;
    size_t Close = Path.find(Open[1] == '(' ? ')' : '}');
    if (Close != llvm::StringRef::npos && Map.isToolkitVariable(Path.substr(2, Close - 2).str()))
      return Path.substr(Close + 1);
  }
  for (const std::string &Prefix : Map.toolkitPrefixes()) {
    llvm::StringRef Rest = Path;
    if (!Rest.consume_front(Prefix))
      continue;
    if (Rest.consume_front("-")) // a versioned install: /usr/local/cuda-12.2
      Rest = Rest.drop_while([](char C) { return llvm::isDigit(C) || C == '.'; });
    if (Rest.empty() || Rest.front() == '/')
      return Rest;
  }
  return std::nullopt;
}

bool NvccFlagTranslator::translatePath(llvm::StringRef Word, size_t I, WordTranslation &Out) const {
  for (const PathFlagRule &R : Map.pathFlags()) {
    llvm::StringRef Path = Word;
    if (!Path.consume_front(R.Flag))
      continue;
    std::optional<llvm::StringRef> Rest = underToolkitRoot(Path);
    if (!Rest)
      return false;
    llvm::StringRef Sub = Rest->trim('/');
    bool Known = llvm::any_of(R.Subdirs, [&](const std::string &S) { return Sub == S; });
    if (Known && R.Action == RuleAction::Drop)
      Out.Edits.push_back({I, 1, {}});
    else
      Out.Notes.push_back({I, Severity::Warning,
                           "'" + Word.str() + "' left as written: it names a CUDA toolkit "
                           "directory with no HIP counterpart"});
    return true;
  }
  return false;
}

WordTranslation NvccFlagTranslator::translate(const std::vector<std::string> &Words,
                                              bool &ArchDone) const {
  WordTranslation Out;
  for (size_t I = 0; I < Words.size(); ++I) {
    llvm::StringRef W = Words[I];
    if (W.starts_with("-l") && W.size() > 2) {
      if (const NameRule *L = libraryRule(W)) {
        if (L->Action == RuleAction::Unsupported)
          Out.Notes.push_back({I, Severity::Warning, "'" + W.str() + "' left as written: " + L->Reason});
        else
          Out.Edits.push_back({I, 1, L->Action == RuleAction::Drop
                                         ? std::vector<std::string>{}
                                         : std::vector<std::string>{"-l" + L->Hip}});
        continue;
      }
    }
    if (translatePath(W, I, Out))
      continue;
    if (FlagUse U = parseFlag(Words, I); U.Rule) {
      applyFlag(U, I, ArchDone, Out);
      I += U.Count - 1;
    }
  }
  // An edit that reproduces its words is no change.
  llvm::erase_if(Out.Edits, [&](const WordEdit &E) {
    return E.Words.size() == E.Count &&
           std::equal(E.Words.begin(), E.Words.end(), Words.begin() + E.First);
  });
  return Out;
}

} // namespace cu2dcu
