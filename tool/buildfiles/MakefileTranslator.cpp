#include "buildfiles/MakefileTranslator.h"

#include "buildfiles/NvccFlags.h"
#include "buildfiles/TextEdits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace cu2dcu {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// [Begin, End) of each logical line: a line ending in an odd number of
/// backslashes continues on the next.
std::vector<std::pair<unsigned, unsigned>> logicalLines(llvm::StringRef Text) {
  std::vector<std::pair<unsigned, unsigned>> Lines;
  unsigned Pos = 0;
  while (Pos < Text.size()) {
    unsigned Begin = Pos, End = Pos;
    while (true) {
      size_t NL = Text.find('\n', Pos);
      End = NL == llvm::StringRef::npos ? Text.size() : NL;
      unsigned Slashes = 0;
      while (Slashes < End - Pos && Text[End - 1 - Slashes] == '\\')
        ++Slashes;
      Pos = NL == llvm::StringRef::npos ? Text.size() : NL + 1;
      if (Slashes % 2 == 0 || Pos >= Text.size())
        break;
    }
    Lines.push_back({Begin, End});
  }
  return Lines;
}

/// Where a make comment starts ('#' not escaped, not inside $(...)), or End.
unsigned commentStart(llvm::StringRef Text, unsigned Begin, unsigned End) {
  int Depth = 0;
  for (unsigned I = Begin; I < End; ++I) {
    char C = Text[I];
    if (C == '\\') {
      ++I;
    } else if (C == '$' && I + 1 < End && (Text[I + 1] == '(' || Text[I + 1] == '{')) {
      ++Depth;
      ++I;
    } else if (Depth > 0 && (C == ')' || C == '}')) {
      --Depth;
    } else if (Depth > 0 && (C == '(' || C == '{')) {
      ++Depth;
    } else if (C == '#' && Depth == 0) {
      return I;
    }
  }
  return End;
}

/// The first assignment operator or rule colon at nesting depth 0:
/// {offset of the operator, its length, true for an assignment}.
struct Separator {
  unsigned At = 0, Length = 0;
  bool Assignment = false;
};
std::optional<Separator> findSeparator(llvm::StringRef Text, unsigned Begin, unsigned End) {
  int Depth = 0;
  for (unsigned I = Begin; I < End; ++I) {
    char C = Text[I];
    if (C == '$' && I + 1 < End && (Text[I + 1] == '(' || Text[I + 1] == '{')) {
      ++Depth;
      ++I;
      continue;
    }
    if (Depth > 0) {
      Depth += (C == '(' || C == '{') - (C == ')' || C == '}');
      continue;
    }
    llvm::StringRef Rest = Text.slice(I, End);
    for (llvm::StringRef Op : {"::=", ":::=", ":=", "?=", "+=", "!="})
      if (Rest.starts_with(Op))
        return Separator{I, unsigned(Op.size()), true};
    if (C == '=')
      return Separator{I, 1, true};
    if (C == ':')
      return Separator{I, Rest.starts_with("::") ? 2u : 1u, false};
    if (C == ';')
      return std::nullopt;
  }
  return std::nullopt;
}

const llvm::StringSet<> Directives = {"ifeq",   "ifneq",    "ifdef",   "ifndef", "else",
                                      "endif",  "include",  "-include", "sinclude", "vpath",
                                      "export", "unexport", "undefine", "define",   "endef"};

/// The variable name of "override export NAME" (the text before an operator).
std::string assignedName(llvm::StringRef Lhs) {
  Lhs = Lhs.trim();
  for (llvm::StringRef Keyword : {"override", "export", "private"})
    if (Lhs.starts_with(Keyword) && Lhs.size() > Keyword.size() && isBlank(Lhs[Keyword.size()]))
      Lhs = Lhs.drop_front(Keyword.size()).ltrim();
  return Lhs.str();
}

/// The body of the first $(eval ...) in [Begin, End): [after "eval ", the
/// closing parenthesis).
std::optional<std::pair<unsigned, unsigned>> evalBody(llvm::StringRef Text, unsigned Begin,
                                                      unsigned End) {
  for (llvm::StringRef Open : {"$(eval ", "${eval "}) {
    size_t At = Text.slice(Begin, End).find(Open);
    if (At == llvm::StringRef::npos)
      continue;
    unsigned BodyBegin = Begin + At + Open.size();
    int Depth = 1;
    for (unsigned I = BodyBegin; I < End; ++I) {
      Depth += (Text[I] == '(' || Text[I] == '{') - (Text[I] == ')' || Text[I] == '}');
      if (Depth == 0)
        return std::make_pair(BodyBegin, I);
    }
  }
  return std::nullopt;
}

/// A line whose only statement is an assignment made by $(eval NAME += ...),
/// often inside $(foreach ...): the assignment's value is read as one.
bool parseEvalAssignment(llvm::StringRef Text, unsigned CodeEnd, MakeStatement &S) {
  std::optional<std::pair<unsigned, unsigned>> Body = evalBody(Text, S.Begin, CodeEnd);
  if (!Body)
    return false;
  std::optional<Separator> Sep = findSeparator(Text, Body->first, Body->second);
  if (!Sep || !Sep->Assignment)
    return false;
  S.K = MakeStatement::Assignment;
  S.Variable = assignedName(Text.slice(Body->first, Sep->At));
  S.CodeBegin = Sep->At + Sep->Length;
  S.CodeEnd = Body->second;
  return true;
}

/// Classifies a non-recipe logical line.
MakeStatement parseLine(llvm::StringRef Text, unsigned Begin, unsigned End, bool &InRule) {
  MakeStatement S;
  S.Begin = Begin;
  S.End = End;
  llvm::StringRef Line = Text.slice(Begin, End).ltrim(" \t");
  if (Line.empty())
    return S; // Blank
  S.K = Line.front() == '#' ? MakeStatement::Comment : MakeStatement::Directive;
  if (S.K == MakeStatement::Comment)
    return S;
  unsigned CodeEnd = commentStart(Text, Begin, End);
  std::optional<Separator> Sep = findSeparator(Text, Begin, CodeEnd);
  llvm::StringRef First = Line.take_until([](char C) { return isBlank(C) || C == '('; });
  bool ExportAssign = (First == "export" || First == "override") && Sep && Sep->Assignment;
  if (Directives.contains(First) && !ExportAssign)
    return S;
  if (!Sep) {
    parseEvalAssignment(Text, CodeEnd, S); // else a bare word or function call: left alone
    return S;
  }
  if (!Sep->Assignment) {
    // targets: prerequisites [; recipe], or a target-specific assignment
    unsigned After = Sep->At + Sep->Length;
    std::optional<Separator> Inner = findSeparator(Text, After, CodeEnd);
    if (Inner && Inner->Assignment) {
      S.K = MakeStatement::Assignment;
      S.Variable = assignedName(Text.slice(After, Inner->At));
      S.CodeBegin = Inner->At + Inner->Length;
      S.CodeEnd = CodeEnd;
      return S;
    }
    InRule = true;
    S.K = MakeStatement::Rule;
    S.Prerequisite = Text.slice(After, CodeEnd).ltrim(" \t").take_until([](char C) {
      return isBlank(C) || C == ';' || C == '\\';
    }).str();
    size_t Semi = Text.slice(After, End).find(';');
    S.CodeBegin = S.CodeEnd = End;
    if (Semi != llvm::StringRef::npos)
      S.CodeBegin = After + Semi + 1; // the inline recipe goes to the shell, '#' and all
    return S;
  }
  InRule = false;
  S.K = MakeStatement::Assignment;
  S.Variable = assignedName(Text.slice(Begin, Sep->At));
  S.CodeBegin = Sep->At + Sep->Length;
  S.CodeEnd = CodeEnd;
  return S;
}

/// Words of [Begin, End): blanks and continuations separate them; $(...),
/// ${...} and quotes keep their contents in one word. In a recipe, a word
/// starting with '#' begins a shell comment.
std::vector<TextWord> splitWords(llvm::StringRef Text, unsigned Begin, unsigned End, bool Recipe) {
  std::vector<TextWord> Words;
  unsigned I = Begin;
  while (I < End) {
    char C = Text[I];
    if (isBlank(C) || C == '\n' || C == '\r' || (C == '\\' && I + 1 < End && Text[I + 1] == '\n')) {
      I += C == '\\' ? 2 : 1;
      continue;
    }
    if (Recipe && C == '#')
      break;
    unsigned Start = I;
    int Depth = 0;
    char Quote = 0;
    for (; I < End; ++I) {
      C = Text[I];
      if (Quote) {
        if (C == '\\')
          ++I;
        else if (C == Quote)
          Quote = 0;
      } else if (C == '$' && I + 1 < End && (Text[I + 1] == '(' || Text[I + 1] == '{')) {
        ++Depth;
        ++I;
      } else if (Depth > 0) {
        Depth += (C == '(' || C == '{') - (C == ')' || C == '}');
      } else if (C == '"' || C == '\'') {
        Quote = C;
      } else if (C == '\\' && I + 1 < End && Text[I + 1] != '\n') {
        ++I;
      } else if (isBlank(C) || C == '\n' || C == '\\') {
        break;
      }
    }
    Words.push_back({Start, std::min(I, End)});
  }
  return Words;
}

/// The names of the variables a word reads: $(NAME), ${NAME}, $(NAME:a=b).
void collectReferences(llvm::StringRef Word, std::set<std::string> &Names) {
  for (size_t P = Word.find('$'); P != llvm::StringRef::npos; P = Word.find('$', P + 1)) {
    if (P + 1 >= Word.size() || (Word[P + 1] != '(' && Word[P + 1] != '{'))
      continue;
    llvm::StringRef Name = Word.substr(P + 2).take_while(
        [](char C) { return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-'; });
    if (!Name.empty())
      Names.insert(Name.str());
  }
}

/// NAME when the word is exactly $(NAME) or ${NAME}.
std::string wholeReference(llvm::StringRef Word) {
  if (Word.size() > 3 && Word[0] == '$' && (Word[1] == '(' || Word[1] == '{') &&
      Word.back() == (Word[1] == '(' ? ')' : '}'))
    return Word.substr(2, Word.size() - 3).str();
  return "";
}

/// A CUDA compiler looked up by the shell ($(shell which nvcc), $(shell
/// command -v nvcc), $(shell type -p nvcc)): where its name lies in the word,
/// and its HIP driver.
struct CompilerLookup {
  size_t NameAt, NameLength;
  const std::string *Hip;
};
std::optional<CompilerLookup> compilerLookup(llvm::StringRef Word,
                                             const NvccFlagTranslator &Flags) {
  static const llvm::Regex Lookup(
      "^\\$[({]shell[ \t]+(which|command[ \t]+-v|type[ \t]+-p)[ \t]+([^ \t)}]+)[ \t]*[)}]$");
  llvm::SmallVector<llvm::StringRef, 3> Match;
  if (!Lookup.match(Word, &Match))
    return std::nullopt;
  const std::string *Hip = Flags.hipCompiler(Match[2]);
  if (!Hip)
    return std::nullopt;
  return CompilerLookup{size_t(Match[2].data() - Word.data()), Match[2].size(), Hip};
}

/// What the analysis found out about the makefile's variables.
class MakefileAnalysis {
public:
  MakefileAnalysis(llvm::StringRef Text, const std::vector<MakeStatement> &Stmts,
                   const NvccFlagTranslator &Flags)
      : Text(Text), Stmts(Stmts), Flags(Flags) {
    for (const MakeStatement &S : Stmts)
      Words.push_back(wordTexts(Text, splitWords(Text, S.CodeBegin, S.CodeEnd,
                                                 S.K != MakeStatement::Assignment)));
    findCompilerVariables();
    findFlagVariables();
  }

  /// The index of the compiler word of statement I, or -1.
  int compilerWord(size_t I) const {
    for (size_t W = 0; W < Words[I].size(); ++W)
      if (isCompiler(Words[I][W]))
        return int(W);
    return -1;
  }
  bool isFlagVariable(const std::string &Name) const { return FlagVariables.count(Name); }
  const std::vector<std::string> &words(size_t I) const { return Words[I]; }

private:
  bool isCompiler(const std::string &Word) const {
    return Flags.hipCompiler(Word) || compilerLookup(Word, Flags) ||
           CompilerVariables.count(wholeReference(Word));
  }

  void findCompilerVariables() {
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (size_t I = 0; I < Stmts.size(); ++I)
        if (Stmts[I].K == MakeStatement::Assignment && !Words[I].empty() &&
            isCompiler(Words[I][0]))
          Grew |= CompilerVariables.insert(Stmts[I].Variable).second;
    }
  }

  /// Variables read on a compiler command line, those their values read, and
  /// those holding a flag only nvcc has.
  void findFlagVariables() {
    for (size_t I = 0; I < Stmts.size(); ++I) {
      int C = compilerWord(I);
      for (size_t W = C + 1; C >= 0 && W < Words[I].size(); ++W)
        collectReferences(Words[I][W], FlagVariables);
      if (Stmts[I].K == MakeStatement::Assignment && Flags.hasDistinctiveFlag(Words[I]))
        FlagVariables.insert(Stmts[I].Variable);
    }
    for (bool Grew = true; Grew;) {
      size_t Before = FlagVariables.size();
      for (size_t I = 0; I < Stmts.size(); ++I)
        if (Stmts[I].K == MakeStatement::Assignment && FlagVariables.count(Stmts[I].Variable))
          for (const std::string &W : Words[I])
            collectReferences(W, FlagVariables);
      Grew = FlagVariables.size() != Before;
    }
  }

  llvm::StringRef Text;
  const std::vector<MakeStatement> &Stmts;
  const NvccFlagTranslator &Flags;
  std::vector<std::vector<std::string>> Words;
  std::set<std::string> CompilerVariables, FlagVariables;
};

} // namespace

std::vector<MakeStatement> parseMakefile(llvm::StringRef Text) {
  std::vector<MakeStatement> Stmts;
  bool InRule = false, InDefine = false;
  std::string Prerequisite; // of the rule the recipe lines belong to
  for (auto [Begin, End] : logicalLines(Text)) {
    llvm::StringRef Line = Text.slice(Begin, End);
    MakeStatement S;
    S.Begin = Begin;
    S.End = End;
    S.CodeBegin = S.CodeEnd = End;
    llvm::StringRef Trimmed = Line.ltrim(" \t");
    if (InDefine) {
      S.K = MakeStatement::Directive; // a define body is text, expanded elsewhere
      InDefine = !Trimmed.starts_with("endef");
    } else if (InRule && Line.starts_with("\t")) {
      S.K = MakeStatement::Recipe;
      S.CodeBegin = Begin + 1;
      S.Prerequisite = Prerequisite;
    } else {
      S = parseLine(Text, Begin, End, InRule);
      if (S.K == MakeStatement::Rule)
        Prerequisite = S.Prerequisite;
      InDefine = Trimmed.starts_with("define") && (Trimmed.size() == 6 || isBlank(Trimmed[6]));
    }
    Stmts.push_back(std::move(S));
  }
  return Stmts;
}

namespace {

/// One statement's compiler words: where its arguments start and how they
/// translate.
struct CommandLine {
  int Compiler = -1;              // index of the compiler word, or -1 (a flag variable)
  std::vector<TextWord> Args;     // the words after the compiler word
  WordTranslation Translation;
  std::vector<std::string> After; // the argument words once translated
};

/// Whether the words, or the variables they read, hold Word once translated.
bool carries(const std::vector<std::string> &Words, const std::string &Word,
             const std::set<std::string> &Carriers) {
  std::set<std::string> Refs;
  for (const std::string &W : Words)
    collectReferences(W, Refs);
  return llvm::is_contained(Words, Word) ||
         llvm::any_of(Refs, [&](const std::string &R) { return Carriers.count(R); });
}

/// The variables that hold Word once translated, directly or through others.
std::set<std::string> carriersOf(const std::vector<MakeStatement> &Stmts,
                                 const std::vector<std::optional<CommandLine>> &Lines,
                                 const std::string &Word) {
  std::set<std::string> Carriers;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (size_t I = 0; I < Stmts.size(); ++I)
      if (Lines[I] && Stmts[I].K == MakeStatement::Assignment &&
          carries(Lines[I]->After, Word, Carriers))
        Grew |= Carriers.insert(Stmts[I].Variable).second;
  }
  return Carriers;
}

/// Whether statement I is a link line (a compiler command without -c) that
/// does not give Word yet.
bool linksWithout(const std::vector<MakeStatement> &Stmts,
                  const std::vector<std::optional<CommandLine>> &Lines, size_t I,
                  const std::string &Word, const std::set<std::string> &Carriers) {
  const std::optional<CommandLine> &L = Lines[I];
  return L && L->Compiler >= 0 && Stmts[I].K != MakeStatement::Assignment &&
         !llvm::is_contained(L->After, "-c") && !carries(L->After, Word, Carriers);
}

/// A link line needs the link_requires words (-fgpu-rdc) that some compile
/// line got: nvcc device-links by itself.
void addLinkRequirements(const std::vector<MakeStatement> &Stmts,
                         const std::vector<std::optional<CommandLine>> &Lines,
                         const NvccFlagTranslator &Flags, std::vector<TextEdit> &Edits) {
  for (const std::string &Word : Flags.linkRequires()) {
    std::set<std::string> Carriers = carriersOf(Stmts, Lines, Word);
    bool Used = llvm::any_of(Lines, [&](const std::optional<CommandLine> &L) {
      return L && llvm::is_contained(L->After, Word);
    });
    for (size_t I = 0; Used && I < Stmts.size(); ++I) {
      if (!linksWithout(Stmts, Lines, I, Word, Carriers))
        continue;
      const std::vector<TextWord> &Args = Lines[I]->Args;
      unsigned At = Args.empty() ? Stmts[I].CodeEnd : Args.front().Begin;
      Edits.push_back({At, At, Word + " "});
    }
  }
}

/// A link line gains -l<library> for each library that the HIP headers of
/// the sources under the Makefile's folder need where CUDA's needed none
/// (roctx64 for NVTX 3), after its other words.
void addLinkLibraries(llvm::StringRef Text, llvm::StringRef File,
                      const std::vector<MakeStatement> &Stmts,
                      const std::vector<std::optional<CommandLine>> &Lines,
                      const BuildOptions &Opts, std::vector<TextEdit> &Edits,
                      std::vector<Diagnostic> &Findings) {
  for (const std::string &Library : Opts.LinkLibraries) {
    std::string Word = "-l" + Library;
    std::set<std::string> Carriers = carriersOf(Stmts, Lines, Word);
    for (size_t I = 0; I < Stmts.size(); ++I) {
      if (!linksWithout(Stmts, Lines, I, Word, Carriers))
        continue;
      Edits.push_back({Stmts[I].CodeEnd, Stmts[I].CodeEnd, " " + Word});
      Findings.push_back(buildFinding(Text, File, Stmts[I].CodeBegin, Severity::Note,
                                      Word + " added: the translated sources include a HIP "
                                             "header that needs it at link time"));
    }
  }
}

/// nvcc compiles every input through its C++ front end (a .c file with
/// -std=c++17 included); clang takes .c as C and rejects C++ flags. The map's
/// source_languages say which words go before such an input ($< of a .c
/// rule, or a .c word).
void addSourceLanguages(llvm::StringRef Text, llvm::StringRef File,
                        const std::vector<MakeStatement> &Stmts,
                        const std::vector<std::optional<CommandLine>> &Lines,
                        const BuildFlagMap &Map, std::vector<TextEdit> &Edits,
                        std::vector<Diagnostic> &Findings) {
  auto RuleFor = [&](llvm::StringRef Input) -> const NameRule * {
    size_t Dot = Input.rfind('.');
    return Dot == llvm::StringRef::npos ? nullptr : Map.sourceLanguage(Input.substr(Dot + 1).str());
  };
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const std::optional<CommandLine> &L = Lines[I];
    if (!L || L->Compiler < 0 || Stmts[I].K == MakeStatement::Assignment)
      continue;
    for (const TextWord &W : L->Args) {
      llvm::StringRef Word = Text.slice(W.Begin, W.End);
      const NameRule *R = RuleFor(Word == "$<" ? llvm::StringRef(Stmts[I].Prerequisite) : Word);
      if (!R || Word.starts_with("-"))
        continue;
      Edits.push_back({W.Begin, W.Begin, R->Hip + " "});
      if (R->Level)
        Findings.push_back(buildFinding(Text, File, W.Begin, *R->Level, R->Reason));
      break;
    }
  }
}

/// A CUDA compiler named where no command line starts with it (inside
/// $(shell ...), a quoted string, a sub-make's arguments) is left as written.
void reportUntranslatedCompilers(llvm::StringRef Text, llvm::StringRef File,
                                 const std::vector<MakeStatement> &Stmts, const BuildFlagMap &Map,
                                 const std::vector<TextEdit> &Edits,
                                 std::vector<Diagnostic> &Findings) {
  for (const MakeStatement &S : Stmts) {
    for (const TextWord &W :
         splitWords(Text, S.CodeBegin, S.CodeEnd, S.K != MakeStatement::Assignment)) {
      llvm::StringRef Word = Text.slice(W.Begin, W.End);
      for (const std::string &Compiler : Map.cudaCompilers()) {
        size_t At = Word.find(Compiler);
        bool Edited = llvm::any_of(Edits, [&](const TextEdit &E) {
          return E.Begin < W.End && W.Begin < E.End;
        });
        if (At != llvm::StringRef::npos && !Edited)
          Findings.push_back(buildFinding(Text, File, W.Begin + At, Severity::Warning,
                                          "'" + Compiler + "' left as written in '" + Word.str() +
                                              "': not a command line the translation follows"));
      }
    }
  }
}

} // namespace

BuildTranslation translateMakefile(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                   const BuildFlagMap &Map, const BuildOptions &Opts) {
  NvccFlagTranslator Flags(Map, Opts);
  std::vector<MakeStatement> Stmts = parseMakefile(Text);
  MakefileAnalysis Analysis(Text, Stmts, Flags);
  BuildTranslation Result;
  std::vector<TextEdit> Edits;
  std::vector<std::optional<CommandLine>> Lines(Stmts.size());
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const MakeStatement &S = Stmts[I];
    std::vector<TextWord> Words =
        splitWords(Text, S.CodeBegin, S.CodeEnd, S.K != MakeStatement::Assignment);
    CommandLine L;
    L.Compiler = Analysis.compilerWord(I);
    if (L.Compiler >= 0) {
      const std::string &Word = Analysis.words(I)[L.Compiler];
      unsigned Begin = Words[L.Compiler].Begin;
      if (const std::string *Hip = Flags.hipCompiler(Word))
        Edits.push_back({Begin, Words[L.Compiler].End, *Hip});
      else if (auto Lookup = compilerLookup(Word, Flags))
        Edits.push_back({unsigned(Begin + Lookup->NameAt),
                         unsigned(Begin + Lookup->NameAt + Lookup->NameLength), *Lookup->Hip});
    } else if (!(S.K == MakeStatement::Assignment && Analysis.isFlagVariable(S.Variable))) {
      continue;
    }
    L.Args.assign(Words.begin() + (L.Compiler + 1), Words.end());
    std::vector<std::string> Texts = wordTexts(Text, L.Args);
    bool ArchDone = false;
    L.Translation = Flags.translate(Texts, ArchDone);
    L.After = applyWordTranslation(Texts, L.Translation);
    addWordEdits(Text, L.Args, L.Translation.Edits, Edits);
    for (const WordNote &N : L.Translation.Notes)
      Result.Findings.push_back(
          buildFinding(Text, DisplayPath, L.Args[N.Word].Begin, N.Level, N.Message));
    Lines[I] = std::move(L);
  }
  addLinkRequirements(Stmts, Lines, Flags, Edits);
  addLinkLibraries(Text, DisplayPath, Stmts, Lines, Opts, Edits, Result.Findings);
  addSourceLanguages(Text, DisplayPath, Stmts, Lines, Map, Edits, Result.Findings);
  reportUntranslatedCompilers(Text, DisplayPath, Stmts, Map, Edits, Result.Findings);
  Result.Text = applyEdits(Text, std::move(Edits), Result.Changes);
  std::sort(Result.Findings.begin(), Result.Findings.end());
  return Result;
}

} // namespace cu2dcu
