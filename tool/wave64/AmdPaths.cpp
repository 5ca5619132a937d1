#include "wave64/AmdPaths.h"
#include "wave64/CheckIds.h"

#include "translate/RawTokens.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <cctype>
#include <map>
#include <optional>

namespace cu2dcu {

namespace {

using Value = std::optional<int64_t>; // nothing: unknown
/// The macros an environment decides: a value, or nothing for "not defined".
/// A macro it does not list is unknown.
using Macros = std::map<std::string, std::optional<int64_t>>;

/// A #if condition evaluated with three values (C's preprocessor arithmetic
/// on the operators real guards use).
class Condition {
public:
  Condition(const std::vector<std::string> &Tokens, const Macros &Known)
      : T(Tokens), Known(Known) {}

  Value eval() {
    Value V = either();
    return Failed || P != T.size() ? std::nullopt : V;
  }

private:
  bool take(llvm::StringRef S) {
    if (P < T.size() && T[P] == S)
      return ++P, true;
    return false;
  }
  std::string next() {
    if (P < T.size())
      return T[P++];
    Failed = true;
    return "";
  }
  Value either() {
    Value L = both();
    while (take("||")) {
      Value R = both();
      L = (L && *L) || (R && *R) ? Value(1) : L && R ? Value(0) : std::nullopt;
    }
    return L;
  }
  Value both() {
    Value L = compare();
    while (take("&&")) {
      Value R = compare();
      L = (L && !*L) || (R && !*R) ? Value(0) : L && R ? Value(1) : std::nullopt;
    }
    return L;
  }
  Value compare() {
    Value L = unary();
    for (llvm::StringRef Op : {"==", "!=", "<=", ">=", "<", ">"}) {
      if (!take(Op))
        continue;
      Value R = unary();
      if (!L || !R)
        return std::nullopt;
      return Op == "==" ? *L == *R : Op == "!=" ? *L != *R : Op == "<=" ? *L <= *R
             : Op == ">=" ? *L >= *R : Op == "<" ? *L < *R : *L > *R;
    }
    return L;
  }
  Value unary() {
    if (take("!")) {
      Value V = unary();
      return V ? Value(!*V) : std::nullopt;
    }
    if (take("(")) {
      Value V = either();
      Failed |= !take(")");
      return V;
    }
    if (take("defined")) {
      bool Paren = take("(");
      auto It = Known.find(next());
      Failed |= Paren && !take(")");
      return It == Known.end() ? std::nullopt : Value(It->second.has_value());
    }
    std::string Token = next();
    if (!Token.empty() && std::isdigit(static_cast<unsigned char>(Token[0]))) {
      int64_t N = 0;
      return llvm::StringRef(Token).rtrim("uUlL").getAsInteger(0, N) ? std::nullopt : Value(N);
    }
    auto It = Known.find(Token);
    return It == Known.end() ? std::nullopt : Value(It->second.value_or(0));
  }

  const std::vector<std::string> &T;
  const Macros &Known;
  size_t P = 0;
  bool Failed = false;
};

/// One #if chain as one environment sees it: whether a branch was surely
/// taken, and whether every branch so far was surely skipped.
struct ChainView {
  bool AnyTaken = false, AllSkipped = true;

  /// Enters a branch with condition Cond; whether it is surely not compiled.
  bool enter(Value Cond) {
    bool Skipped = AnyTaken || (Cond && *Cond == 0);
    AnyTaken |= !AnyTaken && AllSkipped && Cond && *Cond != 0;
    AllSkipped &= Skipped;
    return Skipped;
  }
};

struct Chain {
  ChainView AsBuilt, Switched;
  std::string SwitchMacro;
  std::optional<AmdPathBranch> Open;
};

/// A directive's name and the tokens of its condition.
struct Directive {
  std::string Name;
  std::vector<std::string> Condition;
  unsigned Begin = 0, LineEnd = 0;
};

class BranchScan {
public:
  BranchScan(const std::string &Text, const WarpNames &Names)
      : Text(Text), Known(Names.AmdCompileMacros),
        SwitchName(Names.AmdSwitchNames.empty() ? "$^" : Names.AmdSwitchNames,
                   llvm::Regex::IgnoreCase) {}

  std::vector<AmdPathBranch> run() {
    std::vector<RawToken> T = lexRaw(Text, 0, Text.size());
    for (size_t I = 0; I + 1 < T.size(); ++I)
      if (T[I].Kind == clang::tok::hash && T[I].StartsLine)
        onDirective(read(T, I));
    return std::move(Branches);
  }

private:
  Directive read(const std::vector<RawToken> &T, size_t Hash) {
    Directive D{cleanSpelling(Text, T[Hash + 1]), {}, T[Hash].Offset, 0};
    size_t End = Hash + 2;
    for (; End < T.size() && !T[End].StartsLine; ++End)
      D.Condition.push_back(cleanSpelling(Text, T[End]));
    D.LineEnd = End < T.size() ? T[End].Offset : unsigned(Text.size());
    if (D.Name == "ifdef" || D.Name == "ifndef")
      D.Condition.insert(D.Condition.begin(), "defined");
    if (D.Name == "ifndef")
      D.Condition.insert(D.Condition.begin(), "!");
    return D;
  }

  void onDirective(const Directive &D) {
    bool Opens = D.Name == "if" || D.Name == "ifdef" || D.Name == "ifndef";
    if (!Opens && (Stack.empty() || (D.Name != "elif" && D.Name != "else" && D.Name != "endif")))
      return;
    if (Opens)
      Stack.emplace_back();
    else
      close(Stack.back(), D.Begin);
    if (D.Name == "endif")
      return Stack.pop_back();
    enter(Stack.back(), D.Name == "else" ? std::vector<std::string>{"1"} : D.Condition,
          D.LineEnd);
  }

  void enter(Chain &C, const std::vector<std::string> &Cond, unsigned Begin) {
    for (const std::string &Name : Cond)
      if (C.SwitchMacro.empty() && !Known.count(Name) && SwitchName.match(Name))
        C.SwitchMacro = Name;
    Macros WithSwitch = Known;
    if (!C.SwitchMacro.empty())
      WithSwitch[C.SwitchMacro] = 1;
    bool NotBuilt = C.AsBuilt.enter(Condition(Cond, Known).eval());
    bool NotSwitched = C.Switched.enter(Condition(Cond, WithSwitch).eval());
    C.Open = AmdPathBranch{Begin, Begin, NotBuilt, NotSwitched && !NotBuilt ? C.SwitchMacro : ""};
  }

  void close(Chain &C, unsigned End) {
    if (C.Open && (C.Open->NotCompiled || !C.Open->SwitchMacro.empty())) {
      C.Open->End = End;
      Branches.push_back(*C.Open);
    }
    C.Open.reset();
  }

  const std::string &Text;
  const Macros &Known;
  llvm::Regex SwitchName;
  std::vector<Chain> Stack;
  std::vector<AmdPathBranch> Branches;
};

} // namespace

std::vector<AmdPathBranch> amdPathBranches(const std::string &Text, const WarpNames &Names) {
  return BranchScan(Text, Names).run();
}

void judgeByAmdPaths(std::vector<Diagnostic> &Diagnostics, const std::string &File,
                     const std::string &Text, const WarpNames &Names) {
  auto IsW64Here = [&](const Diagnostic &D) {
    return D.File == File && wave64_ids::isWave64(D.CheckId);
  };
  if (Text.find("#if") == std::string::npos || !llvm::any_of(Diagnostics, IsW64Here))
    return;
  std::vector<AmdPathBranch> Branches = amdPathBranches(Text, Names);
  auto Around = [&](unsigned Offset) {
    return llvm::make_filter_range(Branches, [Offset](const AmdPathBranch &B) {
      return Offset >= B.Begin && Offset < B.End;
    });
  };
  llvm::erase_if(Diagnostics, [&](const Diagnostic &D) {
    return IsW64Here(D) &&
           llvm::any_of(Around(D.Offset), [](const AmdPathBranch &B) { return B.NotCompiled; });
  });
  for (Diagnostic &D : Diagnostics)
    if (IsW64Here(D))
      for (const AmdPathBranch &B : Around(D.Offset))
        if (!B.SwitchMacro.empty() && D.Message.find(B.SwitchMacro) == std::string::npos)
          D.Message += "; the project has its own AMD path: built with -D" + B.SwitchMacro +
                       ", the port does not compile this code";
}

} // namespace cu2dcu
