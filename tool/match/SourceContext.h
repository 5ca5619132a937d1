// Maps clang source locations to (input file, byte offset) and collects what
// one translation unit finds. Only files the run translates receive edits;
// locations in system headers or copied files are ignored.
#pragma once

#include "core/Options.h"
#include "core/TranslationResult.h"
#include "lexical/LexicalTranslator.h"
#include "mapping/ApiMap.h"

#include "clang/Basic/SourceManager.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cu2dcu {

struct FilePosition {
  clang::FileID File;
  unsigned Offset = 0;
};

/// A wave64 finding as --fix-wave64 sees it before deciding: its fixes are
/// applied only when every finding of its lane grouping can be fixed safely
/// (wave64/Wave64FixGroups.h).
struct DeferredWave64Finding {
  clang::SourceLocation Loc;       // where the finding is reported
  clang::SourceLocation DefinedAt; // the named warp constant it uses, if any
  /// Where its fixes edit, safe or not (each ties the grouping together).
  std::vector<std::pair<clang::FileID, Edit>> Edits;
  /// Every fix is safe and lies in a translated file: applied unless withheld.
  bool Fixable = false;
  /// Without a safe fix, it holds back its grouping's fixes, unless it is a
  /// review of what the translator did rather than a 32-lane assumption.
  bool HoldsBackGrouping = true;
  /// Its fixes are all Wave64Fix::JudgedElsewhere: resolved when the
  /// grouping's safe fixes make the same edits.
  bool ResolvedBySameEdits = false;
  /// The finding: at Offset of File, findingsFor(File).Diagnostics[Index]
  /// (an index only the fixable and covered ones need: reported by the checks,
  /// after the translator's).
  clang::FileID File;
  unsigned Offset = 0;
  size_t Index = 0;
  std::string CheckId;
};

class SourceContext {
public:
  using IsTranslatable = std::function<bool(const std::string &AbsPath)>;

  SourceContext(const ApiMap &Map, const TranslationOptions &Options, IsTranslatable Filter,
                TranslationResult &Result)
      : Map(Map), Options(Options), Lexical(Map, Options), Filter(std::move(Filter)),
        Result(Result) {}

  void setSourceManager(clang::SourceManager &NewSM) { SM = &NewSM; }
  clang::SourceManager &sourceManager() const { return *SM; }
  const ApiMap &map() const { return Map; }
  const TranslationOptions &options() const { return Options; }
  const LexicalTranslator &lexical() const { return Lexical; }

  /// Where Loc is spelled in a translated file, or nothing. Locations written
  /// inside a macro body are left to the lexical pass over that body.
  std::optional<FilePosition> resolve(clang::SourceLocation Loc) const;

  /// The file range a whole expression occupies (through macro arguments and
  /// object-like macros used as a whole), if it lies in one translated file.
  struct FileRange {
    clang::FileID File;
    unsigned Begin = 0;
    unsigned End = 0;
  };
  std::optional<FileRange> resolveRange(clang::SourceRange Range) const;

  bool isTranslated(clang::FileID File) const;
  const std::string &pathOf(clang::FileID File) const;
  const std::string &textOf(clang::FileID File) const;
  /// 1-based line and column of Offset in a translated file.
  std::pair<unsigned, unsigned> lineColumnOf(clang::FileID File, unsigned Offset) const;
  FileFindings &findingsFor(clang::FileID File);
  /// HIP headers included so far in File (for duplicate include removal).
  std::set<std::string> &includedHip(clang::FileID File) { return IncludedHip[File]; }

  /// Records a use of a mapped name spelled at Loc with the given length.
  void translateNameAt(clang::SourceLocation Loc, const ApiEntry &Entry);
  /// Records a finding at Loc if it lies in a translated file.
  void report(clang::SourceLocation Loc, const char *CheckId, Severity Level, std::string Message,
              std::vector<FixIt> Fixes = {});
  /// Wave64 findings recorded for --fix-wave64's decision per lane grouping.
  std::vector<DeferredWave64Finding> &deferredWave64() { return DeferredWave64; }
  /// Runs the lexical translator over a file range (skipped code, conditions).
  void translateLexically(clang::SourceRange Range);
  /// Remembers a macro body for translateMacroBodies: a warp call written in
  /// it is the AST's when the unit's warp plan decides it, and the plan needs
  /// the whole unit.
  void deferMacroBody(clang::SourceRange Body) { MacroBodies.push_back(Body); }
  /// Runs the lexical translator over the remembered macro bodies; the warp
  /// calls whose names LeftToAst holds (per file, by offset) are left to the
  /// AST's warp translator.
  void translateMacroBodies(const std::map<clang::FileID, std::set<unsigned>> &LeftToAst = {});
  /// Remembers a file the preprocessor entered; whole-file passes run on it.
  void noteFileEntered(clang::FileID File);
  /// Whole-file lexical passes (namespace renames) over every entered file.
  void finishFiles();
  /// The same for one file given by path and text (a project header that a
  /// shared PCH holds, which this unit never enters).
  void finishFile(const std::string &Path, const std::string &Text);

private:
  struct FileInfo {
    bool Translated = false;
    std::string Path;
    std::string Text;
    std::shared_ptr<const LineIndex> Lines; // built on the first look-up
  };
  const FileInfo &info(clang::FileID File) const;
  /// Range (up to the start of its last token) as bytes of one translated
  /// file, its last token included.
  std::optional<FileRange> tokenRange(clang::SourceRange Range) const;

  const ApiMap &Map;
  const TranslationOptions &Options;
  LexicalTranslator Lexical;
  IsTranslatable Filter;
  TranslationResult &Result;
  clang::SourceManager *SM = nullptr;
  mutable std::map<clang::FileID, FileInfo> Files;
  std::map<clang::FileID, std::set<std::string>> IncludedHip;
  std::set<clang::FileID> Entered;
  std::vector<clang::SourceRange> MacroBodies;
  std::vector<DeferredWave64Finding> DeferredWave64;
};

} // namespace cu2dcu
