// Token-level translation with Clang's raw lexer and the API maps. Used for
// text the AST cannot see (macro bodies, inactive #if branches, directive
// conditions) and as the whole-file fallback when a file does not parse.
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

  /// Translates mapped identifiers and #include lines in [Begin, End) of Text.
  /// IncludedHip carries the HIP headers already included earlier in the file,
  /// so that a duplicate include is removed.
  void translateRange(const std::string &Text, unsigned Begin, unsigned End,
                      const std::string &Path, FileFindings &Out,
                      std::set<std::string> &IncludedHip) const;

  /// Whole-file fallback: names, includes and <<<>>> launches.
  void translateFile(const std::string &Text, const std::string &Path, FileFindings &Out) const;

  /// True when the text mentions anything the maps know (a cheap pre-scan that
  /// lets files without CUDA skip parsing).
  bool mentionsCuda(const std::string &Text) const;

private:
  const ApiMap &Map;
  const TranslationOptions &Options;
};

} // namespace cu2dcu
