#include "match/SymbolArgumentTranslator.h"

#include "lexical/RawTokens.h"

#include "clang/Lex/Lexer.h"

namespace cu2dcu {

void SymbolArgumentTranslator::handle(const clang::CallExpr *Call, const std::string &CalleeName) {
  const ApiEntry *Entry = Context.map().lookup(CalleeName);
  if (!Entry || !Entry->SymbolArg || !Entry->isSupported() || *Entry->SymbolArg >= Call->getNumArgs())
    return;
  const clang::Expr *Arg = Call->getArg(*Entry->SymbolArg);
  clang::SourceManager &SM = Context.sourceManager();
  auto Begin = Context.resolve(Arg->getBeginLoc());
  auto Last = Context.resolve(Arg->getEndLoc());
  if (!Begin || !Last || Begin->File != Last->File)
    return;
  const std::string &Text = Context.textOf(Begin->File);
  if (Text.compare(Begin->Offset, 10, "HIP_SYMBOL") == 0)
    return;
  unsigned End = Last->Offset + clang::Lexer::MeasureTokenLength(SM.getSpellingLoc(Arg->getEndLoc()),
                                                                 SM, cudaLangOptions());
  FileFindings &Out = Context.findingsFor(Begin->File);
  Out.Edits.push_back({Begin->Offset, 0, "HIP_SYMBOL(", "symbol", CalleeName});
  Out.Edits.push_back({End, 0, ")", "symbol-syntax", ""});
}

} // namespace cu2dcu
