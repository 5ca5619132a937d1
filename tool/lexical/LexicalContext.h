// What the pieces of one lexical pass share (LexicalTranslator's directives
// and names, LexicalLaunch, LexicalWarpCalls): the text and its findings,
// the maps and options, and what the pass learnt of the range's macros.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"
#include "lexical/TokenMatching.h"
#include "mapping/ApiMap.h"

#include <map>
#include <set>
#include <string>

namespace cu2dcu::lexical {

struct LexicalContext {
  LexicalContext(const ApiMap &Map, const TranslationOptions &Options, const std::string &Text,
                 const std::string &Path, FileFindings &Out)
      : Map(Map), Options(Options), Text(Text), Path(Path), Out(Out) {}

  std::string spelling(const RawToken &T) const { return cleanSpelling(Text, T); }
  bool isWord(const TokenList &T, int I, const char *Word) const {
    return I >= 0 && size_t(I) < T.size() && T[I].Kind == clang::tok::raw_identifier &&
           spelling(T[I]) == Word;
  }
  bool isProjectMacro(const std::string &Name) const {
    return LocalMacros.count(Name) ||
           (Options.ProjectMacros && Options.ProjectMacros->count(Name));
  }

  const ApiMap &Map;
  const TranslationOptions &Options;
  const std::string &Text;
  const std::string &Path;
  FileFindings &Out;
  std::set<std::string> LocalMacros;              // #defined in this range
  std::map<std::string, std::string> MacroValues; // #define NAME NUMBER in this range
  /// A whole-file pass (no AST): it decides about masks the AST would
  /// otherwise judge through their expansions.
  bool WholeFile = false;
  /// The offsets of warp call names the AST's warp translator owns.
  const std::set<unsigned> *LeftToAst = nullptr;
  unsigned SkipUntil = 0; // tokens before this offset were consumed by an edit
};

} // namespace cu2dcu::lexical
