// Translates what the preprocessor sees and the AST does not: #include lines,
// CUDA macros used in code, the bodies of the user's macros, #if conditions
// and the code in inactive branches (a port must work in every configuration).
#pragma once

#include "match/SourceContext.h"

#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"

#include <string>

namespace cu2dcu {

class PreprocessorTranslator : public clang::PPCallbacks {
public:
  /// CudaIncludeDir: CUDA's include/ folder (empty: no CUDA headers), where
  /// a macro with no map entry is reported.
  PreprocessorTranslator(SourceContext &Context, std::string CudaIncludeDir)
      : Context(Context), CudaIncludeDir(std::move(CudaIncludeDir)) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind FileType, clang::FileID PrevFID) override;
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath,
                          const clang::Module *SuggestedModule, bool ModuleImported,
                          clang::SrcMgr::CharacteristicKind FileType) override;
  void MacroExpands(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;
  void MacroDefined(const clang::Token &MacroNameTok, const clang::MacroDirective *MD) override;
  void SourceRangeSkipped(clang::SourceRange Range, clang::SourceLocation EndifLoc) override;
  void If(clang::SourceLocation Loc, clang::SourceRange ConditionRange,
          ConditionValueKind ConditionValue) override;
  void Elif(clang::SourceLocation Loc, clang::SourceRange ConditionRange,
            ConditionValueKind ConditionValue, clang::SourceLocation IfLoc) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
             const clang::MacroDefinition &MD) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
              const clang::MacroDefinition &MD) override;

private:
  void translateTestedName(const clang::Token &MacroNameTok);
  void translateToken(const clang::Token &Tok);
  bool isDefinedByCuda(const clang::MacroInfo &Info) const;
  SourceContext &Context;
  std::string CudaIncludeDir;
};

} // namespace cu2dcu
