#include "lexical/LexicalTranslator.h"

#include "lexical/EntryTranslation.h"
#include "lexical/LaunchRewrite.h"
#include "lexical/RawTokens.h"

#include <optional>

namespace cu2dcu {

namespace {

using clang::tok::TokenKind;
namespace tok = clang::tok;

std::string spelling(const std::string &Text, const RawToken &T) {
  return Text.substr(T.Offset, T.Length);
}

bool isOpen(TokenKind K) { return K == tok::l_paren || K == tok::l_square || K == tok::l_brace; }
bool isClose(TokenKind K) { return K == tok::r_paren || K == tok::r_square || K == tok::r_brace; }

/// End of the line holding Offset, past its newline (and any continuation).
unsigned lineEnd(const std::string &Text, unsigned Offset) {
  while (Offset < Text.size()) {
    if (Text[Offset] == '\n' && (Offset == 0 || Text[Offset - 1] != '\\'))
      return Offset + 1;
    ++Offset;
  }
  return Offset;
}

struct IncludeDirective {
  std::string Header;
  unsigned HeaderOffset = 0; // the name with its <> or ""
  unsigned HeaderLength = 0;
  unsigned LineEnd = 0; // past the newline
};

/// The #include directive starting at Tokens[I] ('#'), if it is one.
std::optional<IncludeDirective> parseInclude(const std::string &Text,
                                             const std::vector<RawToken> &Tokens, size_t I) {
  const RawToken &Hash = Tokens[I];
  if (Hash.Kind != tok::hash || !Hash.StartsLine || I + 1 >= Tokens.size() ||
      Tokens[I + 1].Kind != tok::raw_identifier || spelling(Text, Tokens[I + 1]) != "include")
    return std::nullopt;
  IncludeDirective D;
  D.LineEnd = lineEnd(Text, Hash.Offset);
  size_t Open = Text.find_first_of("<\"", Tokens[I + 1].Offset + Tokens[I + 1].Length);
  if (Open == std::string::npos || Open >= D.LineEnd)
    return std::nullopt;
  size_t Close = Text.find(Text[Open] == '<' ? '>' : '"', Open + 1);
  if (Close == std::string::npos || Close >= D.LineEnd)
    return std::nullopt;
  D.Header = Text.substr(Open + 1, Close - Open - 1);
  D.HeaderOffset = Open;
  D.HeaderLength = Close + 1 - Open;
  return D;
}

/// Index of the first token of the kernel expression that ends right before
/// Tokens[Open] ('<<<'), or -1. Sets Templated when it has template arguments.
int findCalleeBegin(const std::vector<RawToken> &Tokens, int Open,
                    bool &Templated) {
  int I = Open - 1;
  Templated = false;
  if (I < 0)
    return -1;
  if (Tokens[I].Kind == tok::greater || Tokens[I].Kind == tok::greatergreater) {
    int Depth = 0;
    for (; I >= 0; --I) {
      TokenKind K = Tokens[I].Kind;
      if (K == tok::greater)
        ++Depth;
      else if (K == tok::greatergreater)
        Depth += 2;
      else if (K == tok::less)
        --Depth;
      else if (K == tok::semi || K == tok::l_brace || K == tok::r_brace)
        return -1;
      if (Depth == 0)
        break;
    }
    if (I <= 0)
      return -1;
    Templated = true;
    --I;
  } else if (Tokens[I].Kind == tok::r_paren) {
    int Depth = 0;
    for (; I >= 0; --I) {
      if (Tokens[I].Kind == tok::r_paren)
        ++Depth;
      else if (Tokens[I].Kind == tok::l_paren && --Depth == 0)
        return I;
    }
    return -1;
  }
  if (Tokens[I].Kind != tok::raw_identifier)
    return -1;
  while (I >= 2 && Tokens[I - 1].Kind == tok::coloncolon && Tokens[I - 2].Kind == tok::raw_identifier)
    I -= 2;
  if (I >= 1 && Tokens[I - 1].Kind == tok::coloncolon)
    --I;
  return I;
}

/// Fills Site's config arguments from the tokens after '<<<' at Open and
/// returns the index of the matching '>>>', or -1 when the launch is not well
/// formed in the raw token stream.
int parseLaunchConfig(const std::vector<RawToken> &Tokens, int Open, LaunchSite &Site) {
  int Depth = 0;
  size_t ArgFirst = Open + 1;
  for (size_t I = Open + 1; I < Tokens.size(); ++I) {
    TokenKind K = Tokens[I].Kind;
    if (isOpen(K)) {
      ++Depth;
    } else if (isClose(K)) {
      if (--Depth < 0)
        return -1;
    } else if (Depth == 0 && (K == tok::comma || K == tok::greatergreatergreater)) {
      if (ArgFirst == I)
        return -1; // empty argument
      const RawToken &Last = Tokens[I - 1];
      Site.ConfigArgs.push_back({Tokens[ArgFirst].Offset, Last.Offset + Last.Length});
      ArgFirst = I + 1;
      if (K == tok::greatergreatergreater)
        return Site.ConfigArgs.size() >= 2 && Site.ConfigArgs.size() <= 4 ? int(I) : -1;
    } else if (K == tok::semi || K == tok::lesslessless) {
      return -1;
    }
  }
  return -1;
}

} // namespace

bool LexicalTranslator::mentionsCuda(const std::string &Text) const {
  std::vector<RawToken> Tokens = lexRaw(Text, 0, Text.size());
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const RawToken &T = Tokens[I];
    if (T.Kind == tok::lesslessless)
      return true;
    if (auto Include = parseInclude(Text, Tokens, I))
      if (Map.lookupHeader(Include->Header))
        return true;
    if (T.Kind != tok::raw_identifier)
      continue;
    std::string Name = spelling(Text, T);
    if (Map.lookup(Name) || looksLikeCudaName(Name) || Name == "__global__" ||
        Name == "__device__" || Name == "threadIdx")
      return true;
  }
  return false;
}

void LexicalTranslator::translateRange(const std::string &Text, unsigned Begin, unsigned End,
                                       const std::string &Path, FileFindings &Out,
                                       std::set<std::string> &IncludedHip) const {
  std::vector<RawToken> Tokens = lexRaw(Text, Begin, End);
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const RawToken &T = Tokens[I];
    if (auto Include = parseInclude(Text, Tokens, I)) {
      translateInclude(Map, Include->Header, Include->HeaderOffset, Include->HeaderLength,
                       Tokens[I].Offset, Include->LineEnd, Text, Path, Options, Out, IncludedHip);
      while (I + 1 < Tokens.size() && Tokens[I + 1].Offset < Include->LineEnd)
        ++I;
      continue;
    }
    if (T.Kind == tok::lesslessless && !Options.KeepLaunchSyntax) {
      LaunchSite Site;
      int Callee = findCalleeBegin(Tokens, I, Site.TemplatedCallee);
      int Close = Callee >= 0 ? parseLaunchConfig(Tokens, I, Site) : -1;
      if (Close >= 0 && size_t(Close) + 1 < Tokens.size() && Tokens[Close + 1].Kind == tok::l_paren) {
        Site.CalleeBegin = Tokens[Callee].Offset;
        Site.CalleeEnd = T.Offset;
        Site.OpenBegin = T.Offset;
        Site.CloseBegin = Tokens[Close].Offset;
        Site.ArgsOpenEnd = Tokens[Close + 1].Offset + 1;
        Site.HasCallArgs = size_t(Close) + 2 < Tokens.size() && Tokens[Close + 2].Kind != tok::r_paren;
        rewriteLaunch(Site, Text, Out);
        continue;
      }
      addFinding(Out, Text, Path, T.Offset, check_ids::Launch, Severity::Warning,
                 "kernel launch not recognised; left as <<<...>>>");
      continue;
    }
    if (T.Kind != tok::raw_identifier)
      continue;
    // Member names (prop.major) and declarations of the user's own are not APIs.
    if (I > 0 && (Tokens[I - 1].Kind == tok::period || Tokens[I - 1].Kind == tok::arrow))
      continue;
    std::string Name = spelling(Text, T);
    const ApiEntry *Entry = Map.lookup(Name);
    if (Entry && Entry->Kind == EntryKind::Namespace &&
        !(I + 1 < Tokens.size() && Tokens[I + 1].Kind == tok::coloncolon))
      continue;
    if (Entry)
      translateUse(*Entry, T.Offset, T.Length, Text, Path, Options, Out);
    else if (looksLikeCudaName(Name))
      addFinding(Out, Text, Path, T.Offset, check_ids::Unmapped, Severity::Warning,
                 "'" + Name + "' looks like a CUDA API but no map entry covers it; left unchanged");
  }
}

void LexicalTranslator::translateFile(const std::string &Text, const std::string &Path,
                                      FileFindings &Out) const {
  std::set<std::string> IncludedHip;
  translateRange(Text, 0, Text.size(), Path, Out, IncludedHip);
}

} // namespace cu2dcu
