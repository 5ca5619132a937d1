// The frontend action that runs every matcher over one translation unit:
// preprocessor callbacks, the AST visitor (names, launches, symbols) and the
// wave64 checks. It only records edits and findings; nothing is written here.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"
#include "driver/TimeReport.h"
#include "mapping/ApiMap.h"

#include "clang/Frontend/FrontendAction.h"

#include <functional>

namespace cu2dcu {

struct TranslationUnitSetup {
  const ApiMap &Map;
  const TranslationOptions &Options;
  std::function<bool(const std::string &)> IsTranslated;
  std::string CudaIncludeDir;
  StageTime *MatchTime = nullptr; // --time-report: the AST pass is added here
};

std::unique_ptr<clang::FrontendAction> makeTranslateAction(const TranslationUnitSetup &Setup,
                                                           TranslationResult &Result);

} // namespace cu2dcu
