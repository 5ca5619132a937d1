// `Dep<T>::name<N>(args)` without the `template` keyword that C++ requires
// before a member template of a dependent type. nvcc accepts it; clang parses
// `name < N > (args)` as two comparisons and rejects the instantiation
// (attentionMultiHeadKVCache's `vec_cast<tgt, src>::cast<vec_size>(...)`).
// Where the class template the qualifier names declares a member template of
// that name, `template` is inserted: `Dep<T>::template name<N>(args)`, what
// nvcc read it as. The lexical mode cannot know the member is a template.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

namespace cu2dcu {

class DependentTemplateKeywordTranslator {
public:
  explicit DependentTemplateKeywordTranslator(SourceContext &Context) : Context(Context) {}
  /// LeftOperand: the left side of a `<` (a built-in comparison, or a call
  /// of an overloaded operator< that the program declares), which may be
  /// such a name.
  void handle(const clang::Expr *LeftOperand);

private:
  SourceContext &Context;
};

} // namespace cu2dcu
