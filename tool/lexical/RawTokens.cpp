#include "lexical/RawTokens.h"

#include "clang/Lex/Lexer.h"

namespace cu2dcu {

const clang::LangOptions &cudaLangOptions() {
  static const clang::LangOptions Options = [] {
    clang::LangOptions LO;
    LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
    LO.CUDA = 1;
    LO.LineComment = 1;
    LO.Bool = 1;
    return LO;
  }();
  return Options;
}

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
  while (true) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    unsigned Offset = Begin + Tok.getLocation().getRawEncoding() - Base.getRawEncoding();
    Tokens.push_back({Tok.getKind(), Offset, Tok.getLength(), Tok.isAtStartOfLine()});
  }
  return Tokens;
}

} // namespace cu2dcu
