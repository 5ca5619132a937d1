// What translating one input produces: edits and findings per touched file.
// The match stage fills it; the rewrite, output and report stages read it.
#pragma once

#include "core/Diagnostic.h"
#include "core/Edit.h"
#include "core/SourceText.h"

#include <memory>

#include <map>
#include <string>
#include <vector>

namespace cu2dcu {

/// How a file was handled: parsed with the AST, parsed with an AST that clang
/// recovered from errors (the lexical rules fill in where it did), translated
/// lexically, copied, read and found to hold nothing to translate (None), or
/// a build file (Makefile, CMake) translated by the build-file rules.
enum class ParseMode { Ast, AstRecovered, Lexical, Copy, None, Build };

/// Why a file was not translated from a clean AST (reports and the corpus
/// runner group by it).
enum class ParseFailure { None, Errors, Crash, Timeout, NoToolchain, Requested };

inline const char *parseModeName(ParseMode M) {
  switch (M) {
  case ParseMode::Ast:
    return "ast";
  case ParseMode::AstRecovered:
    return "ast-recovered";
  case ParseMode::Lexical:
    return "lexical";
  case ParseMode::Copy:
    return "copy";
  case ParseMode::Build:
    return "build";
  case ParseMode::None:
    return "none";
  }
  return "?";
}

inline const char *parseFailureName(ParseFailure F) {
  switch (F) {
  case ParseFailure::None:
    return "none";
  case ParseFailure::Errors:
    return "errors";
  case ParseFailure::Crash:
    return "crash";
  case ParseFailure::Timeout:
    return "timeout";
  case ParseFailure::NoToolchain:
    return "no-toolchain";
  case ParseFailure::Requested:
    return "requested";
  }
  return "?";
}

/// A byte range [Begin, End) of a file.
struct ByteRange {
  unsigned Begin = 0, End = 0;
};

struct FileFindings {
  std::vector<Edit> Edits;
  std::vector<Diagnostic> Diagnostics;
  /// Where clang recovered from errors (the declarations around them): the
  /// AST may have left names unresolved there, so the lexical rules fill in.
  std::vector<ByteRange> RecoveredRanges;

  /// 1-based line and column of Offset in Text, the text of the file these
  /// findings are about; its line index is built on the first call.
  std::pair<unsigned, unsigned> lineColumnOf(const std::string &Text, unsigned Offset) {
    if (!Lines || !Lines->indexes(Text))
      Lines = std::make_shared<const LineIndex>(Text);
    return Lines->lineColumn(Offset);
  }

private:
  std::shared_ptr<const LineIndex> Lines;
};

/// Findings keyed by absolute input path. A translation unit also reports on
/// the project headers it includes.
struct TranslationResult {
  std::map<std::string, FileFindings> Files;
  ParseMode Mode = ParseMode::Ast;
  ParseFailure Failure = ParseFailure::None;
  std::string FallbackReason; // the first error, or why no AST was had

  FileFindings &at(const std::string &AbsPath) { return Files[AbsPath]; }
};

} // namespace cu2dcu
