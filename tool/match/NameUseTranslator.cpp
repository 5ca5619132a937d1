#include "match/NameUseTranslator.h"

#include "translate/EntryTranslation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

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

/// "cooperative_groups::this_thread_block" for a declaration in
/// cooperative_groups::__v1: the namespaces a user writes, without inline and
/// reserved (ABI version) ones. Empty when the declaration is not at namespace
/// scope (a member, an enumerator), whose entries are keyed by plain name.
static std::string writtenQualifiedName(const clang::NamedDecl *Decl) {
  std::string Name = Decl->getName().str();
  for (const clang::DeclContext *DC = Decl->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent()) {
    if (llvm::isa<clang::LinkageSpecDecl>(DC)) // extern "C" { ... }
      continue;
    const auto *Namespace = llvm::dyn_cast<clang::NamespaceDecl>(DC);
    if (!Namespace)
      return "";
    if (Namespace->isInline() || Namespace->isAnonymousNamespace() ||
        Namespace->getName().starts_with("__"))
      continue;
    Name = Namespace->getName().str() + "::" + Name;
  }
  return Name;
}

const ApiEntry *NameUseTranslator::lookup(const clang::NamedDecl *Decl) const {
  std::string Qualified = writtenQualifiedName(Decl);
  if (Qualified.find("::") != std::string::npos)
    if (const ApiEntry *Entry = Context.map().lookup(Qualified))
      return Entry;
  return Context.map().lookup(Decl->getName().str());
}

void NameUseTranslator::handleUse(const clang::NamedDecl *Decl, clang::SourceLocation Loc) {
  if (!Decl || !Decl->getIdentifier())
    return;
  clang::SourceManager &SM = Context.sourceManager();
  // A struct or enum the program redeclares (`struct cudaDeviceProp;`) is
  // still CUDA's: uses find the program's redeclaration. A function the
  // program redeclares stays its own (an interposing wrapper defines one).
  auto InSystemHeader = [&](const clang::Decl *D) { return SM.isInSystemHeader(D->getLocation()); };
  bool Cuda = llvm::isa<clang::TagDecl>(Decl) ? llvm::any_of(Decl->redecls(), InSystemHeader)
                                             : InSystemHeader(Decl);
  if (Cuda)
    translateOrReport(Decl, Loc);
}

void NameUseTranslator::handleUnresolvedUse(const clang::NamedDecl *SystemCandidate,
                                            clang::SourceLocation Loc) {
  // A dependent call names no overload yet: the candidate is any one of them,
  // so no overload's shim applies (each instantiation may take another).
  if (SystemCandidate && SystemCandidate->getIdentifier())
    translateOrReport(SystemCandidate, Loc, /*OverloadKnown=*/false);
}

/// The entry as it applies to a use of the overload Decl: where that overload
/// takes a parameter type that has a shim (shim_by_param), the use becomes the shim.
static std::optional<ApiEntry> overloadShim(const ApiEntry &Entry, const clang::NamedDecl *Decl) {
  const auto *Function = llvm::dyn_cast<clang::FunctionDecl>(Decl);
  if (Entry.ShimByParam.empty() || !Function)
    return std::nullopt;
  clang::PrintingPolicy Policy(Function->getASTContext().getLangOpts());
  auto Shim = llvm::find_if(Entry.ShimByParam, [&](const auto &Form) {
    ShimParameter Param = shimParameter(Form.first);
    return Param.Index < Function->getNumParams() &&
           Function->getParamDecl(Param.Index)->getType().getUnqualifiedType().getAsString(Policy) ==
               Param.Type;
  });
  if (Shim == Entry.ShimByParam.end())
    return std::nullopt;
  ApiEntry Overload = Entry;
  Overload.Status = EntryStatus::Unsupported;
  Overload.Shim = Shim->second;
  Overload.ShimByParam = {*Shim}; // the one overload, which the finding names
  return Overload;
}

void NameUseTranslator::translateOrReport(const clang::NamedDecl *Decl, clang::SourceLocation Loc,
                                          bool OverloadKnown) {
  if (const ApiEntry *Entry = lookup(Decl)) {
    std::optional<ApiEntry> Overload = OverloadKnown ? overloadShim(*Entry, Decl) : std::nullopt;
    Context.translateNameAt(Loc, Overload ? *Overload : *Entry);
    return;
  }
  if (isFromCudaHeaders(Decl) && Context.resolve(Loc))
    Context.report(Loc, check_ids::Unmapped, Severity::Error,
                   "'" + Decl->getName().str() +
                       "' is declared by CUDA but no map entry covers it; left unchanged");
}

} // namespace cu2dcu
