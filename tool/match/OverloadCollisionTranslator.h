// Two overloads of a program's function that become one after translation:
// `const char *errorName(cudaError_t)` and `errorName(CUresult)` both take a
// hipError_t under HIP, which is a redefinition there. The first definition
// is kept; each later one goes under `#if 0` and is reported
// (CU2DCU-COLLISION). Its callers reach the kept one, which takes the same
// HIP values.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Decl.h"

#include <map>
#include <string>

namespace cu2dcu {

class OverloadCollisionTranslator {
public:
  explicit OverloadCollisionTranslator(SourceContext &Context) : Context(Context) {}
  void handle(const clang::FunctionDecl *Function);

private:
  /// The function's scope, name and parameter types, with the types as
  /// written (Translated: with their CUDA names replaced as the maps say).
  std::string signature(const clang::FunctionDecl *Function, bool Translated) const;
  std::string translatedSpelling(const std::string &Type) const;

  struct Kept {
    const clang::FunctionDecl *Function;
    std::string Original;
  };
  SourceContext &Context;
  /// The first definition of each translated signature.
  std::map<std::string, Kept> First;
};

} // namespace cu2dcu
