#include "match/SourceContext.h"

#include "translate/EntryTranslation.h"
#include "translate/NamespaceTranslation.h"

#include "clang/Lex/Lexer.h"
#include "translate/RawTokens.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cu2dcu {

const SourceContext::FileInfo &SourceContext::info(clang::FileID File) const {
  auto It = Files.find(File);
  if (It != Files.end())
    return It->second;
  FileInfo &Info = Files[File];
  if (auto Entry = SM->getFileEntryRefForID(File)) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Entry->getName(), Real)) {
      Info.Path = Real.str().str();
      Info.Translated = Filter(Info.Path);
      if (Info.Translated)
        Info.Text = SM->getBufferData(File).str();
    }
  }
  return Info;
}

bool SourceContext::isTranslated(clang::FileID File) const { return info(File).Translated; }
const std::string &SourceContext::pathOf(clang::FileID File) const { return info(File).Path; }
const std::string &SourceContext::textOf(clang::FileID File) const { return info(File).Text; }

std::pair<unsigned, unsigned> SourceContext::lineColumnOf(clang::FileID File,
                                                         unsigned Offset) const {
  const FileInfo &Info = info(File);
  if (!Info.Lines)
    Files[File].Lines = std::make_shared<const LineIndex>(Info.Text);
  return Info.Lines->lineColumn(Offset);
}

FileFindings &SourceContext::findingsFor(clang::FileID File) {
  return Result.at(pathOf(File));
}

std::optional<FilePosition> SourceContext::resolve(clang::SourceLocation Loc) const {
  if (Loc.isInvalid())
    return std::nullopt;
  if (Loc.isMacroID()) {
    // A name the user wrote as a macro argument is spelled at the call site;
    // one written in a macro body is translated once, in the body's text.
    if (!SM->isMacroArgExpansion(Loc))
      return std::nullopt;
    Loc = SM->getSpellingLoc(Loc);
    if (Loc.isMacroID())
      return std::nullopt;
  }
  auto [File, Offset] = SM->getDecomposedLoc(Loc);
  if (!isTranslated(File))
    return std::nullopt;
  return FilePosition{File, Offset};
}

std::optional<SourceContext::FileRange> SourceContext::resolveRange(clang::SourceRange Range) const {
  clang::CharSourceRange Chars = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(Range), *SM, cudaLangOptions());
  if (Chars.isInvalid())
    return std::nullopt;
  auto [File, Begin] = SM->getDecomposedLoc(Chars.getBegin());
  auto [EndFile, End] = SM->getDecomposedLoc(Chars.getEnd());
  if (File != EndFile || !isTranslated(File))
    return std::nullopt;
  return FileRange{File, Begin, End};
}

void SourceContext::translateNameAt(clang::SourceLocation Loc, const ApiEntry &Entry) {
  auto Pos = resolve(Loc);
  if (!Pos)
    return;
  // A qualified entry (cooperative_groups::sync) was matched by declaration;
  // the use spells only its last name, after any qualifier or alias. The map
  // loader guarantees that CUDA and HIP names share the qualifier.
  ApiEntry Unqualified;
  const ApiEntry *Use = &Entry;
  if (size_t Colons = Entry.Cuda.rfind("::"); Colons != std::string::npos) {
    Unqualified = Entry;
    Unqualified.Cuda = Entry.Cuda.substr(Colons + 2);
    Unqualified.Hip = Entry.Hip.substr(std::min(Entry.Hip.size(), Colons + 2));
    Use = &Unqualified;
  }
  const std::string &Text = textOf(Pos->File);
  if (Text.compare(Pos->Offset, Use->Cuda.size(), Use->Cuda) != 0)
    return; // spelled differently (token pasting, alias): not ours to rename
  translateUse(*Use, Pos->Offset, Use->Cuda.size(), Text, pathOf(Pos->File), Options,
               findingsFor(Pos->File));
}

void SourceContext::report(clang::SourceLocation Loc, const char *CheckId, Severity Level,
                           std::string Message, std::vector<FixIt> Fixes) {
  auto Pos = resolve(Loc);
  if (!Pos && Loc.isMacroID()) {
    // Findings inside macro bodies are still worth showing: point at the body.
    auto [File, Offset] = SM->getDecomposedLoc(SM->getSpellingLoc(Loc));
    if (isTranslated(File))
      Pos = FilePosition{File, Offset};
  }
  if (!Pos)
    return;
  FileFindings &Out = findingsFor(Pos->File);
  addFinding(Out, textOf(Pos->File), pathOf(Pos->File), Pos->Offset, CheckId, Level,
             std::move(Message));
  Out.Diagnostics.back().Fixes = std::move(Fixes);
}

std::optional<SourceContext::FileRange> SourceContext::tokenRange(clang::SourceRange Range) const {
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  auto [File, Begin] = SM->getDecomposedLoc(Range.getBegin());
  auto [EndFile, EndTokenStart] = SM->getDecomposedLoc(Range.getEnd());
  if (File != EndFile || !isTranslated(File))
    return std::nullopt;
  // The range ends at the start of its last token; include that token.
  unsigned End = EndTokenStart + clang::Lexer::MeasureTokenLength(Range.getEnd(), *SM,
                                                                   cudaLangOptions());
  return FileRange{File, Begin, std::max(End, Begin)};
}

void SourceContext::translateLexically(clang::SourceRange Range) {
  if (auto R = tokenRange(Range))
    Lexical.translateRange(textOf(R->File), R->Begin, R->End, pathOf(R->File),
                           findingsFor(R->File), includedHip(R->File));
}

void SourceContext::translateMacroBodies(
    const std::map<clang::FileID, std::set<unsigned>> &LeftToAst) {
  for (clang::SourceRange Body : MacroBodies)
    if (auto R = tokenRange(Body)) {
      auto Left = LeftToAst.find(R->File);
      Lexical.translateRange(textOf(R->File), R->Begin, R->End, pathOf(R->File),
                             findingsFor(R->File), includedHip(R->File),
                             Left == LeftToAst.end() ? nullptr : &Left->second);
    }
  MacroBodies.clear();
}

} // namespace cu2dcu

namespace cu2dcu {

void SourceContext::noteFileEntered(clang::FileID File) {
  if (isTranslated(File))
    Entered.insert(File);
}

void SourceContext::finishFiles() {
  for (clang::FileID File : Entered)
    finishFile(pathOf(File), textOf(File));
}

void SourceContext::finishFile(const std::string &Path, const std::string &Text) {
  translateNamespaces(Map, Options, Text, 0, Text.size(), Path, Result.at(Path));
}

} // namespace cu2dcu
