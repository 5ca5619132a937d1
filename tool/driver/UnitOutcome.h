// What parsing and matching one translation unit produced. It crosses
// process boundaries (isolated parses), runs (the unit cache) and machines
// (the shards of a CI matrix) as JSON, so it holds no clang object.
#pragma once

#include "core/StageTimes.h"
#include "core/TranslationResult.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace cu2dcu {

struct UnitOutcome {
  TranslationResult Result; // Mode: Ast, AstRecovered or Lexical (no AST)
  StageTime Parse, Match;   // --time-report
  bool UsedPch = false;     // parsed with a shared PCH
  bool PchRejected = false; // parsed with one, then again without it
  /// Every file the parse read (real paths): what a reuse of this outcome
  /// depends on besides the unit's flags and the run's settings.
  std::vector<std::string> Reads;
  bool hasAst() const { return Result.Mode != ParseMode::Lexical; }
};

llvm::json::Value toJSON(const UnitOutcome &O);
bool fromJSON(const llvm::json::Value &V, UnitOutcome &O, llvm::json::Path P);

} // namespace cu2dcu
