// Base class of the wavefront-64 checks, in the style of clang-tidy: each
// check lives in its own file, registers AST matchers and reports findings
// with a stable W64-* id through reportWave64 (match/Wave64Report.h).
#pragma once

#include "match/Wave64Report.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <string>
#include <vector>

namespace cu2dcu {

class WarpAnalysis;

class Wave64Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Wave64Check(std::string Id, SourceContext &Context, std::shared_ptr<WarpAnalysis> Analysis)
      : Id(std::move(Id)), Context(Context), Analysis(std::move(Analysis)) {}
  const std::string &id() const { return Id; }
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

protected:
  bool report(clang::SourceLocation Loc, Severity Level, std::string Message,
              std::vector<Wave64Fix> Fixes = {}, clang::SourceLocation DefinedAt = {}) {
    return reportWave64(Context, Loc, Id, Level, std::move(Message), std::move(Fixes),
                        DefinedAt);
  }
  SourceContext &context() { return Context; }
  WarpAnalysis &analysis() { return *Analysis; }

private:
  std::string Id;
  SourceContext &Context;
  std::shared_ptr<WarpAnalysis> Analysis;
};

/// Every wave64 check, constructed for one translation unit. The checks share
/// one WarpAnalysis (per-function data flow, cached).
std::vector<std::unique_ptr<Wave64Check>> makeWave64Checks(SourceContext &Context);

} // namespace cu2dcu
