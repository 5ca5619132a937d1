// Base class of the wavefront-64 checks, in the style of clang-tidy: each
// check lives in its own file, registers AST matchers and reports findings
// with a stable W64-* id through the SourceContext.
#pragma once

#include "core/Diagnostic.h"
#include "match/SourceContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <string>
#include <vector>

namespace cu2dcu {

class Wave64Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Wave64Check(std::string Id, SourceContext &Context) : Id(std::move(Id)), Context(Context) {}
  const std::string &id() const { return Id; }
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

protected:
  void report(clang::SourceLocation Loc, Severity Level, std::string Message,
              std::vector<FixIt> Fixes = {}) {
    Context.report(Loc, Id.c_str(), Level, std::move(Message), std::move(Fixes));
  }
  SourceContext &context() { return Context; }

private:
  std::string Id;
  SourceContext &Context;
};

/// Every wave64 check, constructed for one translation unit.
std::vector<std::unique_ptr<Wave64Check>> makeWave64Checks(SourceContext &Context);

} // namespace cu2dcu
