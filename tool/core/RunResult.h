// What a run produces: per input file its status, mode and text before and
// after, and the run's findings. The driver fills it (driver/Translator.h);
// the output and report stages read it, and need nothing of the driver.
#pragma once

#include "core/Diagnostic.h"
#include "core/Edit.h"
#include "core/InputFile.h"
#include "core/StageTimes.h"
#include "core/TranslationResult.h"

#include <string>
#include <vector>

namespace cu2dcu {

enum class ModeChoice { Auto, Ast, Lexical };

enum class FileStatus { Translated, Unchanged, Copied, Failed };
const char *fileStatusName(FileStatus S);

struct FileReport {
  InputFile Input;
  FileStatus Status = FileStatus::Copied;
  ParseMode Mode = ParseMode::Copy;
  ParseFailure Failure = ParseFailure::None; // why not a clean AST
  std::string ModeReason; // the first parse error, why lexical was used, or why the file failed
  double CpuSeconds = 0;  // parsing and matching it as its own unit
  std::string Original;
  std::string Translated;
  std::vector<Edit> Applied;
  unsigned LinesChanged = 0;
};

struct RunResult {
  std::vector<FileReport> Files;          // in discovery order
  std::vector<Diagnostic> Diagnostics;    // sorted, de-duplicated
  double Seconds = 0;
  StageTimes Times; // --time-report: the stages translateAll runs
  /// How to build the output: a configure-and-build command per translated
  /// CMake project, a make command per translated Makefile, in file order.
  std::vector<std::string> BuildCommands;
};

} // namespace cu2dcu
