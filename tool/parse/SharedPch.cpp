#include "parse/SharedPch.h"
#include "parse/SystemBodies.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

namespace cu2dcu {

namespace {

std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return std::string();
  return Real.str().str();
}

/// What the PCH build reports besides the PCH itself.
struct BuildRecord {
  std::vector<std::string> TopReal; // identity of each own #include of the header
  std::string MustSkip;
  std::set<std::string> ShadowNames;
  // The header lists every #include twice: the own ones, then (from offset
  // SecondCopy) all of them again, standing for the unit's own #include lines
  // after the PCH. In that second part nothing may happen.
  unsigned SecondCopy = 0;
  size_t BaseCount = 0;
  int Reincluding = -1;     // index of the #include of the second part being processed
  int FirstViolation = -1;  // the first one that did something
  unsigned Errors = 0;
  std::string FirstError;

  void violation() {
    if (Reincluding >= 0 && (FirstViolation < 0 || Reincluding < FirstViolation))
      FirstViolation = Reincluding;
  }
};

class BuildRecorder : public clang::PPCallbacks {
public:
  BuildRecorder(BuildRecord &Record, clang::SourceManager &SM,
                const std::function<bool(const std::string &)> &IsTranslated)
      : Record(Record), SM(SM), IsTranslated(IsTranslated) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile || Record.Reincluding < 0)
      return;
    // Seen again, a file of the run would be translated again (skipped
    // blocks, #if conditions): it must be skipped outright.
    if (auto Entry = SM.getFileEntryRefForID(SM.getFileID(Loc)))
      if (IsTranslated(realPath(Entry->getName())))
        Record.violation();
  }
  void MacroDefined(const clang::Token &, const clang::MacroDirective *) override {
    Record.violation();
  }
  void MacroUndefined(const clang::Token &, const clang::MacroDefinition &,
                      const clang::MacroDirective *) override {
    Record.violation();
  }
  void PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind) override {
    if (Record.Reincluding < 0)
      return;
    // #pragma once and GCC system_header change nothing the second time.
    bool Invalid = false;
    llvm::StringRef Text = SM.getCharacterData(SM.getExpansionLoc(Loc), &Invalid);
    Text = Text.take_until([](char C) { return C == '\n'; });
    if (Invalid || !(Text.contains("once") || Text.contains("system_header")))
      Record.violation();
  }

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled, clang::CharSourceRange,
                          clang::OptionalFileEntryRef File, llvm::StringRef SearchPath,
                          llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    auto [Includer, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(HashLoc));
    if (Includer == SM.getMainFileID()) {
      if (Offset >= Record.SecondCopy) {
        Record.Reincluding = Record.Reincluding < 0 ? 0 : Record.Reincluding + 1;
        return;
      }
      std::string Real = File ? realPath(File->getName()) : std::string();
      Record.TopReal.push_back(File ? resolvedIdentity(*File) : std::string());
      Record.MustSkip += !Real.empty() && IsTranslated(Real) ? '1' : '0';
      if (IsAngled) // looked up as <name>; a project header comes by its path
        Record.ShadowNames.insert(FileName.str());
      return;
    }
    if (Record.Reincluding >= 0)
      return;
    // A unit searches -I<its directory> before all but the includer's own
    // directory for "name" (and #include_next starts after it).
    const clang::IdentifierInfo *Kind = IncludeTok.getIdentifierInfo();
    if (Kind && Kind->getName() == "include_next")
      return;
    if (!IsAngled && File) {
      auto IncluderEntry = SM.getFileEntryRefForID(Includer);
      if (IncluderEntry && llvm::sys::path::parent_path(IncluderEntry->getName()) == SearchPath)
        return; // found beside the includer, which is searched first
    }
    Record.ShadowNames.insert(FileName.str());
  }

  void HasInclude(clang::SourceLocation, llvm::StringRef FileName, bool,
                  clang::OptionalFileEntryRef, clang::SrcMgr::CharacteristicKind) override {
    Record.ShadowNames.insert(FileName.str());
  }

private:
  BuildRecord &Record;
  clang::SourceManager &SM;
  const std::function<bool(const std::string &)> &IsTranslated;
};

/// The part of a PCH build's consumer that says which bodies to skip (a
/// multiplexed consumer skips a body only when all its parts agree).
class SkipSystemBodies : public clang::ASTConsumer {
public:
  SkipSystemBodies(const clang::SourceManager &SM,
                   const std::function<bool(const std::string &)> &IsTranslated)
      : SM(SM), IsTranslated(IsTranslated) {}
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return isSkippableBody(D, SM, [&](clang::FileID File) {
      clang::OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      return Entry && IsTranslated(Entry->getFileEntry().tryGetRealPathName().str());
    });
  }

private:
  const clang::SourceManager &SM;
  const std::function<bool(const std::string &)> &IsTranslated;
};

class RecordingPchAction : public clang::GeneratePCHAction {
public:
  RecordingPchAction(BuildRecord &Record,
                     const std::function<void(clang::CompilerInstance &)> &OnBeginSource,
                     const std::function<bool(const std::string &)> &IsTranslated)
      : Record(Record), OnBeginSource(OnBeginSource), IsTranslated(IsTranslated) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
    Consumers.push_back(GeneratePCHAction::CreateASTConsumer(CI, InFile));
    // The units' system function bodies are skipped: the PCH's are too.
    enableBodySkipping(CI);
    Consumers.push_back(std::make_unique<SkipSystemBodies>(CI.getSourceManager(), IsTranslated));
    auto Consumer = std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
    // Callbacks first: what the translation's callbacks record of the second
    // part is never used, as a build where it does anything is discarded.
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<BuildRecorder>(Record, CI.getSourceManager(), IsTranslated));
    if (OnBeginSource)
      OnBeginSource(CI);
    // Every token the second part hands to the parser is a change.
    CI.getPreprocessor().setTokenWatcher([this](const clang::Token &Tok) {
      if (!Tok.is(clang::tok::eof))
        Record.violation();
    });
    return Consumer;
  }

private:
  BuildRecord &Record;
  const std::function<void(clang::CompilerInstance &)> &OnBeginSource;
  const std::function<bool(const std::string &)> &IsTranslated;
};

class ErrorCounter : public clang::DiagnosticConsumer {
public:
  explicit ErrorCounter(BuildRecord &Record) : Record(Record) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error)
      return;
    if (Record.Errors++ == 0) {
      llvm::SmallString<256> Message;
      Info.FormatDiagnostic(Message);
      Record.FirstError = Message.str().str();
    }
  }

private:
  BuildRecord &Record;
};

} // namespace

std::string resolvedIdentity(clang::FileEntryRef File) {
  return realPath(File.getName()) + "\n" +
         realPath(llvm::sys::path::parent_path(File.getName()));
}

bool buildSharedPch(SharedPch &Pch, const CudaToolchain &Toolchain,
                    const std::function<void(clang::CompilerInstance &)> &OnBeginSource,
                    const std::function<bool(const std::string &)> &IsTranslated,
                    int &FirstNotReentrant) {
  Pch.Ok = false;
  FirstNotReentrant = -1;
  const size_t BaseCount = Pch.Base ? Pch.Base->Includes.size() : 0;
  BuildRecord Record;
  {
    std::string Text;
    for (size_t I = BaseCount; I < Pch.Includes.size(); ++I)
      Text += "#include " + Pch.Includes[I] + "\n";
    Record.SecondCopy = unsigned(Text.size());
    for (const std::string &Operand : Pch.Includes) // the base's too
      Text += "#include " + Operand + "\n";
    std::error_code EC;
    llvm::raw_fd_ostream Header(Pch.HeaderPath, EC);
    if (EC) {
      Pch.Why = "cannot write " + Pch.HeaderPath + ": " + EC.message();
      return false;
    }
    Header << Text;
  }
  std::vector<std::string> Args = cudaParseArgs(Toolchain, Pch.HeaderPath, Pch.Flags);
  Args.insert(Args.end() - 1, {"-Xclang", "-emit-pch", "-Xclang", "-o", "-Xclang", Pch.PchPath});
  if (Pch.Base) // a chained PCH: only what the base does not hold is written
    Args.insert(Args.end() - 1, {"-Xclang", "-include-pch", "-Xclang", Pch.Base->PchPath});
  llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
      new clang::FileManager(clang::FileSystemOptions()));
  ErrorCounter Errors(Record);
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<RecordingPchAction>(Record, OnBeginSource, IsTranslated),
      Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  if (!Invocation.run() || Record.Errors) {
    Pch.Why = "the headers do not parse: " + Record.FirstError;
    return false;
  }
  if (Record.TopReal.size() != Pch.Includes.size() - BaseCount ||
      Record.Reincluding + 1 != int(Pch.Includes.size())) {
    Pch.Why = "unexpected #include count";
    return false;
  }
  FirstNotReentrant = Record.FirstViolation;
  Pch.Reads = filesLookedUp(*Files);
  Pch.Resolved = std::move(Record.TopReal);
  Pch.MustSkip = std::move(Record.MustSkip);
  Pch.ShadowNames = std::move(Record.ShadowNames);
  Pch.Ok = FirstNotReentrant < 0 && llvm::sys::fs::exists(Pch.PchPath);
  if (!Pch.Ok)
    Pch.Why = FirstNotReentrant >= 0 ? "#include " + Pch.Includes[FirstNotReentrant] +
                                           " does something when seen again"
                                     : "no PCH was written";
  return Pch.Ok;
}

std::vector<std::string> filesLookedUp(const clang::FileManager &Files) {
  llvm::SmallVector<clang::OptionalFileEntryRef> Entries;
  Files.GetUniqueIDMapping(Entries);
  std::vector<std::string> Paths;
  for (clang::OptionalFileEntryRef Entry : Entries)
    if (Entry) {
      llvm::SmallString<256> Path(Entry->getName());
      llvm::sys::fs::make_absolute(Path);
      llvm::sys::path::remove_dots(Path);
      Paths.push_back(std::string(Path));
    }
  return Paths;
}

void inheritFromBase(SharedPch &Pch) {
  if (!Pch.Base)
    return;
  const SharedPch &Base = *Pch.Base;
  Pch.Resolved.insert(Pch.Resolved.begin(), Base.Resolved.begin(), Base.Resolved.end());
  Pch.MustSkip = Base.MustSkip + Pch.MustSkip;
  Pch.ShadowNames.insert(Base.ShadowNames.begin(), Base.ShadowNames.end());
  // The base's findings come first, as the base's headers come first.
  std::map<std::string, FileFindings> Files = Base.Translated.Files;
  for (auto &[Path, Own] : Pch.Translated.Files) {
    FileFindings &Into = Files[Path];
    Into.Edits.insert(Into.Edits.end(), Own.Edits.begin(), Own.Edits.end());
    Into.Diagnostics.insert(Into.Diagnostics.end(), Own.Diagnostics.begin(),
                            Own.Diagnostics.end());
  }
  Pch.Translated.Files = std::move(Files);
  std::vector<std::string> Entered = Base.TranslatedFiles;
  for (const std::string &Path : Pch.TranslatedFiles)
    if (std::find(Entered.begin(), Entered.end(), Path) == Entered.end())
      Entered.push_back(Path);
  Pch.TranslatedFiles = std::move(Entered);
  Pch.WholeUnit = Pch.WholeUnit || Base.WholeUnit;
}

bool pchUsableFrom(const SharedPch &Pch, const std::string &Dir) {
  for (const std::string &Name : Pch.ShadowNames) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, Name);
    if (llvm::sys::fs::exists(Candidate))
      return false;
  }
  return true;
}

std::vector<std::string> cudaParseArgsWithPch(const CudaToolchain &Toolchain,
                                              const std::string &File,
                                              const std::vector<std::string> &UserArgs,
                                              const SharedPch &Pch) {
  std::vector<std::string> Args = cudaParseArgs(Toolchain, File, UserArgs);
  Args.insert(Args.end() - 1, {"-Xclang", "-include-pch", "-Xclang", Pch.PchPath});
  return Args;
}

// --- checking a unit's parse against its scanned prefix ----------------------

class PrefixCheck::Callbacks : public clang::PPCallbacks {
public:
  Callbacks(PrefixCheck &Check, clang::SourceManager &SM) : Check(Check), SM(SM) {
    for (size_t I = 0; I < Check.Expected.size(); ++I)
      ByOffset[Check.Expected[I].Offset] = I;
  }

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (done())
      return;
    if (PendingSkip >= 0)
      return Check.fail("an #include of the PCH was neither skipped nor entered");
    auto [FID, Offset] = SM.getDecomposedLoc(HashLoc);
    if (FID != SM.getMainFileID())
      return; // the -include files of the predefines
    auto It = ByOffset.find(Offset);
    if (It == ByOffset.end())
      return Check.fail("an #include the scan did not see");
    if ((File ? resolvedIdentity(*File) : std::string()) != Check.Pch.Resolved[It->second])
      return Check.fail("#include " + Check.Expected[It->second].Spelling +
                        " does not resolve to the file the PCH has");
    // A file of the run must be skipped; any other one may be entered again,
    // the PCH build having checked that this does nothing.
    if (Check.Pch.MustSkip[It->second] == '1')
      PendingSkip = int(It->second);
    else
      met(It->second);
  }

  void FileSkipped(const clang::FileEntryRef &, const clang::Token &,
                   clang::SrcMgr::CharacteristicKind) override {
    if (PendingSkip >= 0)
      met(PendingSkip);
    PendingSkip = -1;
  }

  void FileChanged(clang::SourceLocation, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason == EnterFile && PendingSkip >= 0)
      Check.fail("a header of the PCH was entered again");
  }

  void EndOfMainFile() override {
    if (!done())
      Check.fail("the #include lines of the PCH were not all seen");
  }

private:
  bool done() const { return Check.Failed || Check.Remaining == 0; }
  void met(size_t I) {
    if (!Check.Met[I]) {
      Check.Met[I] = true;
      --Check.Remaining;
    }
  }

  PrefixCheck &Check;
  clang::SourceManager &SM;
  std::map<unsigned, size_t> ByOffset;
  int PendingSkip = -1;
};

PrefixCheck::PrefixCheck(const IncludePrefix &Prefix, const SharedPch &Pch) : Pch(Pch) {
  size_t N = std::min(Prefix.Includes.size(), Pch.Includes.size());
  Expected.assign(Prefix.Includes.begin(), Prefix.Includes.begin() + N);
  Met.assign(N, false);
  Remaining = unsigned(N);
  if (N != Pch.Includes.size())
    fail("the unit has fewer #include lines than the PCH");
}

void PrefixCheck::attach(clang::CompilerInstance &CI) {
  CI.getPreprocessor().addPPCallbacks(std::make_unique<Callbacks>(*this, CI.getSourceManager()));
}

void PrefixCheck::fail(std::string Reason) {
  if (!Failed) {
    Failed = true;
    Why = std::move(Reason);
  }
}

} // namespace cu2dcu
