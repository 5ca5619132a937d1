#include "match/SymbolArgumentTranslator.h"


namespace cu2dcu {

void SymbolArgumentTranslator::handle(const clang::CallExpr *Call, const std::string &CalleeName) {
  const ApiEntry *Entry = Context.map().lookup(CalleeName);
  if (!Entry || !Entry->SymbolArg || !Entry->isSupported() || *Entry->SymbolArg >= Call->getNumArgs())
    return;
  const clang::Expr *Arg = Call->getArg(*Entry->SymbolArg);
  // Inside a macro body the call is translated lexically, without types.
  if (Context.sourceManager().isMacroBodyExpansion(Arg->getBeginLoc()))
    return;
  auto Written = Context.resolveRange(Arg->getSourceRange());
  if (!Written)
    return;
  const std::string &Text = Context.textOf(Written->File);
  if (Text.compare(Written->Begin, 10, "HIP_SYMBOL") == 0)
    return;
  FileFindings &Out = Context.findingsFor(Written->File);
  Out.Edits.push_back({Written->Begin, 0, "HIP_SYMBOL(", "symbol", CalleeName});
  Out.Edits.push_back({Written->End, 0, ")", "symbol-syntax", ""});
}

} // namespace cu2dcu
