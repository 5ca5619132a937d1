#include "lexical/LexicalTranslator.h"

#include "core/Options.h"
#include "translate/EntryTranslation.h"
#include "translate/LaunchRewrite.h"
#include "translate/NamespaceTranslation.h"
#include "translate/RawTokens.h"

#include <algorithm>
#include <map>
#include <optional>

namespace cu2dcu {

namespace {

using clang::tok::TokenKind;
namespace tok = clang::tok;
using TokenList = std::vector<RawToken>;

/// Bounds on the look-around of the heuristics below, so that pathological
/// input (a megabyte of '<') stays linear.
constexpr int LookLimit = 4096;
constexpr size_t TemplateLookLimit = 512;

bool isOpen(TokenKind K) { return K == tok::l_paren || K == tok::l_square || K == tok::l_brace; }
bool isClose(TokenKind K) { return K == tok::r_paren || K == tok::r_square || K == tok::r_brace; }
TokenKind closerOf(TokenKind K) {
  return K == tok::l_paren ? tok::r_paren : K == tok::l_square ? tok::r_square : tok::r_brace;
}
TokenKind openerOf(TokenKind K) {
  return K == tok::r_paren ? tok::l_paren : K == tok::r_square ? tok::l_square : tok::l_brace;
}

/// Number of '>' characters of a token of the '>' family, else 0.
unsigned greaterCount(TokenKind K) {
  switch (K) {
  case tok::greater:
    return 1;
  case tok::greatergreater:
    return 2;
  case tok::greatergreatergreater:
    return 3;
  default:
    return 0;
  }
}

/// Words after which an identifier is an operand, not a name being declared.
bool isExpressionKeyword(const std::string &S) {
  static const std::set<std::string> Words = {
      "return", "case",  "else",   "do",       "throw",     "new",      "delete",
      "sizeof", "alignof", "goto", "co_return", "co_yield", "co_await", "defined",
      "not",    "and",   "or",     "xor",      "bitand",    "bitor",    "compl",
      "not_eq", "and_eq", "or_eq", "xor_eq",   "typeid",    "decltype", "noexcept",
      "static_assert", "if", "while", "for", "switch", "template", "typename", "operator"};
  return Words.count(S) != 0;
}

/// A lane mask written as a literal in a warp call.
enum class MaskLiteral { Other, Full32, Full64, ActiveMask };

class Pass {
public:
  Pass(const ApiMap &Map, const TranslationOptions &Options, const std::string &Text,
       const std::string &Path, FileFindings &Out, std::set<std::string> &IncludedHip)
      : Map(Map), Options(Options), Text(Text), Path(Path), Out(Out), IncludedHip(IncludedHip) {}

  void run(unsigned Begin, unsigned End);
  /// A whole-file pass (no AST): it decides about masks the AST would
  /// otherwise judge through their expansions.
  bool WholeFile = false;
  /// The offsets of warp call names the AST's warp translator owns.
  const std::set<unsigned> *LeftToAst = nullptr;

private:
  std::string spelling(const RawToken &T) const { return cleanSpelling(Text, T); }
  bool isWord(const TokenList &T, int I, const char *Word) const {
    return I >= 0 && size_t(I) < T.size() && T[I].Kind == tok::raw_identifier &&
           spelling(T[I]) == Word;
  }
  bool isProjectMacro(const std::string &Name) const {
    return LocalMacros.count(Name) ||
           (Options.ProjectMacros && Options.ProjectMacros->count(Name));
  }

  void directive(const TokenList &T, size_t First, size_t Last);
  void include(const TokenList &T, size_t First, size_t Last);
  void code(const TokenList &T);
  void name(const TokenList &T, size_t I);
  void callArguments(const TokenList &T, size_t I, const ApiEntry &Entry);
  void wrapArgument(const TokenList &T, std::pair<size_t, size_t> Arg, const std::string &Prefix,
                    const std::string &Category, const std::string &CudaName);
  void launchBounds(const TokenList &T, size_t I);
  bool warpCall(const TokenList &T, size_t I, const std::string &Name);
  MaskLiteral maskLiteral(const TokenList &T, size_t First, size_t Last) const;
  std::vector<std::pair<size_t, size_t>> arguments(const TokenList &T, size_t Open) const;
  void launch(const TokenList &T, size_t I);

  int matchForward(const TokenList &T, size_t Open) const;
  int matchBackward(const TokenList &T, size_t Close) const;
  bool opensTemplate(const TokenList &T, size_t Less, bool InLaunchConfig) const;
  size_t greaterRunEnd(const TokenList &T, size_t I, unsigned &Chars, bool &Contiguous) const;
  int calleeBegin(const TokenList &T, int Open, bool &Templated) const;
  int launchConfig(const TokenList &T, size_t Open, LaunchSite &Site, size_t &ArgsOpen) const;
  bool standsAsStatement(const TokenList &T, int Begin, int CallClose) const;
  bool isDeclaredHere(const TokenList &T, size_t I) const;
  bool droppedLossyMask(const TokenList &T, size_t I, const std::string &Replacement);
  /// Whether Offset lies on the first line of an #if or #elif directive (the
  /// AST mode hands conditions over without their directive).
  bool inIfCondition(unsigned Offset) const;
  /// Whether T[I] is tested with defined(), #ifdef or #ifndef.
  bool isTestedForDefinition(const TokenList &T, size_t I) const;
  /// Whether T uses Name other than in a test for definition.
  bool hasValueUse(const TokenList &T, const std::string &Name) const;

  const ApiMap &Map;
  const TranslationOptions &Options;
  const std::string &Text;
  const std::string &Path;
  FileFindings &Out;
  std::set<std::string> &IncludedHip;
  std::set<std::string> LocalMacros;   // #defined in this range
  std::map<std::string, std::string> MacroValues; // #define NAME NUMBER in this range
  std::set<std::string> DeclaredNames; // declared by the user in this range
  std::set<std::string> KernelNames;   // __global__ functions defined in this range
  unsigned SkipUntil = 0; // tokens before this offset were consumed by an edit
};

/// Offset just past the line that holds Offset: past its newline, following
/// line continuations and block comments that start on it.
unsigned lineEnd(const std::string &Text, unsigned Offset) {
  while (Offset < Text.size()) {
    char C = Text[Offset];
    if (C == '\\') {
      unsigned J = Offset + 1;
      while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t'))
        ++J;
      if (J < Text.size() && Text[J] == '\r')
        ++J;
      if (J < Text.size() && Text[J] == '\n') {
        Offset = J + 1;
        continue;
      }
    } else if (C == '/' && Offset + 1 < Text.size() && Text[Offset + 1] == '*') {
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
      launch(T, I);
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
      warpCall(T, I, Name))
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
    if (isDeclaredHere(T, I) || (DeclaredNames.count(Name) && !looksLikeCudaName(Name)))
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
  if (looksLikeCudaName(Name) && !isProjectMacro(Name) && !DeclaredNames.count(Name) &&
      !(Options.ProjectNames && Options.ProjectNames->count(Name)))
    addFinding(Out, Text, Path, T[I].Offset, check_ids::Unmapped, Severity::Warning,
               "'" + Name + "' looks like a CUDA API but no map entry covers it; left unchanged");
}

/// The arguments of the call whose '(' is T[Open], as token index ranges
/// [first, last], split at top-level commas (brackets and template
/// arguments nest); nothing when the parentheses do not close.
std::vector<std::pair<size_t, size_t>> Pass::arguments(const TokenList &T, size_t Open) const {
  std::vector<std::pair<size_t, size_t>> Args;
  int Close = matchForward(T, Open);
  if (Close < 0)
    return Args;
  std::vector<TokenKind> Stack;
  size_t First = Open + 1;
  for (size_t J = Open + 1; J <= size_t(Close); ++J) {
    TokenKind K = T[J].Kind;
    if (J == size_t(Close) || (Stack.empty() && K == tok::comma)) {
      if (J > First)
        Args.push_back({First, J - 1});
      First = J + 1;
    } else if (isOpen(K)) {
      Stack.push_back(K);
    } else if (isClose(K)) {
      while (!Stack.empty() && Stack.back() == tok::less)
        Stack.pop_back();
      if (!Stack.empty())
        Stack.pop_back();
    } else if (K == tok::less && opensTemplate(T, J, false)) {
      Stack.push_back(tok::less);
    } else if (unsigned N = greaterCount(K)) {
      for (; N && !Stack.empty() && Stack.back() == tok::less; --N)
        Stack.pop_back();
    }
  }
  return Args;
}

/// The lexical form of match/CallArgumentTranslator: without types, a kernel
/// argument is one that names a __global__ function defined here.
void Pass::callArguments(const TokenList &T, size_t I, const ApiEntry &Entry) {
  if ((!Entry.SymbolArg && !Entry.FunctionArg) || I + 1 >= T.size() ||
      T[I + 1].Kind != tok::l_paren)
    return;
  auto Args = arguments(T, I + 1);
  if (Entry.SymbolArg && *Entry.SymbolArg < Args.size())
    wrapArgument(T, Args[*Entry.SymbolArg], "HIP_SYMBOL(", "symbol", Entry.Cuda);
  if (Entry.FunctionArg && *Entry.FunctionArg < Args.size()) {
    const RawToken &First = T[Args[*Entry.FunctionArg].first];
    if (First.Kind == tok::raw_identifier && KernelNames.count(spelling(First)))
      wrapArgument(T, Args[*Entry.FunctionArg], "reinterpret_cast<const void *>(",
                   "kernel-pointer", Entry.Cuda);
  }
}

void Pass::wrapArgument(const TokenList &T, std::pair<size_t, size_t> Arg,
                        const std::string &Prefix, const std::string &Category,
                        const std::string &CudaName) {
  const RawToken &A = T[Arg.first], &B = T[Arg.second];
  if (Text.compare(A.Offset, Prefix.size(), Prefix) == 0)
    return; // already wrapped
  Out.Edits.push_back({A.Offset, 0, Prefix, Category, CudaName});
  Out.Edits.push_back({B.Offset + B.Length, 0, ")", Category + "-syntax", ""});
}

/// The lane mask T[First..Last] when it is a literal whose value is known
/// without types: 0xffffffff, ~0u, -1 (32 bits), 0xffffffffffffffffull,
/// ~0ull (64), __activemask().
MaskLiteral Pass::maskLiteral(const TokenList &T, size_t First, size_t Last) const {
  std::string Text;
  for (size_t J = First; J <= Last; ++J)
    Text += spelling(T[J]);
  if (auto Value = MacroValues.find(Text); First == Last && Value != MacroValues.end())
    Text = Value->second; // #define FULL_MASK 0xffffffff
  std::string Lower;
  for (char C : Text)
    Lower += char(tolower(static_cast<unsigned char>(C)));
  if (Lower == "__activemask()")
    return MaskLiteral::ActiveMask;
  auto Strip = [](std::string S, bool &Long) {
    Long = false;
    while (!S.empty() && (S.back() == 'u' || S.back() == 'l')) {
      Long |= S.back() == 'l';
      S.pop_back();
    }
    return S;
  };
  bool Long;
  std::string Value = Strip(Lower, Long);
  if (Value == "0xffffffff")
    return Long ? MaskLiteral::Other : MaskLiteral::Full32; // 0xfffffffful is 64-bit, not full
  if (Value == "0xffffffffffffffff")
    return MaskLiteral::Full64;
  if (Lower == "~0u" || Lower == "~0" || Lower == "-1" || Lower == "~0x0u")
    return MaskLiteral::Full32;
  if (Lower == "~0ull" || Lower == "~0llu" || Lower == "-1ll")
    return MaskLiteral::Full64;
  return MaskLiteral::Other;
}

/// CUDA's warp functions where the lane mask is a literal: before HIP 6.2 a
/// full mask is dropped with the *_sync suffix, __activemask() becomes
/// __ballot(1) and __syncwarp() a wavefront fence and barrier; from 6.2 a
/// full 32-bit mask is widened to 64 bits. The same edits as the AST mode's
/// warp intrinsic translator, which also follows masks through macros and
/// variables; any other mask is left (and reported by the map's hip_since).
/// A mask that is not a full literal, on a target without *_sync functions:
/// unless --strict-masks, it is dropped with a warning (as in the AST mode).
bool Pass::droppedLossyMask(const TokenList &T, size_t I, const std::string &Replacement) {
  if (Options.StrictMasks || !WholeFile)
    return false;
  addFinding(Out, Text, Path, T[I].Offset, "W64-WARP-SYNC", Severity::Warning,
             "'" + spelling(T[I]) + "' with a lane mask that may not cover the warp: HIP " +
                 Options.TargetHip.str() + " has only " + Replacement +
                 ", which runs on every active lane of the 64-lane wavefront; the mask was "
                 "dropped. Check that every lane reaching this call is in the mask "
                 "(--strict-masks leaves such calls unchanged)");
  return true;
}

bool Pass::warpCall(const TokenList &T, size_t I, const std::string &Name) {
  if (LeftToAst && LeftToAst->count(T[I].Offset))
    return true;
  if (I + 1 >= T.size() || T[I + 1].Kind != tok::l_paren)
    return false;
  // The map entry's rules: before its hip_since the target has only its
  // legacy_hip form (as the AST mode's WarpIntrinsicTranslator).
  const ApiEntry *Entry = Map.lookup(Name);
  const bool Old = Entry && Entry->isMissingIn(Options.TargetHip);
  int Close = matchForward(T, I + 1);
  if (Close < 0)
    return false;
  auto Args = arguments(T, I + 1);
  const unsigned CallEnd = T[Close].Offset + 1;
  if (Name == "__activemask") {
    if (!Old || !Args.empty() || Entry->LegacyHip.empty())
      return false;
    Out.Edits.push_back({T[I].Offset, CallEnd - T[I].Offset, Entry->LegacyHip, "device", Name});
    return true;
  }
  if (Name == "__syncwarp") {
    // Renamed by the map (to its shim where the target has none); only the
    // mask is this pass's business, as in the AST mode.
    if (Entry && Entry->usesShim(Options.TargetHip) && Args.size() == 1 &&
        maskLiteral(T, Args[0].first, Args[0].second) == MaskLiteral::Other)
      addFinding(Out, Text, Path, T[I].Offset, "W64-WARP-SYNC",
                 Options.StrictMasks ? Severity::Error : Severity::Warning,
                 shimmedSyncWarpMessage("'" + Text.substr(T[Args[0].first].Offset,
                                                          T[Args[0].second].Offset +
                                                              T[Args[0].second].Length -
                                                              T[Args[0].first].Offset) + "'",
                                        Options.TargetHip, Entry->Shim));
    return false;
  }
  if (!Entry || Entry->LegacyHip.empty() || Args.size() < 2)
    return false;
  const std::string &Legacy = Entry->LegacyHip;
  const RawToken &MaskFirst = T[Args[0].first], &MaskLast = T[Args[0].second];
  MaskLiteral Mask = maskLiteral(T, Args[0].first, Args[0].second);
  if (Old) {
    if (Mask == MaskLiteral::Other && !droppedLossyMask(T, I, "'" + Legacy + "'"))
      return false;
    Out.Edits.push_back({T[I].Offset, T[I].Length, Legacy, "device", Name});
    Out.Edits.push_back({MaskFirst.Offset, T[Args[1].first].Offset - MaskFirst.Offset, "",
                         "device", ""});
    SkipUntil = T[Args[1].first].Offset;
    return true;
  }
  // Widened where written: a macro's definition is the AST mode's business.
  if (Mask == MaskLiteral::Full32 && MaskFirst.Kind != tok::raw_identifier) {
    Out.Edits.push_back({MaskFirst.Offset, MaskLast.Offset + MaskLast.Length - MaskFirst.Offset,
                         "0xffffffffffffffffull", "device", ""});
    SkipUntil = MaskLast.Offset + MaskLast.Length;
  }
  return false; // the name itself is translated as usual
}

/// __launch_bounds__(maxThreads, minBlocks): as in the AST mode.
void Pass::launchBounds(const TokenList &T, size_t I) {
  if (I + 1 >= T.size() || T[I + 1].Kind != tok::l_paren)
    return;
  auto Args = arguments(T, I + 1);
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

/// Index of the bracket closing the one at Open, or -1. A ';' outside braces
/// (a lambda body) ends the search: brackets never span statements, and the
/// search stays linear on unbalanced input.
int Pass::matchForward(const TokenList &T, size_t Open) const {
  std::vector<TokenKind> Stack{T[Open].Kind};
  unsigned Braces = T[Open].Kind == tok::l_brace;
  for (size_t J = Open + 1; J < T.size(); ++J) {
    TokenKind K = T[J].Kind;
    if (isOpen(K)) {
      Stack.push_back(K);
      Braces += K == tok::l_brace;
    } else if (isClose(K)) {
      if (closerOf(Stack.back()) != K)
        return -1;
      Braces -= K == tok::r_brace;
      Stack.pop_back();
      if (Stack.empty())
        return int(J);
    } else if (K == tok::semi && Braces == 0) {
      return -1;
    }
  }
  return -1;
}

int Pass::matchBackward(const TokenList &T, size_t Close) const {
  std::vector<TokenKind> Stack{T[Close].Kind};
  for (int J = int(Close) - 1; J >= 0 && int(Close) - J < LookLimit; --J) {
    if (isClose(T[J].Kind)) {
      Stack.push_back(T[J].Kind);
    } else if (isOpen(T[J].Kind)) {
      if (openerOf(Stack.back()) != T[J].Kind)
        return -1;
      Stack.pop_back();
      if (Stack.empty())
        return J;
    }
  }
  return -1;
}

/// End (one past) of the run of adjacent '>' tokens starting at I (always
/// past I); Chars gets the number of '>' characters in it, Contiguous whether
/// they are consecutive bytes (no line continuation inside a token).
size_t Pass::greaterRunEnd(const TokenList &T, size_t I, unsigned &Chars,
                           bool &Contiguous) const {
  Chars = greaterCount(T[I].Kind);
  Contiguous = !T[I].NeedsCleaning;
  size_t J = I + 1;
  while (J < T.size() && greaterCount(T[J].Kind) &&
         T[J].Offset == T[J - 1].Offset + T[J - 1].Length) {
    Chars += greaterCount(T[J].Kind);
    Contiguous &= !T[J].NeedsCleaning;
    ++J;
  }
  return J;
}

/// Whether the '<' at Less opens template arguments: it follows a name and a
/// matching '>' comes before anything that cannot appear in template
/// arguments (';', '&&', '?', an unbalanced bracket). In a launch
/// configuration the last three '>' of a run followed by '(' are the '>>>'.
bool Pass::opensTemplate(const TokenList &T, size_t Less, bool InLaunchConfig) const {
  if (Less == 0 || T[Less - 1].Kind != tok::raw_identifier ||
      isExpressionKeyword(spelling(T[Less - 1])))
    return false;
  unsigned Angles = 1;
  std::vector<TokenKind> Stack;
  for (size_t J = Less + 1; J < T.size() && J - Less < TemplateLookLimit; ++J) {
    TokenKind K = T[J].Kind;
    if (isOpen(K)) {
      Stack.push_back(K);
      continue;
    }
    if (isClose(K)) {
      if (Stack.empty() || closerOf(Stack.back()) != K)
        return false;
      Stack.pop_back();
      continue;
    }
    if (!Stack.empty())
      continue;
    if (K == tok::less) {
      if (T[J - 1].Kind == tok::raw_identifier)
        ++Angles;
      continue;
    }
    if (greaterCount(K)) {
      unsigned Chars;
      bool Contiguous;
      size_t RunEnd = greaterRunEnd(T, J, Chars, Contiguous);
      unsigned Available = Chars;
      bool HoldsLaunchClose = InLaunchConfig && Chars >= 3 && RunEnd < T.size() &&
                              T[RunEnd].Kind == tok::l_paren;
      if (HoldsLaunchClose)
        Available = Chars - 3;
      if (Available >= Angles)
        return true;
      if (HoldsLaunchClose)
        return false;
      Angles -= Available;
      J = RunEnd - 1;
      continue;
    }
    switch (K) {
    case tok::semi:
    case tok::ampamp:
    case tok::pipepipe:
    case tok::question:
    case tok::lesslessless:
    case tok::greaterequal:
    case tok::greatergreaterequal:
    case tok::equal:
      return false;
    default:
      break;
    }
  }
  return false;
}

/// Index of the first token of the kernel expression that ends right before
/// T[Open] ('<<<'), or -1. Templated is set when the kernel is named with
/// template arguments (k<T>), which the macro needs parenthesised.
int Pass::calleeBegin(const TokenList &T, int Open, bool &Templated) const {
  Templated = false;
  int I = Open - 1;
  auto SkipTemplateArgs = [&](int From) -> int {
    // From is the last '>' token of the arguments; returns the '<' index.
    int Depth = 0;
    std::vector<TokenKind> Parens;
    for (int J = From; J >= 0 && From - J < LookLimit; --J) {
      TokenKind K = T[J].Kind;
      if (isClose(K)) {
        Parens.push_back(K);
      } else if (isOpen(K)) {
        if (Parens.empty() || openerOf(Parens.back()) != K)
          return -1;
        Parens.pop_back();
      } else if (!Parens.empty()) {
        continue;
      } else if (unsigned N = greaterCount(K)) {
        Depth += N;
      } else if (K == tok::less) {
        if (--Depth == 0)
          return J;
        if (Depth < 0)
          return -1;
      } else if (K == tok::semi || K == tok::lesslessless) {
        return -1;
      }
    }
    return -1;
  };
  if (I < 0)
    return -1;
  if (greaterCount(T[I].Kind)) {
    int Less = SkipTemplateArgs(I);
    if (Less <= 0)
      return -1;
    Templated = true;
    I = Less - 1;
  } else if (T[I].Kind == tok::r_paren) {
    return matchBackward(T, I); // (*kernelPointer)<<<...>>>
  } else if (T[I].Kind == tok::r_square) {
    int L = matchBackward(T, I); // kernels[i]<<<...>>>
    if (L <= 0)
      return -1;
    I = L - 1;
  }
  if (T[I].Kind != tok::raw_identifier || isExpressionKeyword(spelling(T[I])))
    return -1;
  // Qualifiers and member access: ns::k, ns::template k<T>, A<int>::k, obj.k.
  while (I >= 2) {
    TokenKind Sep = T[I - 1].Kind;
    if (Sep == tok::raw_identifier && spelling(T[I - 1]) == "template" &&
        T[I - 2].Kind == tok::coloncolon) {
      --I;
      continue;
    }
    if (Sep != tok::coloncolon && Sep != tok::period && Sep != tok::arrow)
      break;
    int Q = I - 2;
    if (greaterCount(T[Q].Kind)) {
      int Less = SkipTemplateArgs(Q);
      if (Less <= 0)
        break;
      Q = Less - 1;
    }
    if (Q < 0 || T[Q].Kind != tok::raw_identifier)
      break;
    I = Q;
  }
  if (I >= 1 && T[I - 1].Kind == tok::coloncolon)
    --I;
  return I;
}

/// Fills Site's configuration arguments from the tokens after the '<<<' at
/// Open. Returns the index of the token holding the first '>' of the
/// closing '>>>' (Site.CloseBegin is its byte offset) and sets ArgsOpen to
/// the '(' of the call arguments; -1 when the launch is not well formed.
int Pass::launchConfig(const TokenList &T, size_t Open, LaunchSite &Site, size_t &ArgsOpen) const {
  std::vector<TokenKind> Stack;
  size_t ArgFirst = Open + 1;
  unsigned ArgEnd = 0; // end offset of the argument's last character so far
  auto FinishArgument = [&](size_t NextFirst) {
    if (ArgFirst >= T.size() || T[ArgFirst].Offset >= ArgEnd)
      return false; // empty argument
    Site.ConfigArgs.push_back({T[ArgFirst].Offset, ArgEnd});
    ArgFirst = NextFirst;
    return true;
  };
  for (size_t J = Open + 1; J < T.size(); ++J) {
    TokenKind K = T[J].Kind;
    if (isOpen(K)) {
      Stack.push_back(K);
    } else if (isClose(K)) {
      while (!Stack.empty() && Stack.back() == tok::less)
        Stack.pop_back(); // a '<' that was a comparison after all
      if (Stack.empty() || closerOf(Stack.back()) != K)
        return -1;
      Stack.pop_back();
    } else if (K == tok::less && opensTemplate(T, J, /*InLaunchConfig=*/
                                               std::none_of(Stack.begin(), Stack.end(),
                                                            [](TokenKind S) {
                                                              return S != tok::less;
                                                            }))) {
      Stack.push_back(tok::less);
    } else if (greaterCount(K)) {
      unsigned Chars;
      bool Contiguous;
      size_t RunEnd = greaterRunEnd(T, J, Chars, Contiguous);
      bool OnlyAngles = std::none_of(Stack.begin(), Stack.end(),
                                     [](TokenKind S) { return S != tok::less; });
      if (!OnlyAngles) {
        // A comparison or shift inside parentheses, or template arguments
        // closed there.
        for (unsigned N = Chars; N && !Stack.empty() && Stack.back() == tok::less; --N)
          Stack.pop_back();
        ArgEnd = T[RunEnd - 1].Offset + T[RunEnd - 1].Length;
        J = RunEnd - 1;
        continue;
      }
      bool FollowedByCall = RunEnd < T.size() && T[RunEnd].Kind == tok::l_paren;
      unsigned Available = Chars >= 3 && FollowedByCall ? Chars - 3 : Chars;
      unsigned Consumed = 0;
      while (Consumed < Available && !Stack.empty()) {
        Stack.pop_back();
        ++Consumed;
      }
      if (Stack.empty() && FollowedByCall && Chars - Consumed == 3) {
        if (Consumed && !Contiguous)
          return -1; // a '>' run split by a line continuation: no byte offsets
        if (Consumed)
          ArgEnd = T[J].Offset + Consumed; // k<<<1, Block<N>>>>(...)
        if (!FinishArgument(RunEnd))
          return -1;
        Site.CloseBegin = T[J].Offset + Consumed;
        ArgsOpen = RunEnd;
        return Site.ConfigArgs.size() >= 2 && Site.ConfigArgs.size() <= 4 ? int(J) : -1;
      }
      if (Chars >= 3 && Stack.empty() && Chars - Consumed >= 3)
        return -1; // '>>>' not followed by the call arguments
      ArgEnd = T[RunEnd - 1].Offset + T[RunEnd - 1].Length;
      J = RunEnd - 1;
      continue;
    } else if (K == tok::comma && Stack.empty()) {
      if (!FinishArgument(J + 1))
        return -1;
      continue;
    } else if (K == tok::semi || K == tok::lesslessless) {
      return -1;
    }
    ArgEnd = T[J].Offset + T[J].Length;
  }
  return -1;
}

/// Whether the launch spanning T[Begin..CallClose] is a whole expression
/// statement, as the AST mode decides: hipLaunchKernelGGL is a statement, so
/// a launch used as a value keeps its <<<>>> syntax.
bool Pass::standsAsStatement(const TokenList &T, int Begin, int CallClose) const {
  // Inside an argument of the project's own function-like macro
  // (CHECK(k<<<...>>>(...))) the macro makes the launch a statement, as the
  // AST sees after expansion; the argument ends at ')' or ','.
  bool MacroArgument = false;
  int Depth = 0;
  for (int J = Begin - 1; J >= 0 && Begin - J < LookLimit; --J) {
    if (isClose(T[J].Kind)) {
      ++Depth;
    } else if (isOpen(T[J].Kind) && Depth-- == 0) {
      MacroArgument = T[J].Kind == tok::l_paren && J > 0 &&
                      T[J - 1].Kind == tok::raw_identifier && isProjectMacro(spelling(T[J - 1]));
      break;
    }
  }
  size_t Next = size_t(CallClose) + 1;
  const bool EndsStatement =
      Next >= T.size() || T[Next].Kind == tok::semi ||
      (MacroArgument && (T[Next].Kind == tok::r_paren || T[Next].Kind == tok::comma));
  int P = Begin - 1;
  if (P < 0)
    return EndsStatement; // start of a macro body or of the range
  switch (T[P].Kind) {
  case tok::semi:
  case tok::l_brace:
  case tok::r_brace:
    return EndsStatement;
  case tok::colon: {
    // A label or case: a statement; the ':' of a conditional: a value.
    int Depth = 0;
    for (int J = P - 1; J >= 0 && P - J < LookLimit; --J) {
      TokenKind K = T[J].Kind;
      if (isClose(K))
        ++Depth;
      else if (isOpen(K) && --Depth < 0)
        break;
      else if (Depth == 0 && (K == tok::semi || K == tok::l_brace || K == tok::r_brace))
        break;
      else if (Depth == 0 && K == tok::question)
        return false;
    }
    return EndsStatement;
  }
  case tok::r_paren: {
    int L = matchBackward(T, P);
    if (L > 0 && (isWord(T, L - 1, "if") || isWord(T, L - 1, "while") ||
                  isWord(T, L - 1, "for") || isWord(T, L - 1, "switch")))
      return EndsStatement;
    return false;
  }
  case tok::raw_identifier:
    return (isWord(T, P, "else") || isWord(T, P, "do")) && EndsStatement;
  case tok::l_paren:
  case tok::comma:
    return MacroArgument && EndsStatement;
  default:
    return false;
  }
}

void Pass::launch(const TokenList &T, size_t I) {
  if (Options.KeepLaunchSyntax)
    return;
  LaunchSite Site;
  size_t ArgsOpen = 0;
  int Callee = calleeBegin(T, int(I), Site.TemplatedCallee);
  int Close = Callee >= 0 ? launchConfig(T, I, Site, ArgsOpen) : -1;
  int CallClose = Close >= 0 ? matchForward(T, ArgsOpen) : -1;
  if (CallClose < 0) {
    addFinding(Out, Text, Path, T[I].Offset, check_ids::Launch, Severity::Warning,
               "kernel launch not recognised; left as <<<...>>>");
    return;
  }
  if (!standsAsStatement(T, Callee, CallClose)) {
    addFinding(Out, Text, Path, T[I].Offset, check_ids::Launch, Severity::Note,
               "launch used inside an expression kept as <<<...>>> (hipcc accepts it; "
               "hipLaunchKernelGGL is a statement)");
    return;
  }
  Site.CalleeBegin = T[Callee].Offset;
  Site.CalleeEnd = T[I].Offset;
  Site.OpenBegin = T[I].Offset;
  Site.ArgsOpenEnd = T[ArgsOpen].Offset + 1;
  Site.HasCallArgs = ArgsOpen + 1 < size_t(CallClose);
  rewriteLaunch(Site, Text, Out);
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
    if (Map.lookup(Name) || looksLikeCudaName(Name) || Name == "__global__" ||
        Name == "__device__" || Name == "threadIdx")
      return true;
  }
  return false;
}

void LexicalTranslator::collectMacroNames(const std::string &Text, std::set<std::string> &Names) {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I + 2 < Tokens.size(); ++I)
    if (Tokens[I].Kind == tok::hash && Tokens[I].StartsLine &&
        Tokens[I + 1].Kind == tok::raw_identifier && cleanSpelling(Text, Tokens[I + 1]) == "define" &&
        Tokens[I + 2].Kind == tok::raw_identifier)
      Names.insert(cleanSpelling(Text, Tokens[I + 2]));
}

void LexicalTranslator::collectDeclaredCudaLikeNames(const std::string &Text,
                                                     std::set<std::string> &Names) {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I)
    if (Tokens[I].Kind == tok::raw_identifier && isDeclaredAt(Text, Tokens, I)) {
      std::string Name = cleanSpelling(Text, Tokens[I]);
      if (looksLikeCudaName(Name))
        Names.insert(std::move(Name));
    }
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
