#include "translate/RawTokens.h"

#include "clang/Lex/Lexer.h"

namespace cu2dcu {

const clang::LangOptions &cudaLangOptions() {
  static const clang::LangOptions Options = [] {
    clang::LangOptions LO;
    LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
    LO.CUDA = 1;
    LO.LineComment = 1;
    LO.Bool = 1;
    LO.RawStringLiterals = 1;
    return LO;
  }();
  return Options;
}

namespace {
/// Whether only blanks (and escaped newlines) separate Offset from the start
/// of its line in Text.
bool atLineStart(const std::string &Text, unsigned Offset) {
  while (Offset > 0) {
    char C = Text[Offset - 1];
    if (C == '\n') {
      // An escaped newline joins this line to the previous one.
      unsigned P = Offset - 1;
      if (P > 0 && Text[P - 1] == '\r')
        --P;
      if (P > 0 && Text[P - 1] == '\\') {
        Offset = P - 1;
        continue;
      }
      return true;
    }
    if (C != ' ' && C != '\t' && C != '\r' && C != '\f' && C != '\v')
      return false;
    --Offset;
  }
  return true;
}
} // namespace

std::vector<RawToken> lexRaw(const std::string &Text, unsigned Begin, unsigned End) {
  std::vector<RawToken> Tokens;
  if (Begin >= End || End > Text.size())
    return Tokens;
  // The lexer reads up to a terminating NUL, so a sub-range is lexed from a
  // copy; offsets come from raw location encodings relative to Base.
  const std::string Slice = Text.substr(Begin, End - Begin);
  const clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer Lex(Base, cudaLangOptions(), Slice.data(), Slice.data(), Slice.data() + Slice.size());
  Lex.SetCommentRetentionState(false);
  clang::Token Tok;
  const bool SliceAtLineStart = atLineStart(Text, Begin);
  while (true) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    unsigned Offset = Begin + Tok.getLocation().getRawEncoding() - Base.getRawEncoding();
    // The lexer starts "at the beginning of a line"; for a slice that starts
    // mid-line (a macro body) that is not true of its first token.
    bool StartsLine = Tokens.empty() ? SliceAtLineStart : Tok.isAtStartOfLine();
    Tokens.push_back({Tok.getKind(), Offset, Tok.getLength(), StartsLine, Tok.needsCleaning()});
  }
  return Tokens;
}

std::optional<unsigned> callArity(const std::string &Text, unsigned NameEnd) {
  std::optional<CallShape> Shape = callShape(Text, NameEnd);
  return Shape ? std::optional<unsigned>(Shape->Arity) : std::nullopt;
}

std::optional<CallShape> callShape(const std::string &Text, unsigned NameEnd) {
  // A call's argument list rarely spans more than a few lines; the window
  // keeps each lookup cheap in a long file.
  constexpr unsigned Window = 4096;
  std::vector<RawToken> T = lexRaw(Text, NameEnd, unsigned(std::min<size_t>(Text.size(), NameEnd + Window)));
  if (T.empty() || T[0].Kind != clang::tok::l_paren)
    return std::nullopt;
  unsigned Depth = 0, Commas = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    switch (T[I].Kind) {
    case clang::tok::l_paren: case clang::tok::l_square: case clang::tok::l_brace:
      ++Depth;
      break;
    case clang::tok::r_paren: case clang::tok::r_square: case clang::tok::r_brace:
      if (--Depth == 0)
        return CallShape{I == 1 ? 0 : Commas + 1, T[I].Offset};
      break;
    case clang::tok::comma:
      Commas += Depth == 1;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::string cleanSpelling(const std::string &Text, const RawToken &T) {
  std::string Raw = Text.substr(T.Offset, T.Length);
  if (!T.NeedsCleaning)
    return Raw;
  std::string Clean;
  Clean.reserve(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (size_t Next = continuationEnd(Raw, I)) {
      I = Next - 1;
      continue;
    }
    Clean += Raw[I];
  }
  return Clean;
}

size_t continuationEnd(const std::string &Text, size_t Backslash) {
  if (Text[Backslash] != '\\')
    return 0;
  size_t J = Backslash + 1;
  while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t'))
    ++J;
  if (J < Text.size() && Text[J] == '\r')
    ++J;
  return J < Text.size() && Text[J] == '\n' ? J + 1 : 0;
}

namespace {

bool spelledAs(const std::string &Text, const RawToken &T, llvm::StringRef Word) {
  return T.Kind == clang::tok::raw_identifier && llvm::StringRef(Text).substr(T.Offset, T.Length) == Word;
}

/// `template` starts a declaration, not `x.template f<T>()`: nothing before
/// it, or the end of a declaration, or `extern`, or the start of a line.
bool startsExplicitInstantiation(const std::string &Text, const std::vector<RawToken> &Tokens,
                                 size_t I) {
  if (!spelledAs(Text, Tokens[I], "template") || I + 1 == Tokens.size() ||
      Tokens[I + 1].Kind == clang::tok::less)
    return false;
  if (I == 0)
    return true;
  clang::tok::TokenKind Before = Tokens[I - 1].Kind;
  if (Before == clang::tok::period || Before == clang::tok::arrow ||
      Before == clang::tok::coloncolon)
    return false;
  return Tokens[I].StartsLine || Before == clang::tok::semi || Before == clang::tok::r_brace ||
         Before == clang::tok::l_brace || spelledAs(Text, Tokens[I - 1], "extern");
}

} // namespace

std::vector<ByteRange> explicitInstantiationRanges(const std::string &Text) {
  std::vector<ByteRange> Ranges;
  if (Text.find("template") == std::string::npos)
    return Ranges;
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (!startsExplicitInstantiation(Text, Tokens, I))
      continue;
    int Depth = 0;
    for (size_t J = I + 1; J < Tokens.size(); ++J) {
      clang::tok::TokenKind Kind = Tokens[J].Kind;
      Depth += Kind == clang::tok::l_paren || Kind == clang::tok::l_square;
      Depth -= Kind == clang::tok::r_paren || Kind == clang::tok::r_square;
      if (Depth == 0 && (Kind == clang::tok::l_brace || Kind == clang::tok::hash))
        break; // a definition or a directive: not an instantiation
      if (Depth == 0 && Kind == clang::tok::semi) {
        Ranges.push_back({Tokens[I].Offset, Tokens[J].Offset + Tokens[J].Length});
        I = J;
        break;
      }
    }
  }
  return Ranges;
}

} // namespace cu2dcu
