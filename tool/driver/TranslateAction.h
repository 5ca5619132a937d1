// The frontend action that runs every matcher over one translation unit:
// preprocessor callbacks, the AST visitor (names, launches, symbols) and the
// wave64 checks. It only records edits and findings; nothing is written here.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"
#include "driver/TimeReport.h"
#include "mapping/ApiMap.h"
#include "parse/SharedPch.h"

#include "clang/Frontend/FrontendAction.h"

#include <functional>

namespace cu2dcu {

struct TranslationUnitSetup {
  const ApiMap &Map;
  const TranslationOptions &Options;
  std::function<bool(const std::string &)> IsTranslated;
  std::string CudaIncludeDir;
  StageTime *MatchTime = nullptr; // --time-report: the AST pass is added here
  /// Called when the compiler instance is ready to parse (to add callbacks).
  std::function<void(clang::CompilerInstance &)> OnBeginSource;
  /// The shared PCH the unit is parsed with, if any: its project headers are
  /// not entered, so what the build found in them (Pch->Translated, put in
  /// the result beforehand) stands in for the preprocessor callbacks, and the
  /// AST pass and whole-file passes cover them here.
  const SharedPch *Pch = nullptr;
  /// Where clang reported errors while parsing (filled during the parse):
  /// the declarations around them are recorded as recovered ranges.
  const std::vector<clang::SourceLocation> *ErrorLocations = nullptr;
};

/// The preprocessor side of the translation, for a PCH build: what it finds
/// in project headers is recorded once and handed to every unit that loads
/// the PCH (TranslationUnitSetup::Pch).
class PchTranslation {
public:
  PchTranslation(const ApiMap &Map, const TranslationOptions &Options,
                 std::function<bool(const std::string &)> IsTranslated, std::string CudaIncludeDir);
  ~PchTranslation();
  /// As SharedPch's OnBeginSource: adds the callbacks to CI.
  void attach(clang::CompilerInstance &CI);
  /// Moves what was found into Pch.Translated, TranslatedFiles, WholeUnit.
  void finish(SharedPch &Pch);

private:
  struct State;
  std::unique_ptr<State> S;
};

std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationUnitSetup &Setup,
                                                           TranslationResult &Result);

} // namespace cu2dcu
