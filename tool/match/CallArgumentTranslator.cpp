#include "match/CallArgumentTranslator.h"

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

/// Whether Arg is a pointer to a pointer other than void **.
bool isTypedOutPointer(const clang::Expr *Arg) {
  clang::QualType Type = Arg->IgnoreParenImpCasts()->getType();
  const auto *Pointer = Type.isNull() ? nullptr : Type->getAs<clang::PointerType>();
  const auto *Pointee = Pointer ? Pointer->getPointeeType()->getAs<clang::PointerType>() : nullptr;
  return Pointee && !Pointee->getPointeeType()->isVoidType();
}

} // namespace

void CallArgumentTranslator::handle(const clang::CallExpr *Call, const std::string &CalleeName) {
  const ApiEntry *Entry = Context.map().lookup(CalleeName);
  if (!Entry || !Entry->isSupported())
    return;
  if (Entry->SymbolArg && *Entry->SymbolArg < Call->getNumArgs())
    wrap(Call->getArg(*Entry->SymbolArg), "HIP_SYMBOL(", "symbol", CalleeName);
  if (Entry->FunctionArg && *Entry->FunctionArg < Call->getNumArgs() &&
      namesFunction(Call->getArg(*Entry->FunctionArg)))
    wrap(Call->getArg(*Entry->FunctionArg), "reinterpret_cast<const void *>(", "kernel-pointer",
         CalleeName);
  if (Entry->OutPointerArg && *Entry->OutPointerArg < Call->getNumArgs() &&
      isTypedOutPointer(Call->getArg(*Entry->OutPointerArg)))
    wrap(Call->getArg(*Entry->OutPointerArg), "reinterpret_cast<void **>(", "out-pointer",
         CalleeName);
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
