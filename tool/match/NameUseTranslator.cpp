#include "match/NameUseTranslator.h"

#include "lexical/EntryTranslation.h"

namespace cu2dcu {

bool NameUseTranslator::isFromCudaHeaders(const clang::Decl *Decl) const {
  if (CudaIncludeDir.empty())
    return false;
  clang::SourceManager &SM = Context.sourceManager();
  clang::SourceLocation Loc = SM.getFileLoc(Decl->getLocation());
  auto Entry = SM.getFileEntryRefForID(SM.getFileID(Loc));
  if (!Entry)
    return false;
  llvm::StringRef Path = Entry->getName();
  // CCCL (Thrust, CUB, libcu++) lives under include/cccl and is C++ library
  // code, covered by namespace entries rather than per-name ones.
  return Path.starts_with(CudaIncludeDir) && !Path.contains("/cccl/");
}

void NameUseTranslator::handleUse(const clang::NamedDecl *Decl, clang::SourceLocation Loc) {
  if (!Decl || !Decl->getIdentifier())
    return;
  clang::SourceManager &SM = Context.sourceManager();
  if (!SM.isInSystemHeader(Decl->getLocation()))
    return;
  std::string Name = Decl->getName().str();
  if (const ApiEntry *Entry = Context.map().lookup(Name)) {
    Context.translateNameAt(Loc, *Entry);
    return;
  }
  if (isFromCudaHeaders(Decl) && Context.resolve(Loc))
    Context.report(Loc, check_ids::Unmapped, Severity::Error,
                   "'" + Name + "' is declared by CUDA but no map entry covers it; left unchanged");
}

void NameUseTranslator::handleUnresolvedUse(const std::string &Name, clang::SourceLocation Loc,
                                            bool AnyCandidateFromSystemHeader) {
  if (!AnyCandidateFromSystemHeader)
    return;
  if (const ApiEntry *Entry = Context.map().lookup(Name))
    Context.translateNameAt(Loc, *Entry);
}

} // namespace cu2dcu
