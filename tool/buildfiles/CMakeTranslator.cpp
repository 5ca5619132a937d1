#include "buildfiles/CMakeTranslator.h"

#include "buildfiles/NvccFlags.h"
#include "buildfiles/TextEdits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <regex>
#include <set>

namespace cu2dcu {

namespace {

bool isSpace(char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r'; }

/// Length of "[==[" at Pos (the opening of a bracket argument or comment), or 0.
unsigned bracketOpen(llvm::StringRef Text, unsigned Pos, unsigned &Level) {
  if (Pos >= Text.size() || Text[Pos] != '[')
    return 0;
  unsigned I = Pos + 1;
  while (I < Text.size() && Text[I] == '=')
    ++I;
  if (I >= Text.size() || Text[I] != '[')
    return 0;
  Level = I - Pos - 1;
  return I - Pos + 1;
}

/// The offset just after the bracket text opened at Pos with Level '='s.
unsigned bracketEnd(llvm::StringRef Text, unsigned Pos, unsigned Level) {
  std::string Close = "]" + std::string(Level, '=') + "]";
  size_t At = Text.find(Close, Pos);
  return At == llvm::StringRef::npos ? Text.size() : At + Close.size();
}

unsigned skipComment(llvm::StringRef Text, unsigned Pos) {
  unsigned Level = 0;
  if (unsigned Open = bracketOpen(Text, Pos + 1, Level))
    return bracketEnd(Text, Pos + 1 + Open, Level);
  size_t NL = Text.find('\n', Pos);
  return NL == llvm::StringRef::npos ? Text.size() : NL;
}

CMakeArgument readArgument(llvm::StringRef Text, unsigned &Pos) {
  CMakeArgument A;
  A.Begin = Pos;
  unsigned Level = 0;
  if (Text[Pos] == '"') {
    A.K = CMakeArgument::Quoted;
    for (++Pos; Pos < Text.size() && Text[Pos] != '"'; ++Pos)
      Pos += Text[Pos] == '\\';
    Pos = std::min<unsigned>(Pos + 1, Text.size());
    A.Value = Text.slice(A.Begin + 1, Pos - 1).str();
  } else if (unsigned Open = bracketOpen(Text, Pos, Level)) {
    A.K = CMakeArgument::Bracket;
    Pos = bracketEnd(Text, Pos + Open, Level);
    A.Value = Text.slice(A.Begin + Open, Pos - Level - 2).str();
  } else {
    // Unquoted; a legacy "quoted part" inside (-DX="a b") stays in the word.
    for (char Quote = 0; Pos < Text.size(); ++Pos) {
      char C = Text[Pos];
      if (C == '\\')
        ++Pos;
      else if (Quote)
        Quote = C == '"' ? 0 : Quote;
      else if (C == '"')
        Quote = C;
      else if (isSpace(C) || C == '(' || C == ')' || C == '#')
        break;
    }
    Pos = std::min<unsigned>(Pos, Text.size());
    A.Value = Text.slice(A.Begin, Pos).str();
  }
  A.End = Pos;
  return A;
}

/// Reads the arguments after '('; false when the text ends first.
bool readArguments(llvm::StringRef Text, unsigned &Pos, CMakeCommand &C) {
  for (int Depth = 1; Pos < Text.size();) {
    char Ch = Text[Pos];
    if (isSpace(Ch)) {
      ++Pos;
    } else if (Ch == '#') {
      Pos = skipComment(Text, Pos);
    } else if (Ch == '(' || Ch == ')') {
      ++Pos;
      Depth += Ch == '(' ? 1 : -1;
      if (Depth == 0) {
        C.End = Pos;
        return true;
      }
    } else {
      C.Args.push_back(readArgument(Text, Pos));
    }
  }
  return false;
}

std::string lower(llvm::StringRef S) { return S.lower(); }

bool isTrue(llvm::StringRef V) {
  std::string U = V.upper();
  return U == "ON" || U == "TRUE" || U == "YES" || U == "Y" || U == "1";
}

bool isKeyword(llvm::StringRef S) {
  return !S.empty() && llvm::all_of(S, [](char C) { return llvm::isUpper(C) || C == '_'; });
}

const std::regex &residualPattern() {
  static const std::regex R(R"(CUDA::\w+|CMAKE_CUDA_\w+|\bnvcc\b|CUDAToolkit\w*|\bCUDA_[A-Z_]+\b)");
  return R;
}

} // namespace

std::vector<CMakeCommand> parseCMake(llvm::StringRef Text) {
  std::vector<CMakeCommand> Cmds;
  unsigned Pos = 0;
  while (Pos < Text.size()) {
    char Ch = Text[Pos];
    if (Ch == '#') {
      Pos = skipComment(Text, Pos);
      continue;
    }
    if (!(llvm::isAlpha(Ch) || Ch == '_')) {
      ++Pos;
      continue;
    }
    CMakeCommand C;
    C.NameBegin = Pos;
    while (Pos < Text.size() && (llvm::isAlnum(Text[Pos]) || Text[Pos] == '_'))
      ++Pos;
    C.Name = Text.slice(C.NameBegin, Pos).str();
    size_t NL = Text.substr(0, C.NameBegin).rfind('\n');
    C.LineBegin = NL == llvm::StringRef::npos ? 0 : NL + 1;
    while (Pos < Text.size() && (Text[Pos] == ' ' || Text[Pos] == '\t'))
      ++Pos;
    if (Pos >= Text.size() || Text[Pos] != '(')
      continue;
    ++Pos;
    if (!readArguments(Text, Pos, C))
      break;
    Cmds.push_back(std::move(C));
  }
  return Cmds;
}

namespace {

/// Translates one CMake file: a pass over its commands, each handled by the
/// rules of the build map.
class CMakeRewriter {
public:
  CMakeRewriter(llvm::StringRef Text, llvm::StringRef File, const BuildFlagMap &Map,
                const BuildOptions &Opts)
      : Text(Text), File(File), Map(Map), Opts(Opts), Flags(Map, Opts), Cmds(parseCMake(Text)) {}

  BuildTranslation run() {
    for (const CMakeCommand &C : Cmds)
      for (const CMakeArgument &A : C.Args)
        notePackagesUsed(A);
    for (const CMakeCommand &C : Cmds)
      translate(C);
    addLinkLibraries();
    reportResiduals();
    BuildTranslation R;
    R.Text = applyEdits(Text, Edits, R.Changes);
    std::sort(Findings.begin(), Findings.end());
    R.Findings = std::move(Findings);
    return R;
  }

private:
  void translate(const CMakeCommand &C) {
    std::string Name = lower(C.Name);
    Claimed.clear();
    startRelocatableDeviceCode(C, Name);
    findPackagesBefore(C);
    if (const NameRule *R = Map.command(Name))
      renameCommand(C, *R);
    if (Name == "project" || Name == "enable_language" || Name == "check_language")
      translateLanguages(C, Name);
    if (Name == "find_package")
      translateFindPackage(C);
    if (Name == "set_target_properties" || Name == "set_property" ||
        Name == "set_source_files_properties" || Name == "get_target_property" ||
        Name == "get_property" || Name == "get_source_file_property")
      translateProperties(C, Name);
    if (Name == "set")
      translateSetValue(C);
    if (Name == "list")
      translateListAppend(C);
    translateFlagArguments(C, Name);
    translateLibraryArguments(C, Name);
    translateKeywordValues(C, Name);
    if (Name == "target_compile_features")
      translateCompileFeatures(C);
    for (size_t I = 0; I < C.Args.size(); ++I)
      if (!Claimed.count(I))
        translateNames(C, I);
    if (Map.isSourceCommand(Name))
      markCudaSources(C);
    addRelocatableDeviceCode(C, Name);
  }

  // --- edits and findings --------------------------------------------------

  void replace(unsigned Begin, unsigned End, std::string With) {
    Edits.push_back({Begin, End, std::move(With)});
  }
  void replaceArgs(const CMakeCommand &C, size_t First, size_t Count, std::vector<std::string> W) {
    std::vector<TextWord> Words;
    for (size_t I = First; I < First + Count; ++I) {
      Words.push_back({C.Args[I].Begin, C.Args[I].End});
      Claimed.insert(I);
    }
    addWordEdits(Text, Words, {{0, Count, std::move(W)}}, Edits);
  }
  std::string indentOf(const CMakeCommand &C) const {
    return Text.slice(C.LineBegin, C.NameBegin).take_while([](char Ch) { return Ch == ' ' || Ch == '\t'; }).str();
  }
  void insertAfter(const CMakeCommand &C, const std::string &Command) {
    Edits.push_back({C.End, C.End, "\n" + indentOf(C) + Command});
  }
  void insertBefore(const CMakeCommand &C, const std::string &Command) {
    Edits.push_back({C.NameBegin, C.NameBegin, Command + "\n" + indentOf(C)});
  }
  void report(unsigned Offset, Severity Level, std::string Msg) {
    Findings.push_back(buildFinding(Text, File, Offset, Level, std::move(Msg)));
  }
  std::string archList() const { return llvm::join(Opts.OffloadArchs, ";"); }

  // --- commands -------------------------------------------------------------

  void renameCommand(const CMakeCommand &C, const NameRule &R) {
    if (R.Action == RuleAction::Unsupported)
      return report(C.NameBegin, R.Level.value_or(Severity::Warning),
                    "'" + C.Name + "' left as written: " + R.Reason);
    replace(C.NameBegin, C.NameBegin + C.Name.size(), R.Hip);
    if (R.Options.empty() || C.Args.empty())
      return;
    // FindCUDA's OPTIONS (nvcc flags) become the target's compile options.
    for (size_t I = 1; I < C.Args.size(); ++I) {
      if (C.Args[I].Value != R.Options)
        continue;
      std::vector<std::string> Words;
      for (size_t J = I + 1; J < C.Args.size(); ++J)
        Words.push_back(C.Args[J].Value);
      bool ArchDone = true; // HIP_ARCHITECTURES gives the targets
      WordTranslation T = Flags.translate(Words, ArchDone);
      std::vector<std::string> Out = applyWordTranslation(Words, T);
      replaceArgs(C, I, C.Args.size() - I, {});
      if (!Out.empty())
        insertAfter(C, "target_compile_options(" + C.Args[0].Value + " PRIVATE " +
                           llvm::join(Out, " ") + ")");
      return;
    }
  }

  void translateLanguages(const CMakeCommand &C, const std::string &Name) {
    size_t First = Name == "project" ? 1 : 0;
    bool HasKeyword = llvm::any_of(C.Args, [](const CMakeArgument &A) {
      return A.Value == "LANGUAGES" || A.Value == "VERSION" || A.Value == "DESCRIPTION" ||
             A.Value == "HOMEPAGE_URL";
    });
    bool InLanguages = !HasKeyword;
    bool Enabled = false;
    for (size_t I = First; I < C.Args.size(); ++I) {
      const std::string &V = C.Args[I].Value;
      if (isKeyword(V) && (V == "LANGUAGES" || V == "VERSION" || V == "DESCRIPTION" ||
                           V == "HOMEPAGE_URL")) {
        InLanguages = V == "LANGUAGES";
        continue;
      }
      const NameRule *L = InLanguages ? Map.language(V) : nullptr;
      if (!L)
        continue;
      replaceArgs(C, I, 1, {L->Hip});
      Enabled = true;
    }
    if (Enabled && Name != "check_language")
      insertBefore(C, "if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n" + indentOf(C) +
                          "  set(CMAKE_HIP_ARCHITECTURES " + archList() + ")\n" + indentOf(C) +
                          "endif()");
  }

  void translateFindPackage(const CMakeCommand &C) {
    const NameRule *R = C.Args.empty() ? nullptr : Map.package(C.Args[0].Value);
    if (!R)
      return;
    std::string Call = "find_package(" + R->Hip;
    for (const CMakeArgument &A : C.Args)
      if (A.Value == "REQUIRED" || A.Value == "QUIET")
        Call += " " + A.Value;
    Call += ")";
    Found.insert(R->Hip);
    for (const auto &[Package, At] : NeededPackages)
      if (Found.insert(Package).second)
        Call += "\n" + indentOf(C) + "find_package(" + Package + " REQUIRED)";
    replace(C.NameBegin, C.End, Call);
    for (size_t I = 0; I < C.Args.size(); ++I)
      Claimed.insert(I);
  }

  /// Loads, before the first command using it, a package that a translated
  /// target needs and that no translated find_package loaded.
  void findPackagesBefore(const CMakeCommand &C) {
    for (const CMakeArgument &A : C.Args)
      for (const auto &[Package, At] : NeededPackages)
        if (A.Begin == At && !Found.count(Package) && !isLaterFind(C)) {
          Found.insert(Package);
          insertBefore(C, "find_package(" + Package + " REQUIRED)");
        }
  }
  bool isLaterFind(const CMakeCommand &C) const {
    return lower(C.Name) == "find_package" && !C.Args.empty() && Map.package(C.Args[0].Value);
  }

  /// Records the packages the file's CUDA targets and FindCUDA variables
  /// will need, with the first argument that uses each.
  void notePackagesUsed(const CMakeArgument &A) {
    llvm::StringRef V = A.Value;
    auto Need = [&](const NameRule *R) {
      if (R && !R->Package.empty())
        NeededPackages.emplace(R->Package, A.Begin);
    };
    for (size_t P = V.find("CUDA::"); P != llvm::StringRef::npos; P = V.find("CUDA::", P + 1))
      Need(Map.target(V.substr(P).take_while([](char C) {
                          return llvm::isAlnum(C) || C == '_' || C == ':';
                        }).str()));
    for (size_t P = V.find("${"); P != llvm::StringRef::npos; P = V.find("${", P + 1))
      Need(Map.reference(V.substr(P + 2).take_until([](char C) { return C == '}'; }).str()));
  }

  // --- properties, variables, flags, libraries -------------------------------

  void translateProperties(const CMakeCommand &C, const std::string &Name) {
    bool Pairs = Name == "set_target_properties" || Name == "set_source_files_properties";
    size_t Start = C.Args.size();
    for (size_t I = 0; I < C.Args.size(); ++I)
      if (C.Args[I].Value == (Pairs ? "PROPERTIES" : "PROPERTY")) {
        Start = I + 1;
        break;
      }
    std::vector<std::string> RdcTargets;
    size_t Removed = 0, Total = 0;
    for (size_t I = Start; I < C.Args.size(); I += Pairs ? 2 : C.Args.size()) {
      ++Total;
      const NameRule *P = Map.property(C.Args[I].Value);
      size_t ValueCount = Pairs ? std::min<size_t>(1, C.Args.size() - I - 1) : C.Args.size() - I - 1;
      if (!P || Name.rfind("get_", 0) == 0) {
        if (P && P->Action == RuleAction::Rename && P->Value != "rdc")
          replaceArgs(C, I, 1, {P->Hip});
        continue;
      }
      if (P->Action == RuleAction::Unsupported) {
        report(C.Args[I].Begin, P->Level.value_or(Severity::Warning),
               "'" + C.Args[I].Value + "' left as written: " + P->Reason);
        continue;
      }
      if (P->Action == RuleAction::Drop || P->Value == "rdc") {
        if (P->Value == "rdc" && ValueCount && isTrue(C.Args[I + 1].Value))
          RdcTargets = targetsOf(C, Start - 1);
        replaceArgs(C, I, 1 + ValueCount, {});
        ++Removed;
        continue;
      }
      replaceArgs(C, I, 1, {P->Hip});
      if (P->Value == "offload-archs" && ValueCount)
        replaceArgs(C, I + 1, ValueCount, {archList()});
    }
    std::string Rdc;
    for (const std::string &T : RdcTargets)
      Rdc += rdcOptions(T, indentOf(C)) + "\n" + indentOf(C);
    if (Removed && Removed == Total) {
      // Nothing left to set: the command itself goes (CMake rejects an empty PROPERTIES).
      Rdc = llvm::StringRef(Rdc).rtrim(" \t\n").str();
      replace(C.NameBegin, C.End, Rdc.empty() ? "# " + C.Name + ": CUDA-only properties removed by cu2dcu" : Rdc);
    } else if (!Rdc.empty()) {
      insertAfter(C, llvm::StringRef(Rdc).rtrim(" \t\n").str());
    }
  }

  /// The targets a set_target_properties/set_property names (before Stop).
  std::vector<std::string> targetsOf(const CMakeCommand &C, size_t Stop) const {
    std::vector<std::string> Out;
    for (size_t I = 0; I < Stop && I < C.Args.size(); ++I)
      if (C.Args[I].Value != "TARGET" && C.Args[I].Value != "APPEND" &&
          C.Args[I].Value != "APPEND_STRING")
        Out.push_back(C.Args[I].Value);
    return Out;
  }

  void translateSetValue(const CMakeCommand &C) {
    const NameRule *V = C.Args.empty() ? nullptr : Map.variable(C.Args[0].Value);
    if (!V || V->Action != RuleAction::Rename)
      return;
    size_t End = 1;
    while (End < C.Args.size() && C.Args[End].Value != "CACHE" && C.Args[End].Value != "PARENT_SCOPE")
      ++End;
    if (V->Value == "offload-archs" && End > 1)
      replaceArgs(C, 1, End - 1, {archList()});
    if (V->Value == "nvcc-flags")
      translateFlagArgs(C, 1, End);
    if (V->Value == "nvcc-flag-list" && End > 1)
      replaceArgs(C, 1, End - 1, {quotedFlags(C, 1, End, "")});
  }

  /// list(APPEND <nvcc flag list> a b) -> string(APPEND <HIP flags> " a b").
  void translateListAppend(const CMakeCommand &C) {
    const NameRule *V = C.Args.size() > 2 ? Map.variable(C.Args[1].Value) : nullptr;
    if (!V || V->Value != "nvcc-flag-list" || C.Args[0].Value != "APPEND")
      return;
    replace(C.NameBegin, C.NameBegin + C.Name.size(), "string");
    replaceArgs(C, 2, C.Args.size() - 2, {quotedFlags(C, 2, C.Args.size(), " ")});
  }

  /// FindCUDA's CUDA_NVCC_FLAGS is a list, each element one nvcc argument;
  /// CMAKE_HIP_FLAGS is one string of blank-separated flags. The elements of
  /// args [First, End) (unquoted ones split at ';', quoted ones at blanks)
  /// translated and joined into one quoted string, after Lead.
  std::string quotedFlags(const CMakeCommand &C, size_t First, size_t End, const char *Lead) {
    std::vector<std::string> Words;
    for (size_t I = First; I < End; ++I) {
      // A quoted argument's escapes stay as written; an unquoted one's
      // quotes and backslashes are escaped for the quoted string.
      const bool Unquoted = C.Args[I].K == CMakeArgument::Unquoted;
      llvm::SmallVector<llvm::StringRef, 8> Parts;
      llvm::StringRef(C.Args[I].Value).split(Parts, Unquoted ? ';' : ' ', -1, false);
      for (llvm::StringRef P : Parts) {
        std::string Word;
        for (char Ch : P.trim()) {
          if (Unquoted && (Ch == '"' || Ch == '\\'))
            Word += '\\';
          Word += Ch;
        }
        Words.push_back(renameReferences(Word));
      }
    }
    bool ArchDone = true; // CMake takes the targets from *_HIP_ARCHITECTURES
    WordTranslation T = Flags.translate(Words, ArchDone);
    for (const WordNote &N : T.Notes)
      report(C.Args[First].Begin, N.Level, N.Message);
    return "\"" + std::string(Lead) + llvm::join(applyWordTranslation(Words, T), " ") + "\"";
  }

  void translateFlagArguments(const CMakeCommand &C, const std::string &Name) {
    if (Map.isFlagCommand(Name))
      translateFlagArgs(C, Name.rfind("target_", 0) == 0 ? 1 : 0, C.Args.size());
    forKeywordArgs(C, [&](const std::string &K) { return Map.isFlagKeyword(K); },
                   [&](size_t First, size_t End) {
                     bool Rdc = takeRdc(PendingRdc.Compile);
                     if (!dropsEveryFlag(C, First, End)) {
                       translateFlagArgs(C, First, End);
                       if (Rdc)
                         appendRdc(C, End);
                     } else if (Rdc) {
                       replaceArgs(C, First, End - First, {"-fgpu-rdc"});
                     } else {
                       replaceArgs(C, First - 1, End - First + 1, {}); // the keyword goes too
                     }
                   });
  }

  /// Whether args [First, End), all plain words, are flags only nvcc has.
  bool dropsEveryFlag(const CMakeCommand &C, size_t First, size_t End) {
    std::vector<std::string> Words;
    for (size_t I = First; I < End; ++I) {
      if (C.Args[I].K != CMakeArgument::Unquoted || llvm::StringRef(C.Args[I].Value).starts_with("$<"))
        return false;
      Words.push_back(C.Args[I].Value);
    }
    bool ArchDone = true;
    WordTranslation T = Flags.translate(Words, ArchDone);
    if (Words.empty() || !applyWordTranslation(Words, T).empty())
      return false;
    for (const WordNote &N : T.Notes)
      report(C.Args[First + N.Word].Begin, N.Level, N.Message);
    return true;
  }

  /// Translates the flags among args [First, End): an unquoted argument is
  /// one word, a quoted one is split at blanks, a $<...:flags> generator
  /// expression has its flags translated inside.
  void translateFlagArgs(const CMakeCommand &C, size_t First, size_t End) {
    std::vector<TextWord> Words;
    for (size_t I = First; I < End; ++I) {
      const CMakeArgument &A = C.Args[I];
      if (A.K == CMakeArgument::Bracket || isKeyword(A.Value))
        continue;
      if (A.K == CMakeArgument::Unquoted && llvm::StringRef(A.Value).starts_with("$<")) {
        translateGeneratorFlags(C, I);
        continue;
      }
      unsigned Base = A.Begin + (A.K == CMakeArgument::Quoted);
      llvm::StringRef V = A.Value;
      for (size_t P = 0; P < V.size();) {
        P = V.find_first_not_of(" \t\n", P);
        if (P == llvm::StringRef::npos)
          break;
        size_t E = std::min(V.find_first_of(" \t\n", P), V.size());
        Words.push_back({unsigned(Base + P), unsigned(Base + E)});
        P = E;
      }
      Claimed.insert(I);
    }
    bool ArchDone = true; // CMake takes the targets from *_HIP_ARCHITECTURES
    std::vector<std::string> Texts = wordTexts(Text, Words);
    WordTranslation T = Flags.translate(Texts, ArchDone);
    addWordEdits(Text, Words, T.Edits, Edits);
    for (const WordNote &N : T.Notes)
      report(Words[N.Word].Begin, N.Level, N.Message);
    // Words the flags left alone may still read a renamed variable.
    for (size_t W = 0; W < Words.size(); ++W) {
      bool Edited = llvm::any_of(T.Edits, [&](const WordEdit &E) {
        return W >= E.First && W < E.First + E.Count;
      });
      std::string Renamed = renameReferences(renameTargets(Texts[W], Words[W].Begin));
      if (!Edited && Renamed != Texts[W])
        replace(Words[W].Begin, Words[W].End, Renamed);
    }
  }

  /// $<$<COMPILE_LANGUAGE:CUDA>:-a;-b> -> $<$<COMPILE_LANGUAGE:HIP>:...> with
  /// the flags translated.
  void translateGeneratorFlags(const CMakeCommand &C, size_t I) {
    llvm::StringRef V = C.Args[I].Value;
    size_t Colon = V.find(">:");
    if (Colon == llvm::StringRef::npos || !V.ends_with(">"))
      return;
    std::string Condition = renameLanguages(V.substr(0, Colon + 2));
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    V.slice(Colon + 2, V.size() - 1).split(Parts, ';');
    std::vector<std::string> Words(Parts.begin(), Parts.end());
    bool ArchDone = true;
    WordTranslation T = Flags.translate(Words, ArchDone);
    for (const WordNote &N : T.Notes)
      report(C.Args[I].Begin, N.Level, N.Message);
    std::vector<std::string> Kept = applyWordTranslation(Words, T);
    if (Kept.empty())
      return replaceArgs(C, I, 1, {}); // every flag was nvcc's alone
    std::string Out = Condition + llvm::join(Kept, ";") + ">";
    if (Out != V)
      replace(C.Args[I].Begin, C.Args[I].End, Out);
    Claimed.insert(I);
  }

  void translateLibraryArguments(const CMakeCommand &C, const std::string &Name) {
    auto Libraries = [&](size_t First, size_t End) {
      for (size_t I = First; I < End; ++I) {
        const NameRule *L = Flags.libraryRule(C.Args[I].Value);
        if (!L || C.Args[I].K != CMakeArgument::Unquoted)
          continue;
        if (L->Action == RuleAction::Unsupported) {
          report(C.Args[I].Begin, L->Level.value_or(Severity::Warning),
                 "'" + C.Args[I].Value + "' left as written: " + L->Reason);
          continue;
        }
        bool Dashed = llvm::StringRef(C.Args[I].Value).starts_with("-l");
        replaceArgs(C, I, 1, L->Action == RuleAction::Drop
                                 ? std::vector<std::string>{}
                                 : std::vector<std::string>{(Dashed ? "-l" : "") + L->Hip});
      }
    };
    if (Map.isLibraryCommand(Name))
      Libraries(Name == "target_link_libraries" ? 1 : 0, C.Args.size());
    forKeywordArgs(C, [&](const std::string &K) { return Map.isLibraryKeyword(K); },
                   [&](size_t First, size_t End) {
                     Libraries(First, End);
                     if (takeRdc(PendingRdc.Link))
                       appendRdc(C, End);
                   });
  }

  template <typename IsKeyword, typename Fn>
  void forKeywordArgs(const CMakeCommand &C, IsKeyword Is, Fn Apply) {
    for (size_t I = 0; I < C.Args.size(); ++I) {
      if (!Is(C.Args[I].Value))
        continue;
      size_t End = I + 1;
      while (End < C.Args.size() && !isKeyword(C.Args[End].Value))
        ++End;
      Apply(I + 1, End);
      I = End - 1;
    }
  }

  void translateKeywordValues(const CMakeCommand &C, const std::string &Name) {
    for (size_t I = 0; I + 1 < C.Args.size(); ++I)
      if (const KeywordValueRule *R = Map.keywordValue(Name, C.Args[I].Value))
        if (C.Args[I + 1].Value == R->Cuda)
          replaceArgs(C, I + 1, 1, {R->Hip});
  }

  /// cuda_std_17 and its kin: CMake's HIP language has hip_std_NN.
  void translateCompileFeatures(const CMakeCommand &C) {
    for (size_t I = 1; I < C.Args.size(); ++I)
      if (const NameRule *F = Map.compileFeature(C.Args[I].Value))
        replaceArgs(C, I, 1, {F->Hip});
  }

  // --- names inside arguments ----------------------------------------------

  /// CUDA:: targets, ${VARIABLES}, variable names, LANGUAGE CUDA and
  /// $<COMPILE_LANGUAGE:CUDA> inside one argument.
  void translateNames(const CMakeCommand &C, size_t I) {
    const CMakeArgument &A = C.Args[I];
    if (A.K == CMakeArgument::Bracket)
      return;
    if (I > 0 && C.Args[I - 1].Value == "LANGUAGE")
      if (const NameRule *L = Map.language(A.Value))
        return replaceArgs(C, I, 1, {L->Hip});
    std::string Out = renameLanguages(A.Value);
    Out = renameTargets(Out, A.Begin);
    Out = renameReferences(Out);
    if (const NameRule *V = Map.variable(Out)) {
      if (V->Action == RuleAction::Unsupported)
        report(A.Begin, V->Level.value_or(Severity::Warning),
               "'" + Out + "' left as written: " + V->Reason);
      else {
        Out = V->Hip;
        noteVariable(*V, A.Begin);
      }
    }
    if (Out == A.Value)
      return;
    unsigned Base = A.Begin + (A.K == CMakeArgument::Quoted);
    if (Out.empty() && A.K == CMakeArgument::Unquoted)
      return replaceArgs(C, I, 1, {});
    replace(Base, Base + A.Value.size(), Out);
  }

  void noteVariable(const NameRule &V, unsigned Offset) {
    if (V.Level)
      report(Offset, *V.Level, "'" + V.Cuda + "' -> '" + V.Hip + "': " + V.Reason);
  }

  std::string renameTargets(const std::string &Value, unsigned Offset) {
    std::string Out = Value;
    for (size_t P = Out.find("CUDA::"); P != std::string::npos; P = Out.find("CUDA::", P + 1)) {
      size_t E = P + 6;
      while (E < Out.size() && (llvm::isAlnum(Out[E]) || Out[E] == '_'))
        ++E;
      const NameRule *T = Map.target(Out.substr(P, E - P));
      if (!T)
        continue;
      if (T->Action == RuleAction::Unsupported) {
        report(Offset, T->Level.value_or(Severity::Warning),
               "'" + T->Cuda + "' left as written: " + T->Reason);
        continue;
      }
      Out.replace(P, E - P, T->Hip);
    }
    return Out;
  }

  std::string renameReferences(const std::string &Value) {
    std::string Out = Value;
    for (size_t P = Out.find("${"); P != std::string::npos; P = Out.find("${", P + 1)) {
      size_t E = Out.find('}', P);
      if (E == std::string::npos)
        break;
      std::string Name = Out.substr(P + 2, E - P - 2);
      if (const NameRule *R = Map.reference(Name))
        Out.replace(P, E + 1 - P, R->Hip);
      else if (const NameRule *V = Map.variable(Name); V && V->Action == RuleAction::Rename)
        Out.replace(P + 2, Name.size(), V->Hip);
    }
    return Out;
  }

  /// COMPILE_LANGUAGE:CUDA, LINK_LANGUAGE:CXX,CUDA ... -> HIP.
  std::string renameLanguages(llvm::StringRef Value) const {
    std::string Out = Value.str();
    for (const char *Key : {"COMPILE_LANGUAGE:", "LINK_LANGUAGE:", "COMPILE_LANG_AND_ID:"}) {
      for (size_t P = Out.find(Key); P != std::string::npos; P = Out.find(Key, P + 1)) {
        size_t B = P + llvm::StringRef(Key).size();
        size_t E = Out.find('>', B);
        if (E == std::string::npos)
          break;
        llvm::SmallVector<llvm::StringRef, 4> Names;
        llvm::StringRef(Out).slice(B, E).split(Names, ',');
        std::vector<std::string> Renamed;
        for (llvm::StringRef N : Names) {
          const NameRule *L = Map.language(N.str());
          Renamed.push_back(L ? L->Hip : N.str());
        }
        Out.replace(B, E - B, llvm::join(Renamed, ","));
      }
    }
    return Out;
  }

  /// set_source_files_properties(<the .cu arguments> PROPERTIES LANGUAGE HIP):
  /// CMake's HIP language compiles .hip files only, by extension.
  void markCudaSources(const CMakeCommand &C) {
    std::vector<std::string> Sources;
    for (const CMakeArgument &A : C.Args)
      if (A.K != CMakeArgument::Bracket && Map.isCudaSource(A.Value))
        Sources.push_back(A.K == CMakeArgument::Quoted ? "\"" + A.Value + "\"" : A.Value);
    if (!Sources.empty())
      insertAfter(C, "set_source_files_properties(" + llvm::join(Sources, " ") +
                         " PROPERTIES LANGUAGE HIP)");
  }

  // --- relocatable device code -------------------------------------------------

  /// Each target built here gains the libraries that the HIP headers of the
  /// sources under this folder need at link time where CUDA's needed none
  /// (roctx64 for NVTX 3), in the signature its other target_link_libraries
  /// calls use (CMake rejects a mix).
  void addLinkLibraries() {
    for (const CMakeCommand &C : Cmds) {
      std::string Name = lower(C.Name);
      if ((Name != "add_executable" && Name != "add_library") || C.Args.size() < 2 ||
          llvm::is_contained(std::initializer_list<llvm::StringRef>{"IMPORTED", "ALIAS",
                                                                    "INTERFACE"},
                             C.Args[1].Value))
        continue;
      const std::string &Target = C.Args[0].Value;
      bool Keyword = false;
      std::set<std::string> Linked;
      for (const CMakeCommand &L : Cmds)
        if (lower(L.Name) == "target_link_libraries" && L.Args.size() > 1 &&
            L.Args[0].Value == Target) {
          Keyword |= llvm::is_contained(std::initializer_list<llvm::StringRef>{
                                            "PRIVATE", "PUBLIC", "INTERFACE"},
                                        L.Args[1].Value);
          for (const CMakeArgument &A : L.Args)
            Linked.insert(A.Value);
        }
      for (const std::string &Library : Opts.LinkLibraries) {
        if (Linked.count(Library))
          continue;
        insertAfter(C, "target_link_libraries(" + Target + (Keyword ? " PRIVATE " : " ") +
                           Library + ")");
        report(C.NameBegin, Severity::Note,
               Library + " linked: the translated sources include a HIP header that needs it");
      }
    }
  }

  static std::string rdcOptions(const std::string &Target, const std::string &Indent) {
    return "target_compile_options(" + Target + " PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n" +
           Indent + "target_link_options(" + Target + " PRIVATE -fgpu-rdc)";
  }

  /// A target whose CUDA sources use device code another source defines (the
  /// parse's CU2DCU-RDC) needs -fgpu-rdc to compile and link. The nvcc build
  /// may have it from a parent project (CUDA_SEPARABLE_COMPILATION there), so
  /// it is added unless this file already asks for relocatable device code:
  /// add_executable/add_library get target options, a command of the
  /// project's own gets it in the map's compile-option and library keywords
  /// (while they are translated: takeRdc), added when the call has none.
  void startRelocatableDeviceCode(const CMakeCommand &C, const std::string &Name) {
    PendingRdc = {};
    PendingRdc.Sources = relocatableSources(C);
    if (PendingRdc.Sources.empty() || asksForRelocatableCode())
      PendingRdc.Sources.clear();
    else if (Name == "add_executable" || Name == "add_library")
      PendingRdc.Compile = PendingRdc.Link = true; // target options, after the command
  }

  /// Whether the current command still needs -fgpu-rdc where Done says; it
  /// is then given there.
  bool takeRdc(bool &Done) {
    if (PendingRdc.Sources.empty() || Done)
      return false;
    return Done = true;
  }

  void appendRdc(const CMakeCommand &C, size_t End) {
    unsigned At = C.Args[End - 1].End; // after the keyword when it has no arguments
    Edits.push_back({At, At, " -fgpu-rdc"});
  }

  void addRelocatableDeviceCode(const CMakeCommand &C, const std::string &Name) {
    if (PendingRdc.Sources.empty())
      return;
    std::string Why = llvm::join(PendingRdc.Sources, ", ") +
                      " use device code that another source defines (CU2DCU-RDC)";
    if (Name == "add_executable" || Name == "add_library") {
      insertAfter(C, rdcOptions(C.Args[0].Value, indentOf(C)));
      return report(C.NameBegin, Severity::Note,
                    Why + ": -fgpu-rdc added to the target's compile and link options");
    }
    if (!PendingRdc.Compile && !PendingRdc.Link)
      return report(C.NameBegin, Severity::Warning,
                    Why + ": add -fgpu-rdc to the compile and link options of the target "
                          "built from them");
    const std::vector<std::string> &Missing =
        PendingRdc.Link ? Map.flagKeywords() : Map.libraryKeywords();
    if ((!PendingRdc.Compile || !PendingRdc.Link) && !Missing.empty())
      Edits.push_back({C.Args.back().End, C.Args.back().End, " " + Missing.front() + " -fgpu-rdc"});
    report(C.NameBegin, Severity::Note,
           Why + ": -fgpu-rdc added to the command's compile options and libraries");
  }

  /// The CUDA source arguments of C whose unit needs relocatable device code.
  std::vector<std::string> relocatableSources(const CMakeCommand &C) const {
    std::vector<std::string> Out;
    if (Opts.RelocatableUnits.empty())
      return Out;
    for (const CMakeArgument &A : C.Args) {
      if (A.K == CMakeArgument::Bracket || !Map.isCudaSource(A.Value) ||
          llvm::StringRef(A.Value).contains("${"))
        continue;
      llvm::SmallString<256> Path(A.Value);
      if (!llvm::sys::path::is_absolute(Path)) {
        Path = Opts.Folder;
        llvm::sys::path::append(Path, A.Value);
      }
      llvm::sys::path::remove_dots(Path, true);
      if (Opts.RelocatableUnits.count(Path.str().str()))
        Out.push_back(A.Value);
    }
    return Out;
  }

  bool asksForRelocatableCode() const {
    return llvm::any_of(std::initializer_list<llvm::StringRef>{"SEPARABLE_COMPILATION", "-rdc",
                                                               "relocatable-device-code",
                                                               "-fgpu-rdc"},
                        [&](llvm::StringRef Word) { return Text.contains(Word); });
  }

  // --- what is left -----------------------------------------------------------

  /// CUDA names the map does not cover, left as written. message() text is
  /// prose, not build logic.
  void reportResiduals() {
    for (const CMakeCommand &C : Cmds) {
      std::string Name = lower(C.Name);
      if (llvm::StringRef(Name).starts_with("cuda_") && !Map.command(Name))
        report(C.NameBegin, Severity::Warning,
               "'" + C.Name + "' left as written: no HIP translation of this FindCUDA command");
      if (Name == "message")
        continue;
      for (const CMakeArgument &A : C.Args) {
        unsigned Base = A.Begin + (A.K == CMakeArgument::Quoted);
        auto Begin = std::sregex_iterator(A.Value.begin(), A.Value.end(), residualPattern());
        for (auto M = Begin; M != std::sregex_iterator(); ++M) {
          unsigned At = Base + M->position();
          if (!touched(At, At + M->length()))
            report(At, Severity::Warning,
                   "'" + M->str() + "' left as written: no HIP translation in the build map");
        }
      }
    }
  }

  bool touched(unsigned Begin, unsigned End) const {
    return llvm::any_of(Edits, [&](const TextEdit &E) {
      return E.Begin < End && Begin < E.End;
    }) || llvm::any_of(Findings, [&](const Diagnostic &D) {
      return D.Offset >= Begin && D.Offset < End;
    });
  }

  llvm::StringRef Text, File;
  const BuildFlagMap &Map;
  const BuildOptions &Opts;
  NvccFlagTranslator Flags;
  std::vector<CMakeCommand> Cmds;
  std::vector<TextEdit> Edits;
  std::vector<Diagnostic> Findings;
  std::set<size_t> Claimed; // arguments of the current command already translated
  std::set<std::string> Found;
  std::map<std::string, unsigned> NeededPackages; // package -> first argument using it
  struct RelocatableDeviceCode {
    std::vector<std::string> Sources; // the current command's, when it needs -fgpu-rdc
    bool Compile = false, Link = false; // given to its compile options, to its link
  } PendingRdc;
};

} // namespace

BuildTranslation translateCMake(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                const BuildFlagMap &Map, const BuildOptions &Opts) {
  return CMakeRewriter(Text, DisplayPath, Map, Opts).run();
}

} // namespace cu2dcu
