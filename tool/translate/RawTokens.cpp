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

std::string cleanSpelling(const std::string &Text, const RawToken &T) {
  std::string Raw = Text.substr(T.Offset, T.Length);
  if (!T.NeedsCleaning)
    return Raw;
  std::string Clean;
  Clean.reserve(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (Raw[I] == '\\') {
      size_t J = I + 1;
      while (J < Raw.size() && (Raw[J] == ' ' || Raw[J] == '\t'))
        ++J;
      if (J < Raw.size() && Raw[J] == '\r')
        ++J;
      if (J < Raw.size() && Raw[J] == '\n') {
        I = J;
        continue;
      }
    }
    Clean += Raw[I];
  }
  return Clean;
}

} // namespace cu2dcu
