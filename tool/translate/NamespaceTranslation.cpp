#include "translate/NamespaceTranslation.h"

#include "translate/EntryTranslation.h"
#include "translate/RawTokens.h"

namespace cu2dcu {

namespace tok = clang::tok;

void translateNamespaces(const ApiMap &Map, const TranslationOptions &Options,
                         const std::string &Text, unsigned Begin, unsigned End,
                         const std::string &Path, FileFindings &Out) {
  if (!Map.hasNamespaces())
    return;
  std::vector<RawToken> Tokens = lexRaw(Text, Begin, End);
  auto Spell = [&](size_t I) { return Text.substr(Tokens[I].Offset, Tokens[I].Length); };
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind != tok::raw_identifier)
      continue;
    // Only the start of a qualifier: not x::cub::, nor a member a.cub::.
    if (I > 0 && (Tokens[I - 1].Kind == tok::coloncolon || Tokens[I - 1].Kind == tok::period ||
                  Tokens[I - 1].Kind == tok::arrow))
      continue;
    const bool UsingNamespace = I >= 2 && Tokens[I - 1].Kind == tok::raw_identifier &&
                                Spell(I - 1) == "namespace" && Spell(I - 2) == "using";
    if (I > 0 && Tokens[I - 1].Kind == tok::raw_identifier && Spell(I - 1) == "namespace" &&
        !UsingNamespace)
      continue; // the user's own namespace declaration
    // Longest run ident :: ident :: ... that names a mapped namespace.
    std::string Qualifier;
    const ApiEntry *Match = nullptr;
    size_t MatchEnd = I;
    for (size_t J = I; J < Tokens.size() && Tokens[J].Kind == tok::raw_identifier; J += 2) {
      Qualifier += Spell(J) + "::";
      bool Qualified = J + 1 < Tokens.size() && Tokens[J + 1].Kind == tok::coloncolon;
      if (!Qualified && !UsingNamespace)
        break;
      if (const ApiEntry *E = Map.lookup(Qualifier); E && E->Kind == EntryKind::Namespace) {
        Match = E;
        MatchEnd = J;
      }
      if (!Qualified)
        break;
    }
    if (!Match)
      continue;
    // Rewrite "a::b" (without the final ::) so spacing around :: is kept.
    std::string From = Match->Cuda.substr(0, Match->Cuda.size() - 2);
    std::string To = Match->Hip.size() >= 2 ? Match->Hip.substr(0, Match->Hip.size() - 2) : Match->Hip;
    unsigned Offset = Tokens[I].Offset;
    unsigned Length = Tokens[MatchEnd].Offset + Tokens[MatchEnd].Length - Offset;
    if (From == To)
      continue;
    ApiEntry Renamed = *Match;
    Renamed.Cuda = Text.substr(Offset, Length);
    Renamed.Hip = To;
    translateUse(Renamed, Offset, Length, Text, Path, Options, Out);
    I = MatchEnd;
  }
}

} // namespace cu2dcu
