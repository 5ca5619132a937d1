#include "match/PreprocessorTranslator.h"

#include "translate/EntryTranslation.h"

#include "clang/Lex/MacroInfo.h"

namespace cu2dcu {

void PreprocessorTranslator::FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                                         clang::SrcMgr::CharacteristicKind, clang::FileID) {
  if (Reason == EnterFile && Loc.isFileID())
    Context.noteFileEntered(Context.sourceManager().getFileID(Loc));
}

void PreprocessorTranslator::InclusionDirective(
    clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef FileName, bool,
    clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef, llvm::StringRef,
    llvm::StringRef, const clang::Module *, bool, clang::SrcMgr::CharacteristicKind) {
  clang::SourceManager &SM = Context.sourceManager();
  if (HashLoc.isMacroID() || FilenameRange.getBegin().isMacroID())
    return;
  auto [File, HashOffset] = SM.getDecomposedLoc(HashLoc);
  if (!Context.isTranslated(File))
    return;
  unsigned NameBegin = SM.getFileOffset(FilenameRange.getBegin());
  unsigned NameEnd = SM.getFileOffset(FilenameRange.getEnd());
  const std::string &Text = Context.textOf(File);
  unsigned LineEnd = NameEnd;
  while (LineEnd < Text.size() && Text[LineEnd] != '\n')
    ++LineEnd;
  if (LineEnd < Text.size())
    ++LineEnd;
  unsigned LineBegin = HashOffset;
  while (LineBegin > 0 && Text[LineBegin - 1] != '\n')
    --LineBegin;
  translateInclude(Context.map(), FileName.str(), NameBegin, NameEnd - NameBegin, LineBegin,
                   LineEnd, Text, Context.pathOf(File), Context.options(),
                   Context.findingsFor(File), Context.includedHip(File));
}

bool PreprocessorTranslator::isDefinedByCuda(const clang::MacroInfo &Info) const {
  const clang::SourceManager &SM = Context.sourceManager();
  auto File = SM.getFileEntryRefForID(SM.getFileID(SM.getFileLoc(Info.getDefinitionLoc())));
  // CCCL's macros are its C++ library's, covered by namespace entries.
  return !CudaIncludeDir.empty() && File && File->getName().starts_with(CudaIncludeDir) &&
         !File->getName().contains("/cccl/");
}

void PreprocessorTranslator::translateToken(const clang::Token &Tok) {
  const clang::IdentifierInfo *II = Tok.getIdentifierInfo();
  const ApiEntry *Entry = II ? Context.map().lookup(II->getName().str()) : nullptr;
  if (!Entry)
    return;
  // Where the use sits (an #if condition or code) decides its form.
  if (!Entry->HipInCondition.empty())
    Context.translateLexically(Tok.getLocation());
  else
    Context.translateNameAt(Tok.getLocation(), *Entry);
}

void PreprocessorTranslator::MacroExpands(const clang::Token &MacroNameTok,
                                          const clang::MacroDefinition &MD, clang::SourceRange,
                                          const clang::MacroArgs *) {
  // Only macros that CUDA (or the compiler) defines; the user's own macros are
  // translated in their bodies.
  const clang::MacroInfo *Info = MD.getMacroInfo();
  if (Info && !Info->isBuiltinMacro()) {
    clang::SourceLocation Def = Info->getDefinitionLoc();
    if (Def.isValid() && !Context.sourceManager().isInSystemHeader(Def) &&
        !Context.sourceManager().isWrittenInBuiltinFile(Def) &&
        !Context.sourceManager().isWrittenInCommandLineFile(Def))
      return;
  }
  const clang::IdentifierInfo *Name = MacroNameTok.getIdentifierInfo();
  if (Name && !Context.map().lookup(Name->getName().str())) {
    // Written in the code (not through another macro) and CUDA's: nothing
    // translates it, so it is reported rather than left silently.
    if (Info && !MacroNameTok.getLocation().isMacroID() && isDefinedByCuda(*Info) &&
        Context.resolve(MacroNameTok.getLocation()))
      Context.report(MacroNameTok.getLocation(), check_ids::Unmapped, Severity::Error,
                     "macro '" + Name->getName().str() +
                         "' is defined by CUDA but no map entry covers it; left unchanged");
    return;
  }
  translateToken(MacroNameTok);
}

void PreprocessorTranslator::MacroDefined(const clang::Token &MacroNameTok,
                                          const clang::MacroDirective *MD) {
  const clang::MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr;
  if (!Info || Info->getNumTokens() == 0)
    return;
  Context.deferMacroBody(
      clang::SourceRange(Info->tokens_begin()->getLocation(), Info->getDefinitionEndLoc()));
}

void PreprocessorTranslator::SourceRangeSkipped(clang::SourceRange Range, clang::SourceLocation) {
  Context.translateLexically(Range);
}

void PreprocessorTranslator::If(clang::SourceLocation, clang::SourceRange ConditionRange,
                                ConditionValueKind) {
  Context.translateLexically(ConditionRange);
}

void PreprocessorTranslator::Elif(clang::SourceLocation, clang::SourceRange ConditionRange,
                                  ConditionValueKind, clang::SourceLocation) {
  Context.translateLexically(ConditionRange);
}

void PreprocessorTranslator::Ifdef(clang::SourceLocation, const clang::Token &MacroNameTok,
                                   const clang::MacroDefinition &) {
  translateTestedName(MacroNameTok);
}

void PreprocessorTranslator::Ifndef(clang::SourceLocation, const clang::Token &MacroNameTok,
                                    const clang::MacroDefinition &) {
  translateTestedName(MacroNameTok);
}

void PreprocessorTranslator::translateTestedName(const clang::Token &MacroNameTok) {
  // The name alone carries no "#ifdef" for the lexical pass to see.
  const clang::IdentifierInfo *Name = MacroNameTok.getIdentifierInfo();
  const ApiEntry *Entry = Name ? Context.map().lookup(Name->getName().str()) : nullptr;
  if (Entry && Entry->DefinedOnly && Entry->isSupported())
    Context.translateNameAt(MacroNameTok.getLocation(), *Entry);
  else
    Context.translateLexically(MacroNameTok.getLocation());
}

} // namespace cu2dcu
