#include "match/CallArgumentTranslator.h"

#include "clang/Basic/CharInfo.h"

#include <vector>

namespace cu2dcu {

namespace {

/// Whether Arg names a function (a kernel, a template specialization, or a
/// pointer to one) rather than something HIP's const void * already takes.
bool namesFunction(const clang::Expr *Arg) {
  clang::QualType Type = Arg->IgnoreParenImpCasts()->getType();
  if (Type.isNull() || Type->isDependentType() || Type->isSpecificBuiltinType(clang::BuiltinType::Overload))
    return !Type.isNull();
  if (const auto *Pointer = Type->getAs<clang::PointerType>())
    Type = Pointer->getPointeeType();
  return Type->isFunctionType();
}

/// Whether Arg is already a symbol's address (CUDA's C form, a const void *),
/// which HIP_SYMBOL would take the address of again on NVIDIA (&X).
bool isSymbolAddress(const clang::Expr *Arg) {
  clang::QualType Type = Arg->IgnoreParenImpCasts()->getType();
  return !Type.isNull() && Type->isPointerType();
}

/// Whether Arg is a pointer to a pointer other than void **.
bool isTypedOutPointer(const clang::Expr *Arg) {
  clang::QualType Type = Arg->IgnoreParenImpCasts()->getType();
  const auto *Pointer = Type.isNull() ? nullptr : Type->getAs<clang::PointerType>();
  const auto *Pointee = Pointer ? Pointer->getPointeeType()->getAs<clang::PointerType>() : nullptr;
  return Pointee && !Pointee->getPointeeType()->isVoidType();
}

/// Whether each level a pointer type points to is const, from the outermost
/// pointee to the base: const void *const * -> {true, true}.
std::vector<bool> pointeeConstness(clang::QualType Type) {
  std::vector<bool> Levels;
  while (const auto *Pointer = Type->getAs<clang::PointerType>()) {
    Type = Pointer->getPointeeType();
    Levels.push_back(Type.isConstQualified());
  }
  return Levels;
}

/// The same for a type as the maps spell it ("const void **", "float *const *").
std::vector<bool> pointeeConstness(llvm::StringRef Spelled) {
  std::vector<bool> InnerFirst{false}; // the base, then each pointer level
  for (size_t I = 0; I < Spelled.size();) {
    size_t End = I + 1;
    if (Spelled[I] == '*')
      InnerFirst.push_back(false);
    else if (clang::isAsciiIdentifierContinue(Spelled[I])) {
      while (End < Spelled.size() && clang::isAsciiIdentifierContinue(Spelled[End]))
        ++End;
      if (Spelled.slice(I, End) == "const")
        InnerFirst.back() = true;
    }
    I = End;
  }
  InnerFirst.pop_back(); // the parameter itself: its const does not matter
  return std::vector<bool>(InnerFirst.rbegin(), InnerFirst.rend());
}

/// Whether a pointer argument needs a cast to HIP's parameter type: C++
/// drops no const implicitly (const float * to void *), and adds one below
/// the outermost pointee only where every level above is const (void ** does
/// not become const void **). CUDA's more qualified parameter took either.
bool needsQualifierCast(const clang::Expr *Arg, llvm::StringRef HipType) {
  clang::QualType Type = Arg->IgnoreParenImpCasts()->getType();
  if (Type.isNull() || Type->isDependentType() || !Type->isPointerType())
    return false;
  std::vector<bool> Given = pointeeConstness(Type), Wanted = pointeeConstness(HipType);
  bool AllAboveConst = true;
  for (size_t I = 0; I < std::min(Given.size(), Wanted.size()); ++I) {
    if ((Given[I] && !Wanted[I]) || (Wanted[I] && !Given[I] && I > 0 && !AllAboveConst))
      return true;
    AllAboveConst &= Wanted[I];
  }
  return false;
}

} // namespace

void CallArgumentTranslator::handle(const clang::CallExpr *Call, const std::string &CalleeName) {
  const ApiEntry *Entry = Context.map().lookup(CalleeName);
  if (!Entry || !Entry->isSupported())
    return;
  if (Entry->SymbolArg && *Entry->SymbolArg < Call->getNumArgs() &&
      !isSymbolAddress(Call->getArg(*Entry->SymbolArg)))
    wrap(Call->getArg(*Entry->SymbolArg), "HIP_SYMBOL(", "symbol", CalleeName);
  if (Entry->FunctionArg && *Entry->FunctionArg < Call->getNumArgs() &&
      namesFunction(Call->getArg(*Entry->FunctionArg)))
    wrap(Call->getArg(*Entry->FunctionArg), "reinterpret_cast<const void *>(", "kernel-pointer",
         CalleeName);
  if (Entry->OutPointerArg && *Entry->OutPointerArg < Call->getNumArgs() &&
      isTypedOutPointer(Call->getArg(*Entry->OutPointerArg)))
    wrap(Call->getArg(*Entry->OutPointerArg), "reinterpret_cast<void **>(", "out-pointer",
         CalleeName);
  for (const auto &[Index, HipType] : Entry->QualifierCasts)
    if (Index < Call->getNumArgs() && needsQualifierCast(Call->getArg(Index), HipType))
      wrap(Call->getArg(Index), "(" + HipType + ")(", "qualifier-cast", CalleeName);
}

void CallArgumentTranslator::wrap(const clang::Expr *Arg, llvm::StringRef Prefix,
                                  llvm::StringRef Category, const std::string &CalleeName) {
  // Inside a macro body the call is translated lexically, without types.
  if (Context.sourceManager().isMacroBodyExpansion(Arg->getBeginLoc()))
    return;
  auto Written = Context.resolveRange(Arg->getSourceRange());
  if (!Written)
    return;
  const std::string &Text = Context.textOf(Written->File);
  if (llvm::StringRef(Text).substr(Written->Begin).starts_with(Prefix))
    return; // already wrapped
  FileFindings &Out = Context.findingsFor(Written->File);
  Out.Edits.push_back({Written->Begin, 0, Prefix.str(), Category.str(), CalleeName});
  Out.Edits.push_back({Written->End, 0, ")", Category.str() + "-syntax", ""});
}

} // namespace cu2dcu
