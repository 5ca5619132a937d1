// Token-level translation with Clang's raw lexer and the API maps. Used for
// text the AST cannot see (macro bodies, inactive #if branches, directive
// conditions) and as the whole-file fallback when a file does not parse.
//
// The pass never expands macros and never needs types. It splits its range
// into preprocessor directives and code: #include lines are translated,
// #if/#elif/#ifdef conditions get their names renamed, a #define body is
// translated as code of its own (its name and parameters are not), and other
// directives (#pragma, #error, #undef, #line) are left alone, as the AST mode
// does. In code it renames mapped names, wraps symbol arguments in
// HIP_SYMBOL(), and rewrites kernel<<<...>>>(...) launches that stand as
// statements, with <<< and >>> matched through nested templates, parentheses
// and >>>> runs.
#pragma once

#include "core/TranslationResult.h"
#include "mapping/ApiMap.h"

#include <set>
#include <string>

namespace cu2dcu {

struct TranslationOptions;

class LexicalTranslator {
public:
  LexicalTranslator(const ApiMap &Map, const TranslationOptions &Options)
      : Map(Map), Options(Options) {}

  /// Translates mapped identifiers, #include lines and launches in
  /// [Begin, End) of Text. IncludedHip carries the HIP headers already
  /// included earlier in the file, so that a duplicate include is removed.
  /// The warp calls whose names start at the offsets in LeftToAst are the AST
  /// warp translator's (name, mask and findings).
  void translateRange(const std::string &Text, unsigned Begin, unsigned End,
                      const std::string &Path, FileFindings &Out,
                      std::set<std::string> &IncludedHip,
                      const std::set<unsigned> *LeftToAst = nullptr) const;

  /// Whole-file fallback: names, includes and <<<>>> launches.
  void translateFile(const std::string &Text, const std::string &Path, FileFindings &Out) const;

  /// True when the text mentions anything the maps know (a cheap pre-scan that
  /// lets files without CUDA skip parsing).
  bool mentionsCuda(const std::string &Text) const;

  /// Names of the macros Text #defines (for TranslationOptions::ProjectMacros),
  /// and the names it declares that look like CUDA's (a cudaCheck helper): for
  /// TranslationOptions::ProjectNames. One pass: a warm run does this for
  /// every file.
  void collectProjectNames(const std::string &Text, std::set<std::string> &Macros,
                           std::set<std::string> &Names) const;
  /// Libraries that the HIP headers of Text's #includes need at link time
  /// where the CUDA ones needed none (a header entry's `link`).
  void collectLinkLibraries(const std::string &Text, std::set<std::string> &Libraries) const;

private:
  const ApiMap &Map;
  const TranslationOptions &Options;
};

} // namespace cu2dcu
