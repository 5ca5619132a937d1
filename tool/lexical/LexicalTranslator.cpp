#include "lexical/LexicalTranslator.h"

#include "lexical/LexicalContext.h"
#include "lexical/LexicalHipDeclared.h"
#include "lexical/LexicalLaunch.h"
#include "lexical/LexicalWarpCalls.h"
#include "translate/EntryTranslation.h"
#include "translate/NamespaceTranslation.h"

#include <optional>

namespace cu2dcu {

namespace {

namespace tok = clang::tok;
using namespace lexical;

/// One run over a range: directives, names and the calls and launches they
/// start; launches and warp calls are LexicalLaunch's and LexicalWarpCalls'.
class Pass : private LexicalContext {
public:
  Pass(const ApiMap &Map, const TranslationOptions &Options, const std::string &Text,
       const std::string &Path, FileFindings &Out, std::set<std::string> &IncludedHip)
      : LexicalContext(Map, Options, Text, Path, Out), IncludedHip(IncludedHip) {}

  void run(unsigned Begin, unsigned End);
  using LexicalContext::LeftToAst;
  using LexicalContext::WholeFile;

private:
  void directive(const TokenList &T, size_t First, size_t Last);
  void include(const TokenList &T, size_t First, size_t Last);
  void code(const TokenList &T);
  void name(const TokenList &T, size_t I);
  void callArguments(const TokenList &T, size_t I, const ApiEntry &Entry);
  void wrapArgument(const TokenList &T, TokenSpan Arg, const std::string &Prefix,
                    const std::string &Category, const std::string &CudaName);
  void launchBounds(const TokenList &T, size_t I);
  bool isDeclaredHere(const TokenList &T, size_t I) const;
  /// Whether Offset lies on the first line of an #if or #elif directive (the
  /// AST mode hands conditions over without their directive).
  bool inIfCondition(unsigned Offset) const;
  /// Whether T[I] is tested with defined(), #ifdef or #ifndef.
  bool isTestedForDefinition(const TokenList &T, size_t I) const;
  /// Whether T uses Name other than in a test for definition.
  bool hasValueUse(const TokenList &T, const std::string &Name) const;

  std::set<std::string> &IncludedHip;
  std::set<std::string> DeclaredNames; // declared by the user in this range
  std::set<std::string> KernelNames;   // __global__ functions defined in this range
};

/// Offset just past the line that holds Offset: past its newline, following
/// line continuations and block comments that start on it.
unsigned lineEnd(const std::string &Text, unsigned Offset) {
  while (Offset < Text.size()) {
    char C = Text[Offset];
    if (size_t Next = continuationEnd(Text, Offset)) {
      Offset = unsigned(Next);
      continue;
    }
    if (C == '/' && Offset + 1 < Text.size() && Text[Offset + 1] == '*') {
      size_t Close = Text.find("*/", Offset + 2);
      Offset = Close == std::string::npos ? Text.size() : unsigned(Close + 2);
      continue;
    } else if (C == '/' && Offset + 1 < Text.size() && Text[Offset + 1] == '/') {
      // A line comment runs to the end of the line (continuations included).
      while (Offset < Text.size() && Text[Offset] != '\n')
        ++Offset;
      if (Offset > 0 && Offset < Text.size() &&
          (Text[Offset - 1] == '\\' ||
           (Text[Offset - 1] == '\r' && Offset > 1 && Text[Offset - 2] == '\\'))) {
        ++Offset;
        continue;
      }
      continue;
    } else if (C == '\n') {
      return Offset + 1;
    }
    ++Offset;
  }
  return Offset;
}

/// Start of the physical line holding Offset.
unsigned lineBegin(const std::string &Text, unsigned Offset) {
  while (Offset > 0 && Text[Offset - 1] != '\n')
    --Offset;
  return Offset;
}

struct IncludeDirective {
  std::string Header;
  unsigned HeaderOffset = 0; // the name with its <> or ""
  unsigned HeaderLength = 0;
  unsigned LineBegin = 0; // the directive's whole line(s), newline included
  unsigned LineEnd = 0;
};

/// The #include (#include_next, #import) directive in T[First, Last), whose
/// first token is the '#', when it names a header literally.
std::optional<IncludeDirective> parseInclude(const std::string &Text, const TokenList &T,
                                             size_t First, size_t Last) {
  if (First + 2 >= Last || T[First + 1].Kind != tok::raw_identifier)
    return std::nullopt;
  std::string Kind = cleanSpelling(Text, T[First + 1]);
  if (Kind != "include" && Kind != "include_next" && Kind != "import")
    return std::nullopt;
  IncludeDirective D;
  size_t I = First + 2;
  D.HeaderOffset = T[I].Offset;
  if (T[I].Kind == tok::string_literal && !T[I].NeedsCleaning && T[I].Length >= 2) {
    D.HeaderLength = T[I].Length;
    D.Header = Text.substr(D.HeaderOffset + 1, T[I].Length - 2);
  } else if (T[I].Kind == tok::less) {
    size_t Close = I + 1;
    while (Close < Last && T[Close].Kind != tok::greater)
      ++Close;
    if (Close >= Last)
      return std::nullopt;
    D.HeaderLength = T[Close].Offset + 1 - D.HeaderOffset;
    D.Header = Text.substr(D.HeaderOffset + 1, D.HeaderLength - 2);
  } else {
    return std::nullopt; // #include MACRO
  }
  D.LineBegin = lineBegin(Text, T[First].Offset);
  D.LineEnd = lineEnd(Text, T[Last - 1].Offset + T[Last - 1].Length);
  return D;
}

/// End (one past) of the directive starting at the '#' T[First].
size_t directiveEnd(const TokenList &T, size_t First) {
  size_t Last = First + 1;
  while (Last < T.size() && !T[Last].StartsLine)
    ++Last;
  return Last;
}

void Pass::run(unsigned Begin, unsigned End) {
  TokenList Tokens = lexRaw(Text, Begin, End);
  // Split directives from code. A directive runs from '#' at the start of a
  // line to the next token that starts a line (comments and continuations
  // do not end it, as in the preprocessor).
  TokenList Code;
  Code.reserve(Tokens.size());
  std::vector<std::pair<size_t, size_t>> Directives;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind == tok::hash && Tokens[I].StartsLine) {
      size_t Last = directiveEnd(Tokens, I);
      Directives.push_back({I, Last});
      if (isWord(Tokens, I + 1, "define") && I + 2 < Last &&
          Tokens[I + 2].Kind == tok::raw_identifier) {
        LocalMacros.insert(spelling(Tokens[I + 2]));
        if (Last == I + 4 && Tokens[I + 3].Kind == tok::numeric_constant)
          MacroValues[spelling(Tokens[I + 2])] = spelling(Tokens[I + 3]);
      }
      I = Last - 1;
      continue;
    }
    Code.push_back(Tokens[I]);
  }
  // Names the user declares here are the user's, not CUDA's to report.
  for (size_t I = 0; I < Code.size(); ++I)
    if (Code[I].Kind == tok::raw_identifier && isDeclaredHere(Code, I))
      DeclaredNames.insert(spelling(Code[I]));
  // Kernels: the name before the first '(' after __global__ (past
  // __launch_bounds__(...)), for the function_arg casts.
  for (size_t I = 0; I < Code.size(); ++I) {
    if (Code[I].Kind != tok::raw_identifier || spelling(Code[I]) != "__global__")
      continue;
    for (size_t J = I + 1; J + 1 < Code.size() && Code[J].Kind != tok::semi; ++J)
      if (Code[J + 1].Kind == tok::l_paren && Code[J].Kind == tok::raw_identifier &&
          spelling(Code[J]) != "__launch_bounds__") {
        KernelNames.insert(spelling(Code[J]));
        break;
      }
  }
  for (const auto &[First, Last] : Directives)
    directive(Tokens, First, Last);
  code(Code);
  guardHipDeclaredDefinitions(*this, Code);
}

void Pass::directive(const TokenList &T, size_t First, size_t Last) {
  if (First + 1 >= Last || T[First + 1].Kind != tok::raw_identifier)
    return;
  std::string Kind = spelling(T[First + 1]);
  if (Kind == "include" || Kind == "include_next" || Kind == "import") {
    include(T, First, Last);
  } else if (Kind == "if" || Kind == "elif" || Kind == "ifdef" || Kind == "ifndef" ||
             Kind == "elifdef" || Kind == "elifndef") {
    // From the directive's name on: "#ifdef NAME" tests NAME for definition.
    TokenList Condition(T.begin() + First + 1, T.begin() + Last);
    for (size_t I = 1; I < Condition.size(); ++I)
      if (Condition[I].Kind == tok::raw_identifier)
        name(Condition, I);
  } else if (Kind == "define" && First + 2 < Last) {
    // The body follows the name and, for a function-like macro, the
    // parameter list (a '(' right after the name, without space).
    size_t Body = First + 3;
    const RawToken &Name = T[First + 2];
    if (Body < Last && T[Body].Kind == tok::l_paren && T[Body].Offset == Name.Offset + Name.Length) {
      while (Body < Last && T[Body].Kind != tok::r_paren)
        ++Body;
      ++Body;
    }
    if (Body < Last)
      code(TokenList(T.begin() + Body, T.begin() + Last));
  }
  // #undef, #pragma, #error, #warning, #line: left as written.
}

void Pass::include(const TokenList &T, size_t First, size_t Last) {
  if (auto D = parseInclude(Text, T, First, Last))
    translateInclude(Map, D->Header, D->HeaderOffset, D->HeaderLength, D->LineBegin, D->LineEnd,
                     Text, Path, Options, Out, IncludedHip);
}

void Pass::code(const TokenList &T) {
  SkipUntil = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    if (T[I].Offset < SkipUntil)
      continue;
    if (T[I].Kind == tok::lesslessless)
      translateLaunch(*this, T, I);
    else if (T[I].Kind == tok::raw_identifier && spelling(T[I]) == "register") {
      if (auto Removal = registerKeywordRemoval(Text, T[I].Offset, T[I].Offset + T[I].Length))
        Out.Edits.push_back(*Removal);
    } else if (T[I].Kind == tok::raw_identifier) {
      name(T, I);
    }
  }
}

/// Whether T[I] is the name in a declaration: `type NAME(`, `type NAME =`,
/// `type NAME;` and the like, not `return NAME(`. A declaration of a name the
/// maps know is the user's own (a polyfill, a parameter, a lambda), which the
/// AST mode leaves alone too.
bool isDeclaredAt(const std::string &Text, const TokenList &T, size_t I) {
  if (I == 0 || I + 1 >= T.size() || T[I - 1].Kind != tok::raw_identifier)
    return false;
  switch (T[I + 1].Kind) {
  case tok::l_paren:
  case tok::equal:
  case tok::semi:
  case tok::l_square:
  case tok::l_brace:
  case tok::comma:
  case tok::r_paren:
    break;
  default:
    return false;
  }
  return !isExpressionKeyword(cleanSpelling(Text, T[I - 1]));
}

bool Pass::isDeclaredHere(const TokenList &T, size_t I) const { return isDeclaredAt(Text, T, I); }

bool Pass::hasValueUse(const TokenList &T, const std::string &Name) const {
  for (size_t J = 0; J < T.size(); ++J)
    if (T[J].Kind == tok::raw_identifier && spelling(T[J]) == Name && !isTestedForDefinition(T, J))
      return true;
  return false;
}

bool Pass::isTestedForDefinition(const TokenList &T, size_t I) const {
  if (isWord(T, int(I) - 1, "defined") || isWord(T, int(I) - 1, "ifdef") ||
      isWord(T, int(I) - 1, "ifndef"))
    return true;
  return I >= 2 && T[I - 1].Kind == tok::l_paren && isWord(T, int(I) - 2, "defined");
}

bool Pass::inIfCondition(unsigned Offset) const {
  size_t Newline = Text.rfind('\n', Offset);
  size_t LineStart = Newline == std::string::npos ? 0 : Newline + 1;
  llvm::StringRef Line = llvm::StringRef(Text).slice(LineStart, Offset).ltrim();
  if (!Line.consume_front("#"))
    return false;
  Line = Line.ltrim();
  return (Line.consume_front("if") || Line.consume_front("elif")) && !Line.empty() &&
         (Line.front() == ' ' || Line.front() == '\t' || Line.front() == '(' || Line.front() == '!');
}

void Pass::name(const TokenList &T, size_t I) {
  // Member names (prop.major) are not APIs.
  if (I > 0 && (T[I - 1].Kind == tok::period || T[I - 1].Kind == tok::arrow))
    return;
  std::string Name = spelling(T[I]);
  if (Name == "__launch_bounds__") {
    launchBounds(T, I);
    return;
  }
  if (Name.size() > 2 && Name[0] == '_' && Name[1] == '_' && !isDeclaredHere(T, I) &&
      translateWarpCall(*this, T, I, Name))
    return;
  const ApiEntry *Entry = Map.lookup(Name);
  // A name qualified by a scope the maps do not know (mylib::cudaMalloc) is
  // the user's; CUDA's own names live in the global namespace.
  if (I > 0 && T[I - 1].Kind == tok::coloncolon && I > 1 && T[I - 2].Kind == tok::raw_identifier) {
    std::string Scope = spelling(T[I - 2]);
    if (!Map.lookup(Scope) && !Map.lookup(Scope + "::"))
      return;
  }
  if (Entry && Entry->Kind == EntryKind::Namespace)
    return;
  if (Entry && !Entry->HipInCondition.empty() && !isTestedForDefinition(T, I) &&
      inIfCondition(T[I].Offset)) {
    Out.Edits.push_back({T[I].Offset, T[I].Length, Entry->HipInCondition, Entry->Family, Name});
    return;
  }
  if (Entry) {
    // A declaration of a mapped name is the user's own (a polyfill, a
    // parameter, a lambda), and so are the uses in this range of a plain
    // word the user declares here (auto ballot = ...; ballot();).
    if (isDeclaredHere(T, I) || (DeclaredNames.count(Name) && !Map.looksLikeApiName(Name)))
      return;
    // A condition that also compares the value keeps every use: on AMD the
    // CUDA macro stays undefined and the whole test reads as on a host pass.
    if (Entry->DefinedOnly && (!isTestedForDefinition(T, I) || hasValueUse(T, Name))) {
      if (!Entry->Note.empty())
        addFinding(Out, Text, Path, T[I].Offset, check_ids::ApiNote, Severity::Note,
                   "'" + Name + "' kept: " + Entry->Note);
      return;
    }
    translateUse(*Entry, T[I].Offset, T[I].Length, Text, Path, Options, Out);
    if (Entry->isSupported())
      callArguments(T, I, *Entry);
    return;
  }
  if (Map.looksLikeApiName(Name) && !isProjectMacro(Name) && !DeclaredNames.count(Name) &&
      !(Options.ProjectNames && Options.ProjectNames->count(Name)))
    addFinding(Out, Text, Path, T[I].Offset, check_ids::Unmapped, Severity::Warning,
               "'" + Name + "' looks like a CUDA API but no map entry covers it; left unchanged");
}

/// The lexical form of match/CallArgumentTranslator: without types, a kernel
/// argument is one that names a __global__ function defined here.
void Pass::callArguments(const TokenList &T, size_t I, const ApiEntry &Entry) {
  if ((!Entry.SymbolArg && !Entry.FunctionArg) || I + 1 >= T.size() ||
      T[I + 1].Kind != tok::l_paren)
    return;
  auto Args = argumentSpans(Text, T, I + 1);
  if (Entry.SymbolArg && *Entry.SymbolArg < Args.size())
    wrapArgument(T, Args[*Entry.SymbolArg], "HIP_SYMBOL(", "symbol", Entry.Cuda);
  if (Entry.FunctionArg && *Entry.FunctionArg < Args.size()) {
    const RawToken &First = T[Args[*Entry.FunctionArg].first];
    if (First.Kind == tok::raw_identifier && KernelNames.count(spelling(First)))
      wrapArgument(T, Args[*Entry.FunctionArg], "reinterpret_cast<const void *>(",
                   "kernel-pointer", Entry.Cuda);
  }
}

void Pass::wrapArgument(const TokenList &T, TokenSpan Arg,
                        const std::string &Prefix, const std::string &Category,
                        const std::string &CudaName) {
  const RawToken &A = T[Arg.first], &B = T[Arg.second];
  if (Text.compare(A.Offset, Prefix.size(), Prefix) == 0)
    return; // already wrapped
  Out.Edits.push_back({A.Offset, 0, Prefix, Category, CudaName});
  Out.Edits.push_back({B.Offset + B.Length, 0, ")", Category + "-syntax", ""});
}

/// __launch_bounds__(maxThreads, minBlocks): as in the AST mode.
void Pass::launchBounds(const TokenList &T, size_t I) {
  if (I + 1 >= T.size() || T[I + 1].Kind != tok::l_paren)
    return;
  auto Args = argumentSpans(Text, T, I + 1);
  if (Args.size() != 2)
    return;
  const RawToken &MaxLast = T[Args[0].second];
  const RawToken &MinFirst = T[Args[1].first], &MinLast = T[Args[1].second];
  LaunchBoundsSpelling Use;
  Use.Name = ByteRange{T[I].Offset, T[I].Offset + T[I].Length};
  Use.MaxThreadsEnd = MaxLast.Offset + MaxLast.Length;
  Use.MinBlocks = {MinFirst.Offset, MinLast.Offset + MinLast.Length};
  translateLaunchBounds(Map, Use, Text, Path, Out);
}

} // namespace

bool LexicalTranslator::mentionsCuda(const std::string &Text) const {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const RawToken &T = Tokens[I];
    if (T.Kind == tok::lesslessless)
      return true;
    // An #include counts only when the maps know the header.
    if (T.Kind == tok::hash && T.StartsLine) {
      size_t Last = directiveEnd(Tokens, I);
      if (auto Include = parseInclude(Text, Tokens, I, Last))
        if (Map.lookupHeader(Include->Header))
          return true;
      continue;
    }
    if (T.Kind != tok::raw_identifier)
      continue;
    std::string Name = cleanSpelling(Text, T);
    if (Map.lookup(Name) || Map.looksLikeApiName(Name) || Name == "__global__" ||
        Name == "__device__" || Name == "threadIdx")
      return true;
  }
  return false;
}

void LexicalTranslator::collectProjectNames(const std::string &Text, std::set<std::string> &Macros,
                                            std::set<std::string> &Names) const {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind == tok::hash && Tokens[I].StartsLine && I + 2 < Tokens.size() &&
        Tokens[I + 1].Kind == tok::raw_identifier &&
        cleanSpelling(Text, Tokens[I + 1]) == "define" &&
        Tokens[I + 2].Kind == tok::raw_identifier)
      Macros.insert(cleanSpelling(Text, Tokens[I + 2]));
    if (Tokens[I].Kind == tok::raw_identifier && isDeclaredAt(Text, Tokens, I)) {
      std::string Name = cleanSpelling(Text, Tokens[I]);
      if (Map.looksLikeApiName(Name))
        Names.insert(std::move(Name));
    }
  }
}

void LexicalTranslator::collectLinkLibraries(const std::string &Text,
                                             std::set<std::string> &Libraries) const {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I)
    if (Tokens[I].Kind == tok::hash && Tokens[I].StartsLine)
      if (auto Include = parseInclude(Text, Tokens, I, directiveEnd(Tokens, I)))
        if (const ApiEntry *Entry = Map.lookupHeader(Include->Header))
          if (!Entry->Link.empty())
            Libraries.insert(Entry->Link);
}

void LexicalTranslator::translateRange(const std::string &Text, unsigned Begin, unsigned End,
                                       const std::string &Path, FileFindings &Out,
                                       std::set<std::string> &IncludedHip,
                                       const std::set<unsigned> *LeftToAst) const {
  Pass Range(Map, Options, Text, Path, Out, IncludedHip);
  Range.LeftToAst = LeftToAst;
  Range.run(Begin, End);
}

void LexicalTranslator::translateFile(const std::string &Text, const std::string &Path,
                                      FileFindings &Out) const {
  std::set<std::string> IncludedHip;
  Pass WholeFile(Map, Options, Text, Path, Out, IncludedHip);
  WholeFile.WholeFile = true;
  WholeFile.run(0, Text.size());
  // The AST mode runs the same whole-file namespace pass (match/SourceContext).
  translateNamespaces(Map, Options, Text, 0, Text.size(), Path, Out);
}

} // namespace cu2dcu
