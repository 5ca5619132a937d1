// Base class of the wavefront-64 checks, in the style of clang-tidy: each
// check lives in its own file, registers AST matchers and reports findings
// with a stable W64-* id through reportWave64 (wave64/Wave64Report.h).
#pragma once

#include "wave64/Wave64Report.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <string>
#include <vector>

namespace cu2dcu {

class WarpAnalysis;
class WarpCallPlanner;

/// What the checks of one translation unit share, as clang-tidy's checks share
/// ClangTidyContext: the unit's source, its warp data-flow analysis and its
/// warp plan (what the translator does with each warp call), each built once
/// per unit.
struct Wave64Context {
  SourceContext &Source;
  WarpAnalysis &Analysis;
  const WarpCallPlanner &WarpPlan;
  clang::ASTContext &Ast;
};

class Wave64Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Wave64Check(std::string Id, Wave64Context &Shared) : Id(std::move(Id)), Shared(Shared) {}
  const std::string &id() const { return Id; }
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;

protected:
  /// Reports a finding; in consistent 32-lane groups a finding about the
  /// grouping's width is a note without a fix (ConsistentGroupsReason).
  bool report(clang::SourceLocation Loc, Severity Level, std::string Message,
              std::vector<Wave64Fix> Fixes = {}, clang::SourceLocation DefinedAt = {});
  SourceContext &context() { return Shared.Source; }
  WarpAnalysis &analysis() { return Shared.Analysis; }
  const WarpCallPlanner &warpPlan() const { return Shared.WarpPlan; }

private:
  std::string Id;
  Wave64Context &Shared;
};

/// Every wave64 check of a translation unit, registered on the unit's one
/// MatchFinder (the walk that also feeds the translators). Each check reports
/// what it finds whatever the translator did with the code.
class Wave64Checks {
public:
  Wave64Checks(Wave64Context &Shared, clang::ast_matchers::MatchFinder &Finder);

private:
  std::vector<std::unique_ptr<Wave64Check>> Checks;
};

} // namespace cu2dcu
