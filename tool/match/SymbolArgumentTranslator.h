// cudaMemcpyToSymbol(sym, ...) and friends: HIP takes the symbol through
// HIP_SYMBOL(sym). Which argument is the symbol comes from the map entry.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

namespace cu2dcu {

class SymbolArgumentTranslator {
public:
  explicit SymbolArgumentTranslator(SourceContext &Context) : Context(Context) {}
  /// CalleeName is the CUDA name the call resolves to.
  void handle(const clang::CallExpr *Call, const std::string &CalleeName);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
