#include "lexical/TokenMatching.h"

#include <set>

namespace cu2dcu::lexical {

namespace tok = clang::tok;
using clang::tok::TokenKind;

bool isOpen(TokenKind K) { return K == tok::l_paren || K == tok::l_square || K == tok::l_brace; }
bool isClose(TokenKind K) { return K == tok::r_paren || K == tok::r_square || K == tok::r_brace; }
TokenKind closerOf(TokenKind K) {
  return K == tok::l_paren ? tok::r_paren : K == tok::l_square ? tok::r_square : tok::r_brace;
}
TokenKind openerOf(TokenKind K) {
  return K == tok::r_paren ? tok::l_paren : K == tok::r_square ? tok::l_square : tok::l_brace;
}

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

bool isExpressionKeyword(const std::string &S) {
  static const std::set<std::string> Words = {
      "return", "case",  "else",   "do",       "throw",     "new",      "delete",
      "sizeof", "alignof", "goto", "co_return", "co_yield", "co_await", "defined",
      "not",    "and",   "or",     "xor",      "bitand",    "bitor",    "compl",
      "not_eq", "and_eq", "or_eq", "xor_eq",   "typeid",    "decltype", "noexcept",
      "static_assert", "if", "while", "for", "switch", "template", "typename", "operator"};
  return Words.count(S) != 0;
}

int matchForward(const TokenList &T, size_t Open) {
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

int matchBackward(const TokenList &T, size_t Close) {
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

size_t greaterRunEnd(const TokenList &T, size_t I, unsigned &Chars, bool &Contiguous) {
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

bool opensTemplate(const std::string &Text, const TokenList &T, size_t Less, bool InLaunchConfig) {
  if (Less == 0 || T[Less - 1].Kind != tok::raw_identifier ||
      isExpressionKeyword(cleanSpelling(Text, T[Less - 1])))
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

std::vector<TokenSpan> argumentSpans(const std::string &Text, const TokenList &T, size_t Open) {
  std::vector<TokenSpan> Args;
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
    } else if (K == tok::less && opensTemplate(Text, T, J, false)) {
      Stack.push_back(tok::less);
    } else if (unsigned N = greaterCount(K)) {
      for (; N && !Stack.empty() && Stack.back() == tok::less; --N)
        Stack.pop_back();
    }
  }
  return Args;
}

} // namespace cu2dcu::lexical
