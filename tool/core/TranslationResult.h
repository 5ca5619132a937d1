// What translating one input produces: edits and findings per touched file.
// The match stage fills it; the rewrite, output and report stages read it.
#pragma once

#include "core/Diagnostic.h"
#include "core/Edit.h"

#include <map>
#include <string>
#include <vector>

namespace cu2dcu {

/// How a file was handled: parsed with the AST, translated lexically, copied,
/// or read and found to hold nothing to translate (None).
enum class ParseMode { Ast, Lexical, Copy, None };

inline const char *parseModeName(ParseMode M) {
  switch (M) {
  case ParseMode::Ast:
    return "ast";
  case ParseMode::Lexical:
    return "lexical";
  case ParseMode::Copy:
    return "copy";
  case ParseMode::None:
    return "none";
  }
  return "?";
}

struct FileFindings {
  std::vector<Edit> Edits;
  std::vector<Diagnostic> Diagnostics;
};

/// Findings keyed by absolute input path. A translation unit also reports on
/// the project headers it includes.
struct TranslationResult {
  std::map<std::string, FileFindings> Files;
  ParseMode Mode = ParseMode::Ast;
  std::string FallbackReason; // why the lexical mode was used, if it was

  FileFindings &at(const std::string &AbsPath) { return Files[AbsPath]; }
};

/// 1-based line and column of a byte offset.
inline std::pair<unsigned, unsigned> lineColumnOf(const std::string &Text, unsigned Offset) {
  unsigned Line = 1, LineStart = 0;
  for (unsigned I = 0; I < Offset && I < Text.size(); ++I)
    if (Text[I] == '\n') {
      ++Line;
      LineStart = I + 1;
    }
  return {Line, Offset - LineStart + 1};
}

} // namespace cu2dcu
