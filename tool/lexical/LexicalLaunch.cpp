#include "lexical/LexicalLaunch.h"

#include "translate/EntryTranslation.h"
#include "translate/LaunchRewrite.h"

#include <algorithm>

namespace cu2dcu::lexical {

namespace tok = clang::tok;
using clang::tok::TokenKind;

namespace {

/// The '<' that opens the template arguments whose last '>' token is
/// T[From], or -1.
int templateArgumentsBegin(const TokenList &T, int From) {
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
}

/// Index of the first token of the kernel expression that ends right before
/// T[Open] ('<<<'), or -1. Templated is set when the kernel is named with
/// template arguments (k<T>), which the macro needs parenthesised.
int calleeBegin(const std::string &Text, const TokenList &T, int Open, bool &Templated) {
  Templated = false;
  int I = Open - 1;
  if (I < 0)
    return -1;
  if (greaterCount(T[I].Kind)) {
    int Less = templateArgumentsBegin(T, I);
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
  if (T[I].Kind != tok::raw_identifier || isExpressionKeyword(cleanSpelling(Text, T[I])))
    return -1;
  // Qualifiers and member access: ns::k, ns::template k<T>, A<int>::k, obj.k.
  while (I >= 2) {
    TokenKind Sep = T[I - 1].Kind;
    if (Sep == tok::raw_identifier && cleanSpelling(Text, T[I - 1]) == "template" &&
        T[I - 2].Kind == tok::coloncolon) {
      --I;
      continue;
    }
    if (Sep != tok::coloncolon && Sep != tok::period && Sep != tok::arrow)
      break;
    int Q = I - 2;
    if (greaterCount(T[Q].Kind)) {
      int Less = templateArgumentsBegin(T, Q);
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

/// A launch configuration: the arguments after a '<<<', split at top-level
/// commas, up to the '>>>' that the call's '(' follows.
class LaunchConfigReader {
public:
  LaunchConfigReader(const std::string &Text, const TokenList &T, LaunchSite &Site)
      : Text(Text), T(T), Site(Site) {}

  /// Fills Site's configuration arguments from the tokens after the '<<<' at
  /// Open. Returns the index of the token holding the first '>' of the
  /// closing '>>>' (Site.CloseBegin is its byte offset) and sets ArgsOpen to
  /// the '(' of the call arguments; -1 when the launch is not well formed.
  int read(size_t Open, size_t &ArgsOpen) {
    ArgFirst = Open + 1;
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
      } else if (K == tok::less && opensTemplate(Text, T, J, /*InLaunchConfig=*/onlyAngles())) {
        Stack.push_back(tok::less);
      } else if (greaterCount(K)) {
        const size_t RunBegin = J;
        switch (greaterRun(J, ArgsOpen)) {
        case Run::Inside:
          continue;
        case Run::Closes:
          return Site.ConfigArgs.size() >= 2 && Site.ConfigArgs.size() <= 4 ? int(RunBegin) : -1;
        case Run::Malformed:
          return -1;
        }
      } else if (K == tok::comma && Stack.empty()) {
        if (!finishArgument(J + 1))
          return -1;
        continue;
      } else if (K == tok::semi || K == tok::lesslessless) {
        return -1;
      }
      ArgEnd = T[J].Offset + T[J].Length;
    }
    return -1;
  }

private:
  /// What a run of '>' is: inside the configuration, the closing '>>>'
  /// (with the call's '(' after it), or neither.
  enum class Run { Inside, Closes, Malformed };

  /// The run of '>' tokens starting at J: J moves to its last token.
  Run greaterRun(size_t &J, size_t &ArgsOpen) {
    unsigned Chars;
    bool Contiguous;
    size_t RunEnd = greaterRunEnd(T, J, Chars, Contiguous);
    if (!onlyAngles()) {
      // A comparison or shift inside parentheses, or template arguments
      // closed there.
      for (unsigned N = Chars; N && !Stack.empty() && Stack.back() == tok::less; --N)
        Stack.pop_back();
      return inside(J, RunEnd);
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
        return Run::Malformed; // a '>' run split by a line continuation: no byte offsets
      if (Consumed)
        ArgEnd = T[J].Offset + Consumed; // k<<<1, Block<N>>>>(...)
      if (!finishArgument(RunEnd))
        return Run::Malformed;
      Site.CloseBegin = T[J].Offset + Consumed;
      ArgsOpen = RunEnd;
      return Run::Closes;
    }
    if (Chars >= 3 && Stack.empty() && Chars - Consumed >= 3)
      return Run::Malformed; // '>>>' not followed by the call arguments
    return inside(J, RunEnd);
  }

  Run inside(size_t &J, size_t RunEnd) {
    ArgEnd = T[RunEnd - 1].Offset + T[RunEnd - 1].Length;
    J = RunEnd - 1;
    return Run::Inside;
  }

  bool onlyAngles() const {
    return std::none_of(Stack.begin(), Stack.end(), [](TokenKind S) { return S != tok::less; });
  }

  bool finishArgument(size_t NextFirst) {
    if (ArgFirst >= T.size() || T[ArgFirst].Offset >= ArgEnd)
      return false; // empty argument
    Site.ConfigArgs.push_back({T[ArgFirst].Offset, ArgEnd});
    ArgFirst = NextFirst;
    return true;
  }

  const std::string &Text;
  const TokenList &T;
  LaunchSite &Site;
  std::vector<TokenKind> Stack; // open brackets and template '<'
  size_t ArgFirst = 0;
  unsigned ArgEnd = 0; // end offset of the argument's last character so far
};

/// Whether the launch spanning T[Begin..CallClose] is a whole expression
/// statement, as the AST mode decides: hipLaunchKernelGGL is a statement, so
/// a launch used as a value keeps its <<<>>> syntax.
bool standsAsStatement(const LexicalContext &C, const TokenList &T, int Begin, int CallClose) {
  // Inside an argument of the project's own function-like macro
  // (CHECK(k<<<...>>>(...))) the macro makes the launch a statement, as the
  // AST sees after expansion; the argument ends at ')' or ','.
  bool MacroArgument = false;
  int Depth = 0;
  for (int J = Begin - 1; J >= 0 && Begin - J < LookLimit; --J) {
    if (isClose(T[J].Kind)) {
      ++Depth;
    } else if (isOpen(T[J].Kind) && Depth-- == 0) {
      MacroArgument = T[J].Kind == tok::l_paren && J > 0 && T[J - 1].Kind == tok::raw_identifier &&
                      C.isProjectMacro(C.spelling(T[J - 1]));
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
    if (L > 0 && (C.isWord(T, L - 1, "if") || C.isWord(T, L - 1, "while") ||
                  C.isWord(T, L - 1, "for") || C.isWord(T, L - 1, "switch")))
      return EndsStatement;
    return false;
  }
  case tok::raw_identifier:
    return (C.isWord(T, P, "else") || C.isWord(T, P, "do")) && EndsStatement;
  case tok::l_paren:
  case tok::comma:
    return MacroArgument && EndsStatement;
  default:
    return false;
  }
}

} // namespace

void translateLaunch(LexicalContext &C, const TokenList &T, size_t I) {
  if (C.Options.KeepLaunchSyntax)
    return;
  LaunchSite Site;
  size_t ArgsOpen = 0;
  int Callee = calleeBegin(C.Text, T, int(I), Site.TemplatedCallee);
  int Close = Callee >= 0 ? LaunchConfigReader(C.Text, T, Site).read(I, ArgsOpen) : -1;
  int CallClose = Close >= 0 ? matchForward(T, ArgsOpen) : -1;
  if (CallClose < 0) {
    addFinding(C.Out, C.Text, C.Path, T[I].Offset, check_ids::Launch, Severity::Warning,
               "kernel launch not recognised; left as <<<...>>>");
    return;
  }
  if (!standsAsStatement(C, T, Callee, CallClose)) {
    addFinding(C.Out, C.Text, C.Path, T[I].Offset, check_ids::Launch, Severity::Note,
               "launch used inside an expression kept as <<<...>>> (hipcc accepts it; "
               "hipLaunchKernelGGL is a statement)");
    return;
  }
  Site.CalleeBegin = T[Callee].Offset;
  Site.CalleeEnd = T[I].Offset;
  Site.OpenBegin = T[I].Offset;
  Site.ArgsOpenEnd = T[ArgsOpen].Offset + 1;
  Site.HasCallArgs = ArgsOpen + 1 < size_t(CallClose);
  rewriteLaunch(Site, C.Text, C.Out);
}

} // namespace cu2dcu::lexical
