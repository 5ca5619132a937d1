// Arguments HIP takes in another form than CUDA, which map entries name by
// index: a __device__ symbol (symbol_arg) goes through HIP_SYMBOL(sym); a
// kernel (function_arg) that CUDA takes through a template overload goes to
// HIP's C API as reinterpret_cast<const void *>(kernel); a typed out-pointer
// (out_pointer_arg) that CUDA takes through a template goes as void **.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

namespace cu2dcu {

class CallArgumentTranslator {
public:
  explicit CallArgumentTranslator(SourceContext &Context) : Context(Context) {}
  /// CalleeName is the CUDA name the call resolves to.
  void handle(const clang::CallExpr *Call, const std::string &CalleeName);

private:
  void wrap(const clang::Expr *Arg, llvm::StringRef Prefix, llvm::StringRef Category,
            const std::string &CalleeName);

  SourceContext &Context;
};

} // namespace cu2dcu
