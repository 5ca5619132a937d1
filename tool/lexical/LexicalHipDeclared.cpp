#include "lexical/LexicalHipDeclared.h"

#include "translate/HipDeclaredGuard.h"

#include "llvm/ADT/StringExtras.h"

namespace cu2dcu::lexical {

namespace {

using clang::tok::TokenKind;

/// A parameter's type as clang prints it once references and top-level
/// const are removed ("float *", "float4"): its words without const,
/// volatile, & and && and without its name.
std::string parameterType(const LexicalContext &C, const TokenList &T, TokenSpan Param) {
  std::vector<std::string> Words;
  for (size_t I = Param.first; I <= Param.second; ++I) {
    std::string S = C.spelling(T[I]);
    if (S != "const" && S != "volatile" && S != "&" && S != "&&")
      Words.push_back(S);
  }
  if (Words.size() > 1 && T[Param.second].Kind == clang::tok::raw_identifier)
    Words.pop_back(); // the parameter's name
  return llvm::join(Words, " ");
}

/// The vector type the parameters give VECTOR ("float4"), or none when they
/// do not match Entry.
std::optional<std::string> matchParameters(const HipDeclaredFunction &Entry,
                                           const std::vector<std::string> &Types) {
  if (Types.size() != Entry.Parameters.size())
    return std::nullopt;
  std::string Vector;
  for (size_t I = 0; I < Types.size(); ++I) {
    if (Entry.Parameters[I] != "VECTOR") {
      if (Types[I] != Entry.Parameters[I])
        return std::nullopt;
    } else if (!isCudaVectorTypeName(Types[I]) || (!Vector.empty() && Vector != Types[I])) {
      return std::nullopt;
    } else {
      Vector = Types[I];
    }
  }
  return Vector.empty() ? "VECTOR" : Vector;
}

/// The first token of the declaration whose name is T[Name]: after the
/// previous ';', '{' or '}'.
size_t declarationBegin(const TokenList &T, size_t Name) {
  size_t I = Name;
  while (I > 0 && T[I - 1].Kind != clang::tok::semi && T[I - 1].Kind != clang::tok::l_brace &&
         T[I - 1].Kind != clang::tok::r_brace)
    --I;
  return I;
}

/// At T[I], the name of a function being defined (`operator +=` as one
/// name): the name, and the index of its '('.
std::optional<std::pair<std::string, size_t>> definedName(const LexicalContext &C,
                                                          const TokenList &T, size_t I) {
  if (T[I].Kind != clang::tok::raw_identifier)
    return std::nullopt;
  std::string Name = C.spelling(T[I]);
  size_t Open = I + 1;
  if (Name == "operator" && Open < T.size())
    Name += C.spelling(T[Open++]);
  if (Open >= T.size() || T[Open].Kind != clang::tok::l_paren)
    return std::nullopt;
  return std::make_pair(Name, Open);
}

} // namespace

void guardHipDeclaredDefinitions(LexicalContext &C, const TokenList &Code) {
  for (size_t I = 0; I < Code.size(); ++I) {
    auto Defined = definedName(C, Code, I);
    if (!Defined)
      continue;
    auto [Name, Open] = *Defined;
    int Close = matchForward(Code, Open);
    if (Close < 0 || size_t(Close) + 1 >= Code.size() ||
        Code[Close + 1].Kind != clang::tok::l_brace)
      continue;
    int BodyEnd = matchForward(Code, Close + 1);
    if (BodyEnd < 0)
      continue;
    std::vector<std::string> Types;
    for (TokenSpan Param : argumentSpans(C.Text, Code, Open))
      Types.push_back(parameterType(C, Code, Param));
    for (const HipDeclaredFunction &Entry : C.Map.hipDeclared()) {
      if (Entry.Function != Name || C.Options.TargetHip < Entry.Since)
        continue;
      if (auto Vector = matchParameters(Entry, Types)) {
        const RawToken &Last = Code[BodyEnd];
        guardHipDeclaredDefinition(Entry, *Vector, C.Text, C.Path,
                                   Code[declarationBegin(Code, I)].Offset,
                                   Last.Offset + Last.Length, C.Out);
        break;
      }
    }
    I = BodyEnd;
  }
}

} // namespace cu2dcu::lexical
