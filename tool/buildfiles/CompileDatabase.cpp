#include "buildfiles/CompileDatabase.h"

#include "buildfiles/NvccFlags.h"
#include "buildfiles/TextEdits.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace cu2dcu {

namespace path = llvm::sys::path;

namespace {

/// Path made absolute against Base (when relative), dots removed.
std::string absoluteIn(llvm::StringRef Base, llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  if (path::is_relative(Path)) {
    Abs = Base;
    path::append(Abs, Path);
  }
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return Abs.str().str();
}

/// Moves paths from the input tree to the output tree.
class TreeMove {
public:
  TreeMove(const BuildOptions &Opts, llvm::StringRef DisplayPath)
      : From(Opts.InputRoot), To(Opts.OutputRoot.empty() ? Opts.InputRoot : Opts.OutputRoot) {
    // A command whose directory is outside the tree runs where its
    // database is written.
    Here = absoluteIn(To, path::parent_path(DisplayPath));
  }

  std::string directory(llvm::StringRef Dir) const { return inTree(Dir) ? move(Dir) : Here; }

  /// A path the command in Dir names. One relative to a directory in the
  /// tree that stays in the tree is unchanged (both move together); one
  /// outside is made absolute, as the directory may move, except an output
  /// (an object beside the command).
  std::string path(llvm::StringRef P, llvm::StringRef Dir, bool IsOutput) const {
    std::string Abs = absoluteIn(Dir, P);
    if (inTree(Abs))
      return path::is_relative(P) && inTree(Dir) ? P.str() : move(Abs);
    return path::is_relative(P) && IsOutput ? P.str() : Abs;
  }

private:
  bool inTree(llvm::StringRef P) const {
    return !From.empty() && P.starts_with(From) &&
           (P.size() == From.size() || P[From.size()] == '/');
  }
  std::string move(llvm::StringRef P) const {
    llvm::SmallString<256> Moved(P);
    path::replace_path_prefix(Moved, From, To);
    return Moved.str().str();
  }

  std::string From, To, Here;
};

/// The words of an nvcc command translated for hipcc (the flag rules of the
/// Makefiles); other commands are returned unchanged.
std::vector<std::string> hipCommand(const clang::tooling::CompileCommand &C,
                                    const NvccFlagTranslator &Flags, const BuildFlagMap &Map,
                                    std::vector<WordNote> &Notes) {
  std::vector<std::string> Words = C.CommandLine;
  const std::string *Hip = Words.empty() ? nullptr : Flags.hipCompiler(Words.front());
  if (!Hip)
    return Words;
  std::vector<std::string> Args(Words.begin() + 1, Words.end());
  bool ArchDone = false;
  WordTranslation T = Flags.translate(Args, ArchDone);
  Notes = T.Notes;
  std::vector<std::string> Out{*Hip};
  for (std::string &W : applyWordTranslation(Args, T)) {
    // A .c input is compiled as HIP C++, as nvcc compiled it (source_languages).
    llvm::StringRef Ext = path::extension(W);
    const NameRule *Language =
        W == C.Filename && !Ext.empty() ? Map.sourceLanguage(Ext.drop_front().str()) : nullptr;
    if (Language) {
      llvm::SmallVector<llvm::StringRef, 2> LanguageWords;
      llvm::StringRef(Language->Hip).split(LanguageWords, ' ', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef L : LanguageWords)
        Out.push_back(L.str());
    }
    Out.push_back(std::move(W));
  }
  return Out;
}

/// Moves the value of a path option at Words[I] (separate for every option
/// listed, joined for inputs: -Iinc, not -ofile, which -odir would mimic);
/// returns the words it took, 0 when Words[I] is not such an option.
template <typename MoveFn>
size_t movePathOption(std::vector<std::string> &Words, size_t I,
                      const std::vector<std::string> &Options, bool IsOutput, MoveFn Moved) {
  llvm::StringRef W = Words[I];
  for (const std::string &Flag : Options) {
    if (W == Flag && I + 1 < Words.size()) {
      Words[I + 1] = Moved(Words[I + 1], IsOutput);
      return 2;
    }
    if (!IsOutput && W.starts_with(Flag) && W.size() > Flag.size()) {
      Words[I] = Flag + Moved(W.drop_front(Flag.size()), IsOutput);
      return 1;
    }
  }
  return 0;
}

/// Moves the paths among a command's words: the input file, and the values
/// of the map's path options.
void movePaths(std::vector<std::string> &Words, const clang::tooling::CompileCommand &C,
               const TreeMove &Move, const BuildFlagMap &Map) {
  auto Moved = [&](llvm::StringRef P, bool IsOutput) {
    return Move.path(P, C.Directory, IsOutput);
  };
  for (size_t I = 1; I < Words.size(); ++I) {
    if (Words[I] == C.Filename) {
      Words[I] = Moved(Words[I], false);
      continue;
    }
    size_t Taken = movePathOption(Words, I, Map.inputPathFlags(), false, Moved);
    if (Taken == 0)
      Taken = movePathOption(Words, I, Map.outputPathFlags(), true, Moved);
    I += Taken > 0 ? Taken - 1 : 0;
  }
}

} // namespace

BuildTranslation translateCompileDatabase(llvm::StringRef Text, llvm::StringRef DisplayPath,
                                          const BuildFlagMap &Map, const BuildOptions &Opts) {
  BuildTranslation Result;
  std::string Error;
  auto Database = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
      Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database) {
    Result.Text = Text.str();
    Result.Findings.push_back(buildFinding(Text, DisplayPath, 0, Severity::Warning,
                                           "not a compilation database clang reads, kept as "
                                           "written: " + Error));
    return Result;
  }
  NvccFlagTranslator Flags(Map, Opts);
  TreeMove Move(Opts, DisplayPath);
  llvm::json::Array Entries;
  size_t Searched = 0; // where the findings of the next entry are placed
  for (clang::tooling::CompileCommand C : Database->getAllCompileCommands()) {
    C.Directory = absoluteIn(Opts.Folder, C.Directory); // relative: the database's folder's
    std::vector<WordNote> Notes;
    std::vector<std::string> Words = hipCommand(C, Flags, Map, Notes);
    movePaths(Words, C, Move, Map);
    size_t At = std::min(Text.find(C.Filename, Searched), Text.size());
    Searched = At;
    for (const WordNote &N : Notes)
      Result.Findings.push_back(buildFinding(Text, DisplayPath, At, N.Level, N.Message));
    llvm::json::Object Entry{{"directory", Move.directory(C.Directory)},
                             {"file", Move.path(C.Filename, C.Directory, false)},
                             {"arguments", llvm::json::Array(Words)}};
    if (!C.Output.empty())
      Entry["output"] = Move.path(C.Output, C.Directory, true);
    Entries.push_back(std::move(Entry));
  }
  Result.Text = llvm::formatv("{0:2}\n", llvm::json::Value(std::move(Entries))).str();
  Result.Changes = Result.Text == Text ? 0 : 1;
  std::sort(Result.Findings.begin(), Result.Findings.end());
  return Result;
}

} // namespace cu2dcu
