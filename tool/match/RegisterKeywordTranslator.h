// The `register` storage class: C++17 removed it. nvcc accepts it with a
// warning, hipcc's clang rejects it under -std=c++17, and it never meant
// anything to either compiler, so the keyword is removed (with the space
// after it). The lexical pass removes it the same way (removeRegisterKeyword).
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Decl.h"

namespace cu2dcu {

class RegisterKeywordTranslator {
public:
  explicit RegisterKeywordTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::VarDecl *Var);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
