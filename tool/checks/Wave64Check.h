// Base class of the wavefront-64 checks, in the style of clang-tidy: each
// check lives in its own file, registers AST matchers and reports findings
// with a stable W64-* id through the SourceContext.
//
// Reporting goes through reportWave64(), the one place that
//  - honours in-source suppressions (`// cu2dcu: ignore W64-ID` on the line
//    of the finding or the line above),
//  - turns the check's fixes into FixIts, and applies the safe ones as
//    "wave64" edits when --fix-wave64 is given.
#pragma once

#include "core/Diagnostic.h"
#include "match/SourceContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <memory>
#include <string>
#include <vector>

namespace cu2dcu {

class WarpAnalysis;

/// A change a check proposes: replace the spelled text [Begin, Begin+Length)
/// with Replacement. Begin is any location whose spelling lies in a
/// translated file (see SourceContext::resolve for what counts).
struct Wave64Fix {
  clang::SourceLocation Begin; // spelling location of the first character
  unsigned Length = 0;
  std::string Replacement;
  std::string Description;
  /// Safe fixes are applied with --fix-wave64; the others are only suggested.
  bool Safe = false;
};

/// A fix replacing the token spelled at Loc.
Wave64Fix tokenFix(const clang::SourceManager &SM, clang::SourceLocation Loc,
                   std::string Replacement, std::string Description, bool Safe);
/// A fix replacing the spelled text from the token at Begin through the token
/// at Last; an invalid fix (Begin invalid) when they are not written in one
/// buffer in that order.
Wave64Fix rangeFix(const clang::SourceManager &SM, clang::SourceLocation Begin,
                   clang::SourceLocation Last, std::string Replacement, std::string Description,
                   bool Safe);

/// Whether the text of a file suppresses CheckId at Offset: a comment
/// `cu2dcu: ignore ID[, ID...]` on the same line or on the line above. An id
/// may be written as `W64-*` to ignore every wave64 check.
bool isSuppressed(const std::string &Text, unsigned Offset, const std::string &CheckId);

/// Reports one wave64 finding (see the file comment). DefinedAt, for a
/// finding at a use of a named warp constant, is where the constant's value is
/// written: the finding records it (Diagnostic::Definition) when that is in a
/// translated file. Returns false when the finding was suppressed or lies
/// outside the translated files.
bool reportWave64(SourceContext &Context, clang::SourceLocation Loc, const std::string &CheckId,
                  Severity Level, std::string Message, std::vector<Wave64Fix> Fixes = {},
                  clang::SourceLocation DefinedAt = {});

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
